"""Why a move is illegal, in words a player understands, in English and Russian.

The engine raises :class:`IllegalMove` with a message code and its parameters;
``str()`` gives English (what the replay command prints) and :meth:`IllegalMove.text`
gives either language, so front ends translate without parsing English.
"""

from __future__ import annotations

from collections.abc import Callable

SUIT_NAMES = {
    "en": ("spades", "clubs", "diamonds", "hearts"),
    "ru": ("пики", "трефы", "бубны", "черви"),
}
#: Suit names in the genitive ("the queen of hearts" / "дама червей").
SUIT_OF = {
    "en": ("spades", "clubs", "diamonds", "hearts"),
    "ru": ("пик", "треф", "бубен", "червей"),
}

MESSAGES: dict[str, tuple[str, str]] = {
    "not_your_turn": ("it is seat {seat}'s turn", "сейчас ход игрока {seat}"),
    "deal_over": ("the deal is over", "раздача окончена"),
    "wrong_phase": ("{what} is not possible now: {now}", "{what} сейчас невозможно: {now}"),
    "not_in_hand": ("you do not hold {card}", "у вас нет карты {card}"),
    "must_follow": ("you must follow {suit}", "нужно ходить в масть: {suit}"),
    "must_overtake": ("you must play higher than {card}", "нужно перебить {card}"),
    "must_trump": ("you have no {led}: you must play a trump ({suit})",
                   "нет масти {led}: нужно бить козырем ({suit})"),
    "no_declare_first_lead": ("no declaration on the first lead of the deal",
                              "на первом ходу раздачи марьяж не объявляют"),
    "declare_not_on_lead": ("only the player on lead may declare",
                            "объявить может только тот, кто ходит первым во взятку"),
    "nothing_to_declare": (
        "{card} declares nothing: you need its partner (K+Q of a suit){extra}",
        "{card} ничего не объявляет: нужна пара (король и дама одной масти){extra}",
    ),
    "aces_in_row": ("after the ace marriage you must lead your aces in a row",
                    "после тузового марьяжа тузы нужно выкладывать подряд"),
    "no_lead_own_trump": ("you declared the trump, so you may not lead it",
                          "кто объявил козырь, тот с козыря не ходит"),
    "first_bid_compulsory": ("the first bid is compulsory: bid {min} or more",
                             "первая ставка обязательна: закажите {min} или больше"),
    "bid_too_low": ("a bid must be at least {min}", "ставка должна быть не меньше {min}"),
    "bid_step": ("bids go in steps of {step}", "ставки кратны {step}"),
    "opening_exactly_100": ("the opener bids 100 (he sits on 100)",
                            "первый говорит только 100 («сижу на ста»)"),
    "one_step": ("every raise is one step of {step}: bid {next}",
                 "повышать можно только на один шаг ({step}): {next}"),
    "buy_not_allowed": ("the talon cannot be bought now{why}", "перекупить прикуп сейчас нельзя{why}"),
    "bid_over_cap": ("you may not bid above {cap}{why}", "нельзя заказать больше {cap}{why}"),
    "barred": ("your score is at or below {limit}: you may only pass",
               "при счёте {limit} и ниже торговаться нельзя: только пас"),
    "dark_outbid": ("a dark bid may be outbid only holding a marriage",
                    "перебить тёмную можно только с марьяжем на руке"),
    "dark_not_allowed": ("a dark bid is not possible now", "темнить сейчас нельзя"),
    "redeal_not_entitled": ("you are not entitled to a redeal", "пересдача вам не положена"),
    "contract_too_low": ("the contract may not be lower than the bid {bid}",
                         "заказ не может быть меньше ставки {bid}"),
    "concede_not_allowed": ("you may not concede now{why}", "расписать сейчас нельзя{why}"),
    "not_a_move_now": ("{what} is not a move here; possible: {legal}",
                       "{what} здесь не ход; можно: {legal}"),
}


class IllegalMove(ValueError):
    """A move the rules do not allow in this position; ``str()`` says why in English."""

    def __init__(self, move: str, code: str, **params: object) -> None:
        self.move = move
        self.code = code
        self.params = params
        super().__init__(f"{move}: {self.text('en')}")

    def text(self, lang: str = "en") -> str:
        """The reason alone (without the move), in ``lang`` (``en`` or ``ru``)."""
        en, ru = MESSAGES[self.code]
        template = ru if lang == "ru" else en
        params = {k: (v(lang) if callable(v) else v) for k, v in self.params.items()}
        return template.format(**params)


def suit_name(suit: int) -> Callable[[str], str]:
    """A parameter that renders as the suit's name in the message's language."""
    return lambda lang: SUIT_NAMES["ru" if lang == "ru" else "en"][suit]
