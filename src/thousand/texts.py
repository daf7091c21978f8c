"""The message catalogue: what the engine's codes say to people, in Russian and English.

The engine (deal, game, table) speaks in codes and plain data (:mod:`thousand.errors`,
the table's events); the terminal, the replay command, the browser and the bots' reasons
turn them into words here.  One place for the words means a new language, or a better
phrase, touches no rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .cards import SUITS, card_label, parse_card

LANGS: tuple[str, ...] = ("ru", "en")

SUIT_NAMES = {
    "en": ("spades", "clubs", "diamonds", "hearts"),
    "ru": ("пики", "трефы", "бубны", "черви"),
}
#: Suit names in the genitive ("the queen of hearts" / "дама червей").
SUIT_OF = {
    "en": ("spades", "clubs", "diamonds", "hearts"),
    "ru": ("пик", "треф", "бубен", "червей"),
}

#: Why a move is illegal: code -> (English, Russian); ``{name}`` marks a parameter.
ILLEGAL: dict[str, tuple[str, str]] = {
    "not_a_move": ("this is not a move", "это не ход"),
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
    "buy_not_allowed": ("the talon cannot be bought now{why}",
                        "перекупить прикуп сейчас нельзя{why}"),
}

#: The reason codes some messages carry in ``why``/``extra`` (code -> (English, Russian)).
REASONS: dict[str, tuple[str, str]] = {
    "no_concede_rules": (": these rules have no concede", ": в этих правилах росписи нет"),
    "dark_deal": (": a dark deal cannot be conceded", ": тёмную не расписывают"),
    "not_for_you": (": not for you in this deal", ": вам в этой раздаче нельзя"),
    "no_marriage": (" without a marriage", " без марьяжа"),
    "with_marriages": (" with your marriages", " с вашими марьяжами"),
    "no_buy_rules": (": these rules have no buy-out", ": в этих правилах перекупа нет"),
    "not_now": ("", ""),
    "already_declared": ("; this suit's marriage has been declared already",
                         "; марьяж этой масти уже объявлен"),
    "": ("", ""),
}

#: What the player to move is to do (``task`` of ``wrong_phase``).
TASKS: dict[str, tuple[str, str]] = {
    "dark_or_look": ("bid dark or look at his cards", "темнить или посмотреть карты"),
    "bid": ("bid or pass", "торговаться или пасовать"),
    "give": ("give a card", "отдать карту"),
    "discard": ("discard a card", "снести карту"),
    "contract": ("name the contract", "назвать заказ"),
    "contract_or_concede": ("name the contract or concede", "назвать заказ или расписать"),
    "redeal_or_pass": ("demand a redeal or pass", "потребовать пересдачу или пасовать"),
    "buy_or_pass": ("buy the talon or pass", "перекупить прикуп или пасовать"),
    "play": ("play a card", "сходить"),
    "nothing": ("nothing", "ничего"),
}


def _pick(pair: tuple[str, str], lang: str) -> str:
    return pair[1] if lang == "ru" else pair[0]


def suit_name(suit: int | str, lang: str = "ru") -> str:
    """A suit (0..3 or its letter ``S C D H``) by name."""
    index = SUITS.index(suit) if isinstance(suit, str) else suit
    return SUIT_NAMES["ru" if lang == "ru" else "en"][index]


def seat_name(seat: int, lang: str = "ru", names: Sequence[str] | None = None) -> str:
    """A seat by its player's name when the names are known, else "seat N"."""
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return f"игрок {seat}" if lang == "ru" else f"seat {seat}"


def illegal_text(
    code: str,
    params: Mapping[str, object],
    lang: str = "en",
    names: Sequence[str] | None = None,
) -> str:
    """Why a move is illegal, from :class:`thousand.errors.IllegalMove`'s code and
    parameters, in ``lang``; ``names`` (by seat) replaces "seat N"."""
    template = _pick(ILLEGAL[code], lang)
    values: dict[str, object] = {}
    for key, value in params.items():
        if key in ("card",) and isinstance(value, str):
            values[key] = card_label(parse_card(value), lang)
        elif key in ("suit", "led") and isinstance(value, str | int):
            values[key] = suit_name(value, lang)
        elif key in ("why", "extra"):
            values[key] = _pick(REASONS[str(value)], lang)
        else:
            values[key] = value
    if code == "wrong_phase":
        seat = params.get("seat")
        task = _pick(TASKS[str(params.get("task", "nothing"))], lang)
        who = seat_name(seat if isinstance(seat, int) else -1, lang, names)
        values["now"] = f"{who} должен {task}" if lang == "ru" else f"{who} to {task}"
    return template.format(**values)
