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


# --------------------------------------------------------------------------- events

#: A line for every table event (docs/protocol.md), for the terminal and the browser:
#: key -> (English, Russian); ``{field}`` marks a value (:func:`event_fields`).  The key is
#: the event's type, or ``type:variant`` where the same event reads differently
#: (:func:`event_key`: a hidden card, a dark bid, the kind of a declaration, how a deal
#: ended, the reason of a penalty, a shared win).  The browser receives this dict from
#: ``/api/texts`` and picks the key and the fields the same way (src/thousand/web/).
EVENTS: dict[str, tuple[str, str]] = {
    "deal_started": ("Deal {number}. Dealer: {dealer}.", "Раздача {number}. Сдаёт {dealer}."),
    "deal_started:golden": ("Deal {number}, a golden deal: {opener} plays 120. Dealer: "
                            "{dealer}.",
                            "Раздача {number}, золотой кон: {opener} играет 120. Сдаёт "
                            "{dealer}."),
    "cut": ("The cut: {cards} at the bottom.", "Съём: внизу {cards}."),
    "hand": ("{name}'s cards: {cards}.", "Карты ({name}): {cards}."),
    "look": ("{name} looks at the cards.", "{name} смотрит карты."),
    "dark": ("{name} bids {value} dark.", "{name}: {value} втемную."),
    "bid": ("{name} bids {value}.", "{name}: {value}."),
    "pass": ("{name} passes.", "{name}: пас."),
    "pass:buy": ("{name} does not buy the talon.", "{name}: без перекупа."),
    "pass:redeal_offer": ("{name}: no redeal.", "{name}: без пересдачи."),
    "redeal": ("{name} demands a redeal.", "{name} требует пересдачи."),
    "declarer": ("{name} plays, bid {bid}.", "Играет {name}, ставка {bid}."),
    "declarer:dark": ("{name} plays {bid} dark: the scores are doubled.",
                      "Играет {name}, {bid} втемную: очки вдвойне."),
    "declarer:golden": ("{name} plays the golden deal for {bid}.",
                        "{name} играет золотой кон, {bid}."),
    "talon": ("The talon: {cards}.", "Прикуп: {cards}."),
    "talon:hidden": ("{name} takes the talon face down.", "{name} берёт прикуп не показывая."),
    "buy": ("{name} buys the talon from {seller} for {price}.",
            "{name} перекупает прикуп за {price} (продаёт {seller})."),
    "give": ("{name} gives {card} to {to}.", "{name} отдаёт карту {card}, получает {to}."),
    "give:hidden": ("{name} gives a card to {to}.", "{name} отдаёт карту, получает {to}."),
    "discard": ("{name} discards {card}.", "{name} сносит {card}."),
    "discard:hidden": ("{name} discards a card.", "{name} сносит карту."),
    "contract": ("{name} names the contract {value}.", "{name} заказывает {value}."),
    "concede": ("{name} concedes the contract {contract}.",
                "{name} расписывается: {contract} не играет."),
    "card": ("{name}: {card}.", "{name}: {card}."),
    "declaration": ("{name} declares the {suit} marriage (+{points}). Trump: {trump}.",
                    "{name} объявляет марьяж: {suit} (+{points}). Козырь — {trump}."),
    "declaration:half_marriage": (
        "{name} declares the {suit} half marriage (+{points}). Trump: {trump}.",
        "{name} объявляет полумарьяж: {suit} (+{points}). Козырь — {trump}."),
    "declaration:ace_marriage": ("{name} declares the ace marriage (+{points}).",
                                 "{name} объявляет тузовый марьяж (+{points})."),
    "declaration:four_nines": ("{name} declares four nines (+{points}).",
                               "{name} объявляет четыре девятки (+{points})."),
    "trick": ("{winner} takes the trick ({points}): {cards}.",
              "{winner} берёт взятку ({points}): {cards}."),
    "deal_scored": ("Deal {number} is over. Scores: {scores}.",
                    "Раздача {number} окончена. Счёт: {scores}."),
    "deal_scored:made": ("{declarer} made {contract} ({taken} points). Scores: {scores}.",
                         "{declarer}: заказ {contract} сыгран ({taken} очк.). Счёт: {scores}."),
    "deal_scored:failed": ("{declarer} failed {contract}: only {taken} points. Scores: "
                           "{scores}.",
                           "{declarer}: заказ {contract} не сыгран, только {taken} очк. "
                           "Счёт: {scores}."),
    "deal_scored:conceded": ("{declarer} conceded {contract}. Scores: {scores}.",
                             "{declarer}: роспись, заказ {contract}. Счёт: {scores}."),
    "deal_scored:redeal": ("Redeal (demanded by {redeal_by}). Scores: {scores}.",
                           "Пересдача по требованию: {redeal_by}. Счёт: {scores}."),
    "barrel_on": ("{name} climbs on the barrel.", "{name} садится на бочку."),
    "fall": ("{name} falls off the barrel ({amount}).", "{name} слетает с бочки ({amount})."),
    "knocked_off": ("{name} is knocked off the barrel ({amount}).",
                    "{name}: сбили с бочки ({amount})."),
    "barrel_timeout": ("{name}: the barrel deals ran out ({amount}).",
                       "{name}: срок на бочке вышел ({amount})."),
    "bolt": ("{name} gets a bolt.", "{name}: болт."),
    "penalty": ("{name} pays a penalty ({amount}).", "{name}: штраф ({amount})."),
    "penalty:bolt": ("{name} pays a penalty for bolts ({amount}).",
                     "{name}: штраф за болты ({amount})."),
    "penalty:concede": ("{name} pays a penalty for conceding ({amount}).",
                        "{name}: штраф за роспись ({amount})."),
    "penalty:redeal": ("{name} pays a penalty for redeals in a row ({amount}).",
                       "{name}: штраф за пересдачи подряд ({amount})."),
    "penalty:cut": ("{name} pays a penalty for three nines at the cut ({amount}).",
                    "{name}: штраф за три девятки при съёме ({amount})."),
    "samosval": ("{name}: samosval! The score resets to 0.",
                 "{name}: самосвал! Счёт обнуляется."),
    "bolt_samosval": ("{name}: three bolts in a row, the score resets to 0.",
                      "{name}: три болта подряд — самосвал, счёт обнуляется."),
    "fall_reset": ("{name}: another fall off the barrel, the score resets ({amount}).",
                   "{name}: очередное падение с бочки — сброс счёта ({amount})."),
    "golden_restart": ("Nobody made a golden deal: the game starts again from 0.",
                       "В золотых конах никто не сыграл: игра начинается заново с нуля."),
    "game_over": ("The game is over. Winner: {winner}. Scores: {scores}.",
                  "Игра окончена. Победитель: {winner}. Счёт: {scores}."),
    "game_over:shared": ("The game is over. Shared win: {winner}. Scores: {scores}.",
                         "Игра окончена. Победу делят: {winner}. Счёт: {scores}."),
    # pieces of the lines above
    "settlement": ("Settlement: {items}.", "Расчёт: {items}."),
    "settlement_item": ("{name} owes {amount}", "{name} платит {amount}"),
    "no_trump": ("none", "нет"),
    "hidden_card": ("?", "?"),
}

#: Event fields that name a seat, with the field that holds the name in the text.
_SEAT_FIELDS = {
    "seat": "name", "to_seat": "to", "seller": "seller", "leader": "leader",
    "dealer": "dealer", "opener": "opener", "declarer": "declarer", "redeal_by": "redeal_by",
}


def event_key(event: Mapping[str, object]) -> str:
    """The key of :data:`EVENTS` that words ``event``: its type or ``type:variant``."""
    kind = str(event.get("type"))
    variant: str | None = None
    if kind == "deal_started" and event.get("golden"):
        variant = "golden"
    elif kind == "pass" and event.get("phase") in ("buy", "redeal offer"):
        variant = str(event.get("phase")).replace(" ", "_")
    elif kind == "declarer":
        variant = "dark" if event.get("dark") else "golden" if event.get("golden") else None
    elif (kind == "talon" and event.get("cards") is None) or (
        kind in ("give", "discard") and event.get("card") is None
    ):
        variant = "hidden"
    elif kind == "declaration" and event.get("kind") != "marriage":
        variant = str(event.get("kind"))
    elif kind == "deal_scored":
        outcome = event.get("outcome")
        if outcome == "played" and event.get("declarer") is not None:
            variant = "made" if event.get("made") else "failed"
        elif outcome in ("conceded", "redeal"):
            variant = str(outcome)
    elif kind == "penalty":
        variant = str(event.get("reason"))
    elif kind == "game_over" and isinstance(event.get("winner"), list):
        variant = "shared"
    key = f"{kind}:{variant}" if variant is not None else kind
    return key if key in EVENTS else kind


def event_fields(
    event: Mapping[str, object], lang: str = "ru", names: Sequence[str] | None = None
) -> dict[str, object]:
    """The values the :data:`EVENTS` templates use, worded in ``lang``: seats by name,
    cards as ``Т♥``/``A♥``, suits by name, scores as "name score" items."""
    hidden = _pick(EVENTS["hidden_card"], lang)

    def card(value: object) -> str:
        return card_label(parse_card(value), lang) if isinstance(value, str) else hidden

    def who(value: object) -> str:
        if isinstance(value, list):
            return ", ".join(who(v) for v in value)
        return seat_name(value, lang, names) if isinstance(value, int) else "—"

    out: dict[str, object] = {k: v for k, v in event.items() if not isinstance(v, dict | list)}
    for field, word in _SEAT_FIELDS.items():
        if field in event:
            out[word] = who(event[field])
    if "winner" in event:
        out["winner"] = who(event["winner"])
    if "card" in event:
        out["card"] = card(event["card"])
    cards = event.get("cards")
    if isinstance(cards, list):
        out["cards"] = " ".join(
            card(c.get("card")) if isinstance(c, Mapping) else card(c) for c in cards
        )
    elif "cards" in event:
        out["cards"] = hidden
    for field in ("suit", "trump"):
        if field in event:
            value = event[field]
            out[field] = (suit_name(value, lang) if isinstance(value, str | int)
                          else _pick(EVENTS["no_trump"], lang))
    scores = event.get("scores")
    if isinstance(scores, list):
        out["scores"] = ", ".join(f"{who(s)} {v}" for s, v in enumerate(scores))
    points = event.get("points")
    declarer = event.get("declarer")
    if isinstance(points, list) and isinstance(declarer, int) and 0 <= declarer < len(points):
        out["taken"] = points[declarer]
    return out


class _Blank(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "?"


def event_text(
    event: Mapping[str, object], lang: str = "ru", names: Sequence[str] | None = None
) -> str:
    """One line for a table event in ``lang`` (``names`` by seat replace "seat N")."""
    template = _pick(EVENTS[event_key(event)], lang)
    text = template.format_map(_Blank(event_fields(event, lang, names)))
    settlement = event.get("settlement")
    if event.get("type") == "game_over" and isinstance(settlement, list):
        items = [
            _pick(EVENTS["settlement_item"], lang).format(name=seat_name(s, lang, names),
                                                          amount=a)
            for s, a in enumerate(settlement) if a
        ]
        if items:
            text += " " + _pick(EVENTS["settlement"], lang).format(items=", ".join(items))
    return text

