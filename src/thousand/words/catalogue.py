"""The message catalogue: what the engine's codes say to people, in Russian and English.

The engine (deal, game, table) speaks in codes and plain data (:mod:`thousand.engine.errors`,
the table's events); the terminal, the replay command, the browser and the bots' reasons
turn them into words here.  One place for the words means a new language, or a better
phrase, touches no rule.

Every text is a template of :mod:`thousand.words.grammar` (``{field}`` marks: names
declined, counts agreed, the reader spoken to).  The browser (src/thousand/web/) receives
these tables from ``/api/texts`` and words events with the same rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from thousand.engine.cards import SUITS, card_label, parse_card
from thousand.engine.errors import IllegalMove
from thousand.engine.moves import Move
from thousand.words.grammar import YOU, SeatLabel, lang_of, render
from thousand.words.presets import PRESET_TITLES

SUIT_NAMES = {
    "en": ("spades", "clubs", "diamonds", "hearts"),
    "ru": ("пики", "трефы", "бубны", "черви"),
}
#: Suit names in the genitive ("the queen of hearts" / "дама червей").
SUIT_OF = {
    "en": ("spades", "clubs", "diamonds", "hearts"),
    "ru": ("пик", "треф", "бубен", "червей"),
}

# --------------------------------------------------------------------------- names for people

#: The bot levels as players call them: level -> (English, Russian): in both languages
#: the words a table would use (the heuristic bot is an amateur, «любитель»; the others'
#: English names happen to be the levels ``--bots`` takes).  Every line a person reads
#: names a level through :func:`level_name`; the browser receives this table from
#: ``/api/texts`` (``bot_level_names``).
BOT_LEVEL_NAMES: dict[str, tuple[str, str]] = {
    "random": ("random", "случайный"),
    "beginner": ("beginner", "новичок"),
    "heuristic": ("amateur", "любитель"),
    "strong": ("strong", "сильный"),
    "expert": ("expert", "мастер"),
}

def level_name(level: str, lang: str = "ru") -> str:
    """A bot level by its name for people in ``lang`` («любитель» for ``heuristic``); a
    level without one (an external program, an OpenSpiel seat) as it is written."""
    pair = BOT_LEVEL_NAMES.get(level)
    return level if pair is None else _pick(pair, lang)


def preset_name(preset: str, lang: str = "ru") -> str:
    """A preset by its name for people in ``lang`` («домашние правила» for ``house``); an
    unknown one as it is written."""
    pair = PRESET_TITLES.get(preset)
    return preset if pair is None else _pick(pair, lang)

# --------------------------------------------------------------------------- illegal moves

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
    "no_two_talons": ("only the game for two has two talons to choose from",
                      "выбирать из двух прикупов можно только в игре вдвоём"),
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
    "dark_or_look": ("bid dark or look at the cards", "темнить или посмотреть карты"),
    "bid": ("bid or pass", "торговаться или пасовать"),
    "give": ("give a card", "отдать карту"),
    "discard": ("discard a card", "снести карту"),
    "contract": ("name the contract", "назвать заказ"),
    "contract_or_concede": ("name the contract or concede", "назвать заказ или расписать"),
    "redeal_or_pass": ("demand a redeal or pass", "потребовать пересдачу или пасовать"),
    "buy_or_pass": ("buy the talon or pass", "перекупить прикуп или пасовать"),
    "choose_talon": ("choose a talon", "выбрать прикуп"),
    "play": ("play a card", "сходить"),
    "nothing": ("nothing", "ничего"),
}

#: Whose turn it is (``now`` of ``wrong_phase``): ``{who}`` the player to move, ``{task}``
#: his task (:data:`TASKS`).
WHOSE_TURN: dict[str, tuple[str, str]] = {
    "now": ("{who:{who} to {task}|it is your turn to {task}}",
            "{who:очередь {who:gen} — {task}|ваша очередь — {task}}"),
}

#: Moves named in words (``what`` of ``wrong_phase``); a card is its label (К♠).
MOVE_WORDS: dict[str, tuple[str, str]] = {
    "pass": ("pass", "пас"),
    "dark": ("dark", "тёмная"),
    "look": ("look", "посмотреть карты"),
    "redeal": ("redeal", "пересдача"),
    "concede": ("concede", "роспись"),
    "buy": ("buy", "перекуп"),
    "give": ("give {card}", "отдать {card}"),
    "discard": ("discard {card}", "снести {card}"),
    "give_any": ("giving a card", "отдать карту"),
    "discard_any": ("discarding a card", "снести карту"),
    "contract": ("contract {value}", "заказ {value}"),
    "declare": ("{card}+", "{card} с марьяжем"),
    "talon": ("talon {value}", "прикуп {value}"),
}


def _pick(pair: tuple[str, str], lang: str) -> str:
    return pair[1] if lang == "ru" else pair[0]


def suit_name(suit: int | str, lang: str = "ru") -> str:
    """A suit (0..3 or its letter ``S C D H``) by name."""
    index = SUITS.index(suit) if isinstance(suit, str) else suit
    return SUIT_NAMES["ru" if lang == "ru" else "en"][index]


def seat_name(seat: int, lang: str = "ru", names: Sequence[str] | None = None,
              reader_seat: int | None = None) -> str:
    """A seat by its player's name when the names are known, else "игрок N"/"seat N";
    the reader's own seat is "Вы"/"You"."""
    if reader_seat is not None and seat == reader_seat:
        return YOU[lang_of(lang)]
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return SeatLabel(seat, lang)


def move_words(move: str, lang: str = "ru") -> str:
    """A move in record notation (``KS``, ``give 9S``, ``contract 120``, ``pass``) in
    words: cards by their labels (К♠), the word moves in ``lang``."""
    text = str(move).strip()
    word, _, rest = text.partition(" ")
    try:
        if word in ("give", "discard") and rest:
            card = card_label(parse_card(rest), lang)
            return render(_pick(MOVE_WORDS[word], lang), lang, card=card)
        if word in ("contract", "talon") and rest:
            return render(_pick(MOVE_WORDS[word], lang), lang, value=rest)
        if text in ("give", "discard"):
            return _pick(MOVE_WORDS[f"{text}_any"], lang)
        if text in MOVE_WORDS:
            return _pick(MOVE_WORDS[text], lang)
        if text.endswith("+"):
            card = card_label(parse_card(text[:-1]), lang)
            return render(_pick(MOVE_WORDS["declare"], lang), lang, card=card)
        return card_label(parse_card(text), lang)
    except ValueError:
        return text


#: A hint, said to the player as advice (the imperative, second person): how to make a
#: move, by its kind (:func:`advice_key`): key -> (English, Russian).  The hint reads
#: «Подсказка (мастер): Поднимите заказ до 130 — играется в 92% раскладов»: the advice,
#: then the bot's reason, which names the move no second time.  The browser receives this
#: table from ``/api/texts`` (``advice``) and picks the key from the move string and the
#: phase the same way.
ADVICE: dict[str, tuple[str, str]] = {
    "play": ("Play {card}", "Сыграйте {card}"),
    "declare": ("Play {card} and declare the marriage", "Сыграйте {card} и объявите марьяж"),
    "give": ("Give {card}", "Отдайте {card}"),
    "discard": ("Discard {card}", "Снесите {card}"),
    "bid": ("Bid {n}", "Скажите {n}"),
    "contract": ("Name the contract {n}", "Закажите {n}"),
    "contract_raise": ("Raise the contract to {n}", "Поднимите заказ до {n}"),
    "pass": ("Pass", "Пасуйте"),
    "pass:buy": ("Do not buy the talon at {price}", "Не перекупайте прикуп за {price}"),
    "pass:redeal_offer": ("Play on without a redeal", "Играйте без пересдачи"),
    "dark": ("Bid dark (120 blind)", "Темните (120 втемную)"),
    "look": ("Look at your cards", "Посмотрите карты"),
    "redeal": ("Demand a redeal", "Потребуйте пересдачу"),
    "concede": ("Concede", "Распишитесь"),
    "buy": ("Buy the talon at {price}", "Перекупите прикуп за {price}"),
    "talon 1": ("Take the first talon", "Возьмите первый прикуп"),
    "talon 2": ("Take the second talon", "Возьмите второй прикуп"),
}


def advice_key(move: str, phase: str | None = None, bid: int | None = None) -> str:
    """The :data:`ADVICE` key of ``move`` (record notation: ``KS``, ``QH+``, ``give 9S``,
    ``contract 130``, ``pass``), given the ``phase`` it is made in (``buy``, ``redeal
    offer``) and the ``bid`` a contract is compared with."""
    text = str(move).strip()
    word, _, rest = text.partition(" ")
    if word in ("give", "discard"):
        return word
    if word == "contract":
        try:
            raised = bid is not None and int(rest) > bid
        except ValueError:
            raised = False
        return "contract_raise" if raised else "contract"
    if text == "pass" and phase in ("buy", "redeal offer"):
        return f"pass:{str(phase).replace(' ', '_')}"
    if text in ADVICE:
        return text
    if text.isdigit():
        return "bid"
    return "declare" if text.endswith("+") else "play"


def advice(move: str, lang: str = "ru", phase: str | None = None,
           bid: int | None = None, price: int | None = None) -> str:
    """A move as advice to the player in ``lang``: «Поднимите заказ до 130», «Сыграйте
    Т♥», "Give 9♠", «Перекупите прикуп за 120» (:data:`ADVICE`; ``price`` is the talon's
    in the buy-out)."""
    key = advice_key(move, phase, bid)
    text = str(move).strip()
    word, _, rest = text.partition(" ")
    card = ""
    try:
        if key in ("give", "discard"):
            card = card_label(parse_card(rest), lang)
        elif key in ("play", "declare"):
            card = card_label(parse_card(text.rstrip("+")), lang)
    except ValueError:
        return text
    n = rest if word == "contract" else text
    return render(_pick(ADVICE[key], lang), lang, card=card, n=n, price=price)


def advice_for(view: Any, move: Move, lang: str = "ru") -> str:
    """The hint's advice for ``move`` (an engine move) in a seat's ``view`` (a
    :class:`~thousand.engine.view.View`: its phase and bid choose the words), in ``lang``; what
    the terminal and the server's hint message both say."""
    from thousand.engine.deal import Phase
    from thousand.engine.moves import move_str

    phase = {Phase.BUY: "buy", Phase.REDEAL_OFFER: "redeal offer"}.get(Phase(view.phase))
    return advice(move_str(move), lang, phase, getattr(view, "bid", None),
                  getattr(view, "buy_price", None))


def illegal_text(
    code: str,
    params: Mapping[str, object],
    lang: str = "en",
    names: Sequence[str] | None = None,
    reader_seat: int | None = None,
) -> str:
    """Why a move is illegal, from :class:`thousand.engine.errors.IllegalMove`'s code and
    parameters, in ``lang``; ``names`` (by seat) replace "seat N", and the seat
    ``reader_seat`` (or a player called "Вы"/"You") is spoken to."""
    template = _pick(ILLEGAL[code], lang)
    values: dict[str, object] = {}
    for key, value in params.items():
        if key in ("card",) and isinstance(value, str):
            values[key] = card_label(parse_card(value), lang)
        elif key in ("suit", "led") and isinstance(value, str | int):
            values[key] = suit_name(value, lang)
        elif key in ("why", "extra"):
            values[key] = _pick(REASONS[str(value)], lang)
        elif key == "what" and isinstance(value, str):
            values[key] = move_words(value, lang)
        else:
            values[key] = value
    if code == "wrong_phase":
        seat = params.get("seat")
        task = _pick(TASKS[str(params.get("task", "nothing"))], lang)
        who = seat_name(seat if isinstance(seat, int) else -1, lang, names, reader_seat)
        values["now"] = render(_pick(WHOSE_TURN["now"], lang), lang, who=who, task=task)
    return render(template, lang, values)


def illegal_move_text(error: IllegalMove, lang: str = "en") -> str:
    """The reason alone (without the move) an :class:`~thousand.engine.errors.IllegalMove`
    was refused, in ``lang``; the words ``str()`` of the error reads in English."""
    return illegal_text(error.code, error.params, lang)


#: A game record's fault (``thousand replay``, the server's replays): key -> (English,
#: Russian).
REPLAY_ERRORS: dict[str, tuple[str, str]] = {
    "illegal": ("deal {deal}, move {move}: {what}: {why}",
                "раздача {deal}, ход {move}: {what}: {why}"),
    "deal": ("deal {deal}: {why}", "раздача {deal}: {why}"),
}


def replay_error_text(error: Any, lang: str = "en", names: Sequence[str] | None = None) -> str:
    """One line for a :class:`thousand.engine.record.ReplayError` (its ``deal``, ``move`` and
    ``illegal``): an illegal move worded from the catalogue with the players' ``names``
    (never "seat N"), in ``lang``; the move itself as written in the record in English,
    in words in Russian.  Another fault keeps the record reader's reason."""
    illegal = getattr(error, "illegal", None)
    deal, move = getattr(error, "deal", "?"), getattr(error, "move", None)
    if illegal is not None and move is not None:
        why = illegal_text(illegal.code, illegal.params, lang, names)
        what = move_words(illegal.move, lang) if lang == "ru" else illegal.move
        return render(_pick(REPLAY_ERRORS["illegal"], lang), lang, deal=deal, move=move,
                      what=what, why=why)
    text = str(error)
    prefix = f"deal {deal}: "
    if lang == "ru" and text.startswith(prefix):
        return render(_pick(REPLAY_ERRORS["deal"], lang), lang, deal=deal,
                      why=text[len(prefix):])
    return text


#: Why a text is not a game record (:class:`thousand.engine.record.RecordError`, worded in
#: English once, for scripts), in Russian: (a pattern of the English, its Russian with
#: ``\1`` groups), tried in order; the names of fields stay as the record writes them.
RECORD_ERRORS_RU: tuple[tuple[str, str], ...] = (
    (r"not JSON: .*?: line (\d+) column (\d+) \(char \d+\)",
     r"не JSON: ошибка в строке \1, позиция \2"),
    (r"not JSON: (.*)", r"не JSON"),
    (r"not a record: nested deeper than (\d+) levels", r"вложенность глубже \1 уровней"),
    (r"not a record: a number of (\d+) digits; .*", r"число из \1 цифр — слишком длинное"),
    (r"a record must be a JSON object, not (.*)", r"запись — это объект JSON, а здесь \1"),
    (r'the record has no "(.*)"', r'в записи нет поля "\1"'),
    (r"format: (.*) is not supported; .*", r"формат \1 эта версия thousand не читает"),
    (r"format: (.*) is not a format number; .*", r"format: \1 — не номер формата"),
    (r"players: must be a list of names \(strings\)", r"players: нужен список имён (строк)"),
    (r"first_dealer: (.*) is not a seat; use 0 to (\d+)",
     r"first_dealer: \1 — не место; нужно от 0 до \2"),
    (r"deals: (\d+) deals; a record holds at most (\d+)",
     r"deals: раздач \1, а в записи их не больше \2"),
    (r"not a save: no game record in it", r"это не сохранение: в нём нет записи партии"),
    (r"(.*): must be an object, not (.*)", r"\1: нужен объект, а здесь \2"),
    (r"(.*): must be a list of (.*), not (.*)", r"\1: нужен список (\2), а здесь \3"),
    (r'(.*): no "(.*)"', r'\1: нет поля "\2"'),
    (r"(.*) is dealt twice: seat (\d+) and seat (\d+)",
     r"\1 сдана дважды: месту \2 и месту \3"),
    (r"(.*) is dealt twice: seat (\d+) and the talon", r"\1 сдана дважды: месту \2 и в прикуп"),
    (r"(.*) is dealt twice: seat (\d+) again", r"\1 сдана месту \2 дважды"),
    (r"(.*) is dealt twice: the talon again", r"\1 дважды в прикупе"),
    (r"(.*) is dealt twice: (.*)", r"\1 сдана дважды: \2"),
    # the save's own faults (thousand/terminal/autosave.py), around its record
    (r"a save is a JSON object", r"сохранение — это объект JSON"),
    (r"unknown key (.*)", r"неизвестное поле \1"),
    (r"table_version: not a whole number", r"table_version: не целое число"),
    (r"human: (.*) is not a seat from 0 to (\d+)", r"human: \1 — не место от 0 до \2"),
    (r"bots: a list of (\d+) levels by seat .*",
     r"bots: нужен список из \1 уровней ботов по местам (null — место человека)"),
)


def record_error_text(error: Exception | str, lang: str = "en", *, known_only: bool = False
                      ) -> str:
    """Why a text is not a game record, in ``lang``: the record reader's English as it is
    for ``en``; in Russian from :data:`RECORD_ERRORS_RU` (a ruleset's fault through
    :func:`thousand.words.rules.rules_error_text`).  A fault without its Russian is «запись
    повреждена: …» with the English, or with ``known_only`` the English alone (for a
    message that says «повреждено» itself)."""
    text = str(error)
    if lang_of(lang) != "ru":
        return text
    if text.startswith("rules: "):
        from .rules import rules_error_text

        return "rules: " + rules_error_text(text[len("rules: "):], "ru")
    deal = re.fullmatch(r"deal (\d+): (.*)", text)
    if deal:  # the deal a fault is in, then the fault itself
        return f"раздача {deal[1]}: " + record_error_text(deal[2], lang, known_only=known_only)
    for pattern, ru in RECORD_ERRORS_RU:
        m = re.fullmatch(pattern, text)
        if m:
            return m.expand(ru)
    return text if known_only else "запись повреждена: " + text


# --------------------------------------------------------------------------- events

#: A line for every table event (docs/protocol.md), for the terminal and the browser:
#: key -> (English, Russian), templates as in the module docstring (:func:`render`;
#: fields: :func:`event_fields`).  The key is the event's type, or ``type:variant`` where
#: the same event reads differently (:func:`event_key`: a hidden card, a dark bid, the kind
#: of a declaration, how a deal ended, the reason of a penalty, a shared win).  The browser
#: receives this dict from ``/api/texts`` and picks the key and the fields the same way
#: (src/thousand/web/).
EVENTS: dict[str, tuple[str, str]] = {
    "deal_started": ("Deal {number}. {dealer:{dealer} deals|You deal}.",
                     "Раздача {number}. {dealer:Сдаёт {dealer}|Сдаёте вы}."),
    "deal_started:golden": (
        "Deal {number}, a golden deal: {opener} {opener:plays|play} 120. "
        "{dealer:{dealer} deals|You deal}.",
        "Раздача {number}, золотой кон: {opener} {opener:играет|играете} 120. "
        "{dealer:Сдаёт {dealer}|Сдаёте вы}."),
    "cut": ("The cut: {cards} at the bottom.", "Съём: внизу {cards}."),
    "hand": ("{name:{name:poss} cards|Your cards}: {cards}.",
             "{name:Карты {name:gen}|Ваши карты}: {cards}."),
    "look": ("{name} {name:looks|look} at the cards.", "{name} {name:смотрит|смотрите} карты."),
    "dark": ("{name} {name:bids|bid} {value} dark.",
             "{name} {name:темнит|темните}: {value} втемную."),
    "bid": ("{name} {name:bids|bid} {value}.", "{name}: {value}."),
    "pass": ("{name} {name:passes|pass}.", "{name}: пас."),
    "pass:buy": ("{name} {name:does|do} not buy the talon.", "{name}: без перекупа."),
    "pass:redeal_offer": ("{name}: no redeal.", "{name}: без пересдачи."),
    "redeal": ("{name} {name:demands|demand} a redeal.",
               "{name} {name:требует|требуете} пересдачи."),
    "declarer": ("{name} {name:plays|play}, bid {bid}.",
                 "{name:Играет {name}|Играете вы}, ставка {bid}."),
    "declarer:dark": ("{name} {name:plays|play} {bid} dark: the scores are doubled.",
                      "{name:Играет {name}|Играете вы}, {bid} втемную: очки вдвойне."),
    "declarer:golden": ("{name} {name:plays|play} the golden deal for {bid}.",
                        "{name} {name:играет|играете} золотой кон, {bid}."),
    "talon": ("The talon: {cards}.", "Прикуп: {cards}."),
    "talon:hidden": ("{name} {name:takes|take} the talon face down.",
                     "{name} {name:берёт|берёте} прикуп не показывая."),
    "buy": ("{name} {name:buys|buy} the talon from {seller:acc} for {price}.",
            "{name} {name:перекупает|перекупаете} прикуп за {price} у {seller:gen}."),
    "give": ("{name} {name:gives|give} {card} to {to:acc}.",
             "{name} {name:отдаёт|отдаёте} {card} {to:dat}."),
    "give:hidden": ("{name} {name:gives|give} a card to {to:acc}.",
                    "{name} {name:отдаёт|отдаёте} карту {to:dat}."),
    "discard": ("{name} {name:discards|discard} {card}.", "{name} {name:сносит|сносите} {card}."),
    "discard:hidden": ("{name} {name:discards|discard} a card.",
                       "{name} {name:сносит|сносите} карту."),
    "contract": ("{name} {name:names|name} the contract {value}.",
                 "{name} {name:заказывает|заказываете} {value}."),
    "concede": ("{name} {name:concedes|concede} the contract {contract}.",
                "{name} {name:расписывается|расписываетесь} на {contract}."),
    "card": ("{name}: {card}.", "{name}: {card}."),
    "declaration": ("{name} {name:declares|declare} the {suit} marriage (+{points}). "
                    "Trump: {trump}.",
                    "{name} {name:объявляет|объявляете} марьяж: {suit} (+{points}). "
                    "Козырь — {trump}."),
    "declaration:half_marriage": (
        "{name} {name:declares|declare} the {suit} half marriage (+{points}). Trump: {trump}.",
        "{name} {name:объявляет|объявляете} полумарьяж: {suit} (+{points}). "
        "Козырь — {trump}."),
    "declaration:ace_marriage": ("{name} {name:declares|declare} the ace marriage (+{points}).",
                                 "{name} {name:объявляет|объявляете} тузовый марьяж "
                                 "(+{points})."),
    "declaration:four_nines": ("{name} {name:declares|declare} four nines (+{points}).",
                               "{name} {name:объявляет|объявляете} четыре девятки "
                               "(+{points})."),
    "trick": ("{winner} {winner:takes|take} the trick ({points:#point|points}): {cards}.",
              "{winner} {winner:берёт|берёте} взятку ({points:#очко|очка|очков}): {cards}."),
    "deal_scored": ("The deal is over. Scores: {scores}.", "Раздача окончена. Счёт: {scores}."),
    "deal_scored:made": (
        "{declarer} {declarer:makes|make} {contract} ({taken:#point|points}). "
        "Scores: {scores}.",
        "Заказ {contract} сыгран: у {declarer:gen} {taken:#очко|очка|очков}. Счёт: {scores}."),
    "deal_scored:failed": (
        "{declarer} {declarer:fails|fail} {contract}: only {taken:#point|points}. "
        "Scores: {scores}.",
        "Заказ {contract} не сыгран: у {declarer:gen} только {taken:#очко|очка|очков}. "
        "Счёт: {scores}."),
    "deal_scored:conceded": (
        "The contract {contract} was conceded by {declarer:acc}. Scores: {scores}.",
        "Заказ {contract} не разыгрывали: {declarer:роспись {declarer:gen}|ваша роспись}. "
        "Счёт: {scores}."),
    "deal_scored:redeal": (
        "Redeal, demanded by {redeal_by:acc}: the same deal is dealt again. Scores: {scores}.",
        "Пересдача {redeal_by:по требованию {redeal_by:gen}|по вашему требованию}: "
        "раздачу сдают заново. Счёт: {scores}."),
    "barrel_on": ("{name} {name:climbs|climb} on the barrel.",
                  "{name} {name:садится|садитесь} на бочку."),
    "fall": ("{name} {name:falls|fall} off the barrel ({amount}).",
             "{name} {name:слетает|слетаете} с бочки ({amount})."),
    "knocked_off": ("{name} {name:is|are} knocked off the barrel ({amount}).",
                    "{name:acc} сталкивают с бочки ({amount})."),
    "barrel_timeout": ("{name:{name:poss}|Your} deals on the barrel ran out ({amount}).",
                       "У {name:gen} вышел срок на бочке ({amount})."),
    "bolt": ("{name} {name:gets|get} a bolt.", "У {name:gen} болт."),
    "penalty": ("{name} {name:pays|pay} a penalty ({amount}).", "Штраф {name:dat} ({amount})."),
    "penalty:bolt": ("{name} {name:pays|pay} a penalty for bolts ({amount}).",
                     "Штраф {name:dat} за болты ({amount})."),
    "penalty:concede": ("{name} {name:pays|pay} a penalty for conceding ({amount}).",
                        "Штраф {name:dat} за роспись ({amount})."),
    "penalty:redeal": ("{name} {name:pays|pay} a penalty for redeals in a row ({amount}).",
                       "Штраф {name:dat} за пересдачи подряд ({amount})."),
    "penalty:cut": ("{name} {name:pays|pay} a penalty for three nines at the cut ({amount}).",
                    "Штраф {name:dat} за три девятки при съёме ({amount})."),
    "samosval": ("Samosval for {name:acc}! The score resets to 0.",
                 "Самосвал у {name:gen}! Счёт обнуляется."),
    "bolt_samosval": ("Three bolts in a row for {name:acc}: samosval, the score resets to 0.",
                      "Три болта подряд у {name:gen} — самосвал, счёт обнуляется."),
    "fall_reset": ("Another fall off the barrel for {name:acc}: the score is reset ({amount}).",
                   "Очередное падение {name:gen} с бочки — сброс счёта ({amount})."),
    "golden_restart": ("Nobody made a golden deal: the game starts again from 0.",
                       "В золотых конах никто не сыграл: игра начинается заново с нуля."),
    "game_over": ("The game is over. {winner:Winner: {winner}|You win}. Scores: {scores}.",
                  "Игра окончена. {winner:Победитель — {winner}|Вы победили}. "
                  "Счёт: {scores}."),
    "game_over:shared": ("The game is over. Shared win: {winner}. Scores: {scores}.",
                         "Игра окончена. Победу делят: {winner}. Счёт: {scores}."),
    # pieces of the lines above
    "settlement": ("Settlement: {items}.", "Расчёт: {items}."),
    "settlement_item": ("{name:{name} owes|you owe} {amount}",
                        "{name:{name} платит|вы платите} {amount}"),
    "no_trump": ("none", "нет"),
    "hidden_card": ("?", "?"),
    # two players (RULES §4 "Two players" 3): the talon chosen unseen, the other shown at the end
    "talon_choice": ("{name} {name:chooses|choose} talon {talon}.",
                     "{name} {name:выбирает|выбираете} прикуп {talon}."),
    "other_talon": ("Talon {talon}, not taken: {cards}; its points go to the defender.",
                    "Невзятый прикуп {talon}: {cards}; его очки идут защитнику."),
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
    event: Mapping[str, object], lang: str = "ru", names: Sequence[str] | None = None,
    reader_seat: int | None = None,
) -> dict[str, object]:
    """The values the :data:`EVENTS` templates use, worded in ``lang``: seats by name (the
    reader's own seat as "Вы"/"You"), cards as ``Т♥``/``A♥``, suits by name, scores as
    "name score" items."""
    hidden = _pick(EVENTS["hidden_card"], lang)

    def card(value: object) -> str:
        return card_label(parse_card(value), lang) if isinstance(value, str) else hidden

    def who(value: object) -> str:
        if isinstance(value, list):
            return ", ".join(who(v) for v in value)
        return seat_name(value, lang, names, reader_seat) if isinstance(value, int) else "—"

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


def event_text(
    event: Mapping[str, object], lang: str = "ru", names: Sequence[str] | None = None,
    reader_seat: int | None = None,
) -> str:
    """One line for a table event in ``lang``: ``names`` by seat replace "seat N", names
    are declined where the sentence needs it, and the seat ``reader_seat`` — or a player
    called "Вы"/"You" — is spoken to in the second person ("You take the trick")."""
    fields = event_fields(event, lang, names, reader_seat)
    text = render(_pick(EVENTS[event_key(event)], lang), lang, fields)
    settlement = event.get("settlement")
    if event.get("type") == "game_over" and isinstance(settlement, list):
        items = [
            render(_pick(EVENTS["settlement_item"], lang), lang,
                   name=seat_name(s, lang, names, reader_seat), amount=a)
            for s, a in enumerate(settlement) if a
        ]
        if items:
            text += " " + render(_pick(EVENTS["settlement"], lang), lang,
                                 items=", ".join(items))
    return text


def counts_bolts(rules: Any) -> bool:
    """Whether ``rules`` (a :class:`~thousand.engine.rules.Rules`) count bolts at all."""
    return getattr(rules, "bolts", None) is not None or bool(getattr(rules, "bolt_samosval", False))


# --------------------------------------------------------------------------- the table's story

#: How a front end tells what happens at the table, beyond one line per event: the
#: terminal's narration (who dealt, the cut, the tricks, the marks after a deal).  Key ->
#: (English, Russian), templates as in the module docstring; the person's own seat is
#: passed as the name "Вы"/"You" (:data:`YOU`), so every line agrees with it.
PHRASES: dict[str, tuple[str, str]] = {
    "deal_header": ("Deal {n}. {dealer:Dealer: {dealer}|You deal}.{golden}",
                    "Раздача {n}. {dealer:Сдаёт {dealer}|Сдаёте вы}.{golden}"),
    "golden": (" Golden deal: {player} {player:plays|play} 120 without an auction.",
               " Золотой кон: {player} {player:играет|играете} 120 без торговли."),
    "golden_you": (" Golden deal: you play 120 without an auction.",
                   " Золотой кон: вы играете 120 без торговли."),
    "sits_out": ("{name} {name:deals|deal} and {name:sits|sit} out this deal.",
                 "{name} {name:сдаёт|сдаёте} и в этой раздаче не {name:играет|играете}."),
    "talon_taken": ("{name} {name:takes|take} the talon: {cards}",
                    "{name} {name:берёт|берёте} прикуп: {cards}"),
    "talon_taken_hidden": ("{name} {name:takes|take} the talon face down.",
                           "{name} {name:берёт|берёте} прикуп не показывая."),
    "bids": ("{name}: {bid}", "{name}: {bid}"),
    "passes": ("{name}: pass", "{name}: пас"),
    "dark": ("{name}: dark (120 blind)", "{name}: тёмная (120 втемную)"),
    "look": ("{name} {name:looks|look} at the cards", "{name} {name:смотрит|смотрите} карты"),
    "look_other": ("{name} {name:looks|look} at the cards.",
                   "{name} {name:смотрит|смотрите} карты."),
    "sits_on_100": ("{name}: 100 — \"I sit on 100\"", "{name}: 100 — «сижу на ста»"),
    "redeal": ("{name} {name:demands|demand} a redeal.",
               "{name} {name:требует|требуете} пересдачи."),
    "redeal_pass": ("{name}: no redeal.", "{name}: без пересдачи."),
    "declarer": ("{name} {name:plays|play}, bid {bid}{dark}.",
                 "{name:Играет {name}|Играете вы}, ставка {bid}{dark}."),
    "dark_mark": (" (dark)", " (тёмная)"),
    "buys": ("{name} {name:buys|buy} the talon for {price} (from {seller:acc}).",
             "{name} {name:перекупает|перекупаете} прикуп за {price} у {seller:gen}."),
    "no_buy": ("{name}: no buy.", "{name}: без перекупа."),
    "gives": ("{name} {name:gives|give} a card to {to:acc}.",
              "{name} {name:отдаёт|отдаёте} карту {to:dat}."),
    "gives_open": ("{name} {name:gives|give} {card} to {to:acc}.",
                   "{name} {name:отдаёт|отдаёте} {card} {to:dat}."),
    "gives_you": ("{name} {name:gives|give} you {card}.",
                  "{name} {name:отдаёт|отдаёте} вам {card}."),
    "you_give": ("You give {card} to {to:acc}.", "Вы отдаёте {card} {to:dat}."),
    "discards": ("{name} {name:discards|discard} a card.",
                 "{name} {name:кладёт|кладёте} карту в снос."),
    "discards_open": ("{name} {name:discards|discard} {card}.",
                      "{name} {name:кладёт|кладёте} в снос {card}."),
    "you_discard": ("You discard {card}.", "Вы кладёте в снос {card}."),
    "contract": ("{name} {name:names|name} the contract {n}.",
                 "{name} {name:заказывает|заказываете} {n}."),
    "concedes": ("{name} {name:concedes|concede} the contract {n}.",
                 "{name} {name:расписывается|расписываетесь}: заказ {n} не разыгрывается."),
    "contract_line": ("{name:Contract: {name} — {n}|Your contract: {n}}{dark}",
                      "{name:Заказ: {name} — {n}|Ваш заказ: {n}}{dark}"),
    "marriage": ("{name} {name:declares|declare} the {suit} marriage (+{points}). "
                 "Trump: {suit}.",
                 "{name} {name:объявляет|объявляете} марьяж: {suit} (+{points}). "
                 "Козырь — {suit}."),
    "half_marriage": ("{name} {name:declares|declare} the {suit} half marriage (+{points}). "
                      "Trump: {suit}.",
                      "{name} {name:объявляет|объявляете} полумарьяж: {suit} (+{points}). "
                      "Козырь — {suit}."),
    "ace_marriage": ("{name} {name:declares|declare} the ace marriage (+{points}).",
                     "{name} {name:объявляет|объявляете} тузовый марьяж (+{points})."),
    "four_nines": ("{name} {name:declares|declare} four nines (+{points}).",
                   "{name} {name:объявляет|объявляете} четыре девятки (+{points})."),
    "plays": ("{name}: {card}", "{name}: {card}"),
    "trick": ("Trick {n}: {cards} — {name:{name} takes it|yours} ({points:#point|points})",
              "Взятка {n}: {cards} — {name:берёт {name}|ваша} ({points:#очко|очка|очков})"),
    "deal_over": ("The deal is over.", "Раздача окончена."),
    "made": ("{name:{name} makes|You make} {n}: {points:#point|points}.",
             "{name:{name}: заказ {n} сыгран|Ваш заказ {n} сыгран}, "
             "{points:#очко|очка|очков}."),
    "failed": ("{name:{name} fails|You fail} {n}: only {points:#point|points}.",
               "{name:{name}: заказ {n} не сыгран|Ваш заказ {n} не сыгран}, только "
               "{points:#очко|очка|очков}."),
    "conceded": ("{name:{name} concedes|You concede} {n}.",
                 "{name:{name}: роспись на {n}|Вы расписались на {n}}."),
    "redealt": ("Redeal: the same deal is dealt again.", "Пересдача: раздачу сдают заново."),
    "redealt_by": ("Redeal, demanded by {name:acc}: the same deal is dealt again.",
                   "Пересдача {name:по требованию {name:gen}|по вашему требованию}: раздачу "
                   "сдают заново."),
    "points_line": ("Points in the deal: {items}", "Очки в раздаче: {items}"),
    "golden_made": ("Golden deal: scores doubled.", "Золотой кон: очки вдвойне."),
    "dark_made": ("Dark deal: scores doubled.", "Тёмная: очки вдвойне."),
    "cut_nine": ("The cut ({cutter}): {card} at the bottom — a nine, shown to all; cut again.",
                 "Съём ({cutter}): внизу {card} — девятка, её видят все; снимают ещё раз."),
    "cut_third_nine": ("The cut ({cutter}): {card} at the bottom — the third nine: "
                       "{cutter:{cutter} pays|you pay} {penalty}, the deck is dealt as it "
                       "lies; this nine goes to the talon.",
                       "Съём ({cutter}): внизу {card} — третья девятка: штраф {cutter:dat} "
                       "{penalty}, сдают как лежит; эта девятка уйдёт в прикуп."),
    "cut_jack": ("The cut ({cutter}): {card} at the bottom — a jack, shown to all; the dealer "
                 "({dealer}) cuts once more, unseen.",
                 "Съём ({cutter}): внизу {card} — валет, его видят все; сдающий ({dealer}) "
                 "снимает ещё раз, никто не смотрит."),
    "cut_glimpse_you": ("The cut ({cutter}): you deal and glimpse the bottom card — {card}; "
                        "it goes to the talon. Only you saw it.",
                        "Съём ({cutter}): вы сдаёте и подсмотрели нижнюю карту — {card}; она "
                        "уйдёт в прикуп. Её видели только вы."),
    "cut_glimpse_open": ("The cut ({cutter}): the dealer ({dealer}) glimpses the bottom card "
                         "— {card}; it goes to the talon.",
                         "Съём ({cutter}): сдающий ({dealer}) подсмотрел нижнюю карту — "
                         "{card}; она уйдёт в прикуп."),
    "cut_glimpse_hidden": ("The cut ({cutter}): the dealer ({dealer}) glimpses the bottom card; "
                           "only the dealer saw it, and it goes to the talon.",
                           "Съём ({cutter}): сдающий ({dealer}) подсмотрел нижнюю карту; её "
                           "видел только он, она уйдёт в прикуп."),
    "barrel_on": ("{name} {name:climbs|climb} on the barrel.",
                  "{name} {name:садится|садитесь} на бочку."),
    "fall": ("{name} {name:falls|fall} off the barrel.", "{name} {name:слетает|слетаете} с бочки."),
    "knocked_off": ("{name} {name:is|are} knocked off the barrel ({amount}).",
                    "{name:acc} сталкивают с бочки ({amount})."),
    "barrel_timeout": ("{name:{name:poss}|Your} deals on the barrel ran out — "
                       "{name:falls|you fall} off ({amount}).",
                       "У {name:gen} вышел срок на бочке — падение ({amount})."),
    "bolt": ("{name} {name:gets|get} a bolt ({what}).", "У {name:gen} болт ({what})."),
    "bolt_no_trick": ("no trick", "ни одной взятки"),
    "bolt_no_points": ("no points", "ни одного очка"),
    "penalty": ("{name} {name:pays|pay} a penalty {amount} — {reason}.",
                "Штраф {name:dat} {amount} — {reason}."),
    "penalty_bolt": ("for bolts", "за болты"),
    "penalty_concede": ("for conceding", "за роспись"),
    "penalty_redeal": ("for redeals in a row", "за пересдачи подряд"),
    "penalty_cut": ("for three nines at the cut", "за три девятки при съёме"),
    "bolt_samosval": ("Three bolts in a row for {name:acc} — samosval: the score {old} → 0.",
                      "Три болта подряд у {name:gen} — самосвал: счёт {old} → 0."),
    "samosval": ("Samosval for {name:acc}! Exactly {old} — the score resets to 0.",
                 "Самосвал у {name:gen}! Ровно {old} — счёт обнуляется."),
    "fall_reset": ("Another fall off the barrel for {name:acc} — the score becomes {score}.",
                   "Очередное падение {name:gen} с бочки — счёт становится {score}."),
    "golden_restart": ("Nobody made a golden deal: the game starts again, everyone at 0.",
                       "В золотых конах никто не сыграл: игра начинается заново, все с нуля."),
    "winner": ("{name:Winner: {name}.|You won!}", "{name:Победитель — {name}.|Победа ваша!}"),
    "shared": ("Shared win: {names}.", "Победу делят: {names}."),
    "scores": ("Scores: {items}", "Счёт: {items}"),
    "settlement": ("Settlement: {items}", "Расчёт: {items}"),
    "owes": ("{name:{name} pays|you pay} {n}", "{name:{name} платит|вы платите} {n}"),
    "not_your_turn": ("It is {name:poss} move, not yours.", "Сейчас ход {name:gen}, не ваш."),
    # two players (RULES §4 "Two players" 3): the talon chosen unseen, the other one shown
    # when the deal ends; ``which`` is one of ``talon_ordinals``
    "talon_ordinals": ("first|second", "первый|второй"),
    "talon_chosen": ("{name} {name:takes|take} the {which} talon.",
                     "{name} {name:берёт|берёте} {which} прикуп."),
    "talon_chosen_open": ("{name} {name:takes|take} the {which} talon: {cards}",
                          "{name} {name:берёт|берёте} {which} прикуп: {cards}"),
    "talon_chosen_hidden": ("{name} {name:takes|take} the {which} talon face down.",
                            "{name} {name:берёт|берёте} {which} прикуп не показывая."),
    "other_talon": ("The {which} talon, not taken: {cards} — {points:#point|points} to "
                    "{name:acc}.",
                    "Невзятый {which} прикуп: {cards} — {points:#очко|очка|очков} {name:dat}."),
}


def phrase(key: str, lang: str = "ru", **params: object) -> str:
    """The :data:`PHRASES` text ``key`` in ``lang`` with ``params`` (names as they are:
    "Вы"/"You" for the person's own seat)."""
    return render(_pick(PHRASES[key], lang), lang, params)
