"""The terminal's own words (prompts, help, the move list), in Russian (the default) and
English; what happens at the table is worded by the shared catalogue.

Russian words are those the players use at the table (docs/rules.ru.md).  ``T(lang, key,
**params)`` formats one: a key of :data:`WORDS` (the terminal's chrome), else a key of
:data:`thousand.words.catalogue.PHRASES` (the table's story, shared with every front end); the
templates agree with the names they are given (:func:`thousand.words.grammar.render`: «отдать
Боре», «Вы берёте прикуп»).  ``T(lang, "trick_you", ...)`` — a phrase key with ``_you`` —
is that phrase about the person himself.  :func:`rules_summary` says in a few lines how a
ruleset differs from the classic game, for the start of a table.
"""

from __future__ import annotations

from collections.abc import Sequence

from thousand.engine.moves import Move
from thousand.engine.rules import Rules
from thousand.engine.view import View
from thousand.words.catalogue import PHRASES, advice_for, level_name, phrase, preset_name
from thousand.words.grammar import YOU, render

WORDS: dict[str, dict[str, str]] = {
    "ru": {
        "you": "Вы",
        "names": "Вы,Боря,Вова,Гена",
        "welcome": "Тысяча. Ваши соперники: {bots}. Правила: {preset}.",
        "seed": "Номер партии {seed}: --seed {seed} повторит её раздачи.",
        "help_short": "Ход: номер из списка или карта (КЧ, 10п, KH); hint — подсказка, "
                      "help — помощь, quit — выход.",
        "your_hand": "Ваши карты",
        "hand_of": "Карты {name:gen}",
        "hidden_hand": "Ваши карты закрыты: решите, темнить ли.",
        "talon": "Прикуп",
        "talon_hidden": "Прикуп не показывают.",
        "auction": "Торговля",
        "trump": "Козырь",
        "no_trump": "без козыря",
        "on_table": "На столе",
        "cards_gone": "Вышли",
        "sheet": "Запись",
        "your_turn": "Ваш ход",
        "moves": "Можно",
        "prompt": "Ваш ход> ",
        "illegal": "Так нельзя: {why}",
        "unknown_input": "Не понял «{text}». Введите номер хода или карту; help — помощь.",
        "hint": "Подсказка ({level}): {move} — {why}",
        "help": (
            "Как ходить:\n"
            "  номер из списка — сделать этот ход;\n"
            "  карта: КЧ, 10п, Тб, 9т (ранги 9 В Д К 10 Т, масти п т б ч) или KH, 10S, AD;\n"
            "  КЧ+ — сыграть короля червей и объявить марьяж;\n"
            "  ставка: 105; пас; тёмная / смотреть; пересдача; расписать;\n"
            "  первая ставка «ровно 100»: 100 или «сижу»;\n"
            "  перекуп: куплю (buy) или пас;\n"
            "  вдвоём — выбрать прикуп не глядя: прикуп 1 / прикуп 2 (первый, беру второй);\n"
            "  hint (подсказка) — что сделал бы лучший бот и почему;\n"
            "  save [файл] (сохранить) — сохранить игру и играть дальше;\n"
            "  quit (выход) или Ctrl-C — выйти (с сохранением по желанию)."
        ),
        "save_ask": "Сохранить игру? [д/н] ",
        "save_file_ask": "Файл [{default}]: ",
        "saved": "Игра сохранена: {path}",
        "save_failed": "Не удалось сохранить {path}: {why}",
        "bye": "До свидания!",
        "game_over": "Игра окончена.",
        "you_win": "Поздравляем!",
        "give_to": "отдать {to:dat}",
        "discard_word": "в снос",
        "declare_word": "марьяж +{points}",
        "opt_pass": "пас",
        "opt_dark": "тёмная (120 втемную)",
        "opt_look": "смотреть карты",
        "opt_redeal": "пересдача",
        "opt_concede": "расписать",
        "opt_contract": "заказ {n}",
        "opt_bid": "{n}",
        "phase_auction": "Торговля: ставка {bid}{who}.",
        "phase_auction_open": "Торговля: вы открываете (не меньше 100).",
        "phase_exchange": "Отдайте по карте соперникам (сейчас — {to:dat}).",
        "phase_discard": "Положите карту в снос (ещё {n}).",
        "phase_contract": "Назовите заказ (ставка {bid}).",
        "phase_redeal": "Можно потребовать пересдачи.",
        "phase_dark": "Темнить (120 втемную, очки вдвойне) или смотреть карты?",
        "dark_trivial": "В тренировке карты соперников открыты — тёмная здесь ничего не "
                        "значит.",
        "open_mode": "Открытые карты (тренировка).",
        "barrel": "на бочке",
        "eof": "Ввод закончился.",
        "nul_in_path": "в имени файла нулевой байт",
        # the save after every move, resuming, and the errors of thousand play (autosave.py)
        "autosave_at": "Партия сохраняется после каждого хода в файл {path}",
        "autosave_failed": "Не удаётся сохранять партию в {path}: {why}",
        "resume_hint": "Партия сохранена в {path}. Продолжить: {command}",
        "save_copy_ask": "Сохранить копию игры в другой файл? [д/н] ",
        "stopped": "Игра прервана сигналом {signal}.",
        "resume_none": "продолжать нечего: в {dir} нет незаконченных партий. "
                       "Новая игра: {play}",
        "resume_finished": "эта партия уже окончена — продолжать нечего",
        "resume_options": "--resume берёт правила, ботов и места из сохранения; уберите {flags}",
        "error": "ошибка: {text}",
        "seat_range": "--seat: место — число от 0 до {max}",
        "seed_range": "--seed: номер партии — целое число от 0 до {max}",
        "names_count": "--names: нужно {n:#имя|имени|имён} через запятую",
        "names_empty": "--names: имя места {seat} пустое",
        "names_bad": "--names: имя места {seat} не годится: {why}",
        "bots_none": "--bots: назовите хотя бы один уровень ботов",
        "bots_unknown": "--bots: уровня ботов «{level}» нет; уровни: {levels}",
        "bots_cmd": "--bots: «{level}» — это программа, а не уровень; программа занимает место "
                    "в thousand arena --seat N=cmd:КОМАНДА",
        "save_err_no_file": "такого файла нет",
        "save_err_directory": "это папка, а не сохранение",
        "save_err_unreadable": "файл не читается: {why}",
        "save_err_too_large": "больше {mb} МБ — сохранение гораздо меньше",
        "save_err_not_utf8": "не текст в UTF-8: байт {byte} на позиции {offset}",
        "save_err_not_save": "это не сохранение игры ({why})",
        "save_err_version": "сохранение версии {version} не читается: эта версия thousand "
                            "читает версии {known}",
        "save_err_damaged": "сохранение повреждено ({why})",
        "save_err_cannot_replay": "партию из сохранения не воспроизвести ({why})",
        "phase_auction_open_100": "Торговля: вы открываете, и первая ставка только 100 — "
                                  "«сижу на ста».",
        "opt_sit_100": "100 («сижу на ста»)",
        "phase_buy": "Перекупить прикуп за {price}? buy (куплю) / pass (пас)",
        "opt_buy": "перекупить за {price}",
        "opt_no_buy": "пас (не перекупать)",
        "not_utf8": "Строка не в UTF-8 — пропущена. Введите ход ещё раз.",
        "stale_version": "Стол уже изменился — посмотрите и сходите ещё раз.",
        "table_over": "Игра уже окончена.",
        "no_such_seat": "За столом нет такого места.",
        # two players (RULES §4 "Two players"): one opponent, two talons of two cards
        "welcome_one": "Тысяча вдвоём. Ваш соперник: {bots}. Правила: {preset}.",
        "opt_talon": "прикуп {n}",
        "phase_talon_choice": "Выберите прикуп, не глядя: первый или второй.",
        "talons": "Прикупы",
        "face_down": "рубашкой вверх",
        "talon_taken_mark": "взят",
        "hint_failed": "Подсказки нет: бот ошибся ({why}).",
        "hint_bare": "Подсказка ({level}): {move}",
    },
    "en": {
        "you": "You",
        "names": "You,Bob,Vic,Greg",
        "welcome": "Thousand. Your opponents: {bots}. Rules: {preset}.",
        "seed": "Game number {seed}: --seed {seed} deals it again.",
        "help_short": "Move: a number from the list or a card (KH, 10s, A♦); hint, help, quit.",
        "your_hand": "Your cards",
        "hand_of": "Cards: {name}",
        "hidden_hand": "Your cards are face down: bid dark or look?",
        "talon": "Talon",
        "talon_hidden": "The talon is not shown.",
        "auction": "Auction",
        "trump": "Trump",
        "no_trump": "no trump",
        "on_table": "On the table",
        "cards_gone": "Played",
        "sheet": "Score sheet",
        "your_turn": "Your move",
        "moves": "Moves",
        "prompt": "Your move> ",
        "illegal": "Not allowed: {why}",
        "unknown_input": "I did not understand \"{text}\". Type a move number or a card; help.",
        "hint": "Hint ({level}): {move} — {why}",
        "help": (
            "How to move:\n"
            "  a number from the list makes that move;\n"
            "  a card: KH, 10S, AD, 9C (ranks 9 J Q K 10 A, suits S C D H or ♠ ♣ ♦ ♥);\n"
            "  KH+ plays the king of hearts and declares the marriage;\n"
            "  a bid: 105; pass; dark / look; redeal; concede;\n"
            "  the talon buy-out: buy or pass;\n"
            "  two players, a talon chosen unseen: talon 1 / talon 2 (t1, t2);\n"
            "  hint: what the best bot would do, and why;\n"
            "  save [FILE]: save the game and play on;\n"
            "  quit or Ctrl-C: leave (you may save the game)."
        ),
        "save_ask": "Save the game? [y/n] ",
        "save_file_ask": "File [{default}]: ",
        "saved": "Game saved: {path}",
        "save_failed": "Could not save {path}: {why}",
        "bye": "Goodbye!",
        "game_over": "The game is over.",
        "you_win": "Congratulations!",
        "give_to": "give to {to:acc}",
        "discard_word": "discard",
        "declare_word": "marriage +{points}",
        "opt_pass": "pass",
        "opt_dark": "dark (120 blind)",
        "opt_look": "look at the cards",
        "opt_redeal": "redeal",
        "opt_concede": "concede",
        "opt_contract": "contract {n}",
        "opt_bid": "{n}",
        "phase_auction": "Auction: the bid is {bid}{who}.",
        "phase_auction_open": "Auction: you open (100 or more).",
        "phase_exchange": "Give one card to each opponent (now to {to:acc}).",
        "phase_discard": "Discard a card ({n} more).",
        "phase_contract": "Name the contract (bid {bid}).",
        "phase_redeal": "You may demand a redeal.",
        "phase_dark": "Bid dark (120 blind, scores doubled) or look at your cards?",
        "dark_trivial": "In training the opponents' cards are open: a dark bid means "
                        "nothing here.",
        "open_mode": "Open hands (training).",
        "barrel": "on the barrel",
        "eof": "No more input.",
        "nul_in_path": "the file name holds a NUL byte",
        # the save after every move, resuming, and the errors of thousand play (autosave.py)
        "autosave_at": "The game is saved after every move to {path}",
        "autosave_failed": "Cannot save the game to {path}: {why}",
        "resume_hint": "The game is saved in {path}. To go on: {command}",
        "save_copy_ask": "Save a copy of the game to another file? [y/n] ",
        "stopped": "The game was stopped by {signal}.",
        "resume_none": "nothing to resume: no unfinished game in {dir}. A new game: "
                       "thousand play",
        "resume_finished": "this game is over: there is nothing to resume",
        "resume_options": "--resume takes the rules, the bots and the seats from the save; "
                          "leave out {flags}",
        "error": "error: {text}",
        "seat_range": "--seat must be from 0 to {max}",
        "seed_range": "--seed must be a whole number from 0 to {max}",
        "names_count": "--names needs {n} names, comma separated",
        "names_empty": "--names: the name of seat {seat} is empty",
        "names_bad": "--names: the name of seat {seat} {why}",
        "bots_none": "--bots needs at least one level",
        "bots_unknown": "unknown bot level '{level}'; choose from {levels}",
        "bots_cmd": "--bots: '{level}' is a program, not a level; a program plays a seat with "
                    "thousand arena --seat N=cmd:COMMAND",
        "save_err_no_file": "no such file",
        "save_err_directory": "is a directory, not a save",
        "save_err_unreadable": "cannot read it: {why}",
        "save_err_too_large": "larger than {mb} MB; a save is far smaller",
        "save_err_not_utf8": "not UTF-8 text: byte {byte} at offset {offset}",
        "save_err_not_save": "not a save: {why}",
        "save_err_version": "version {version} of a save is not supported; this version of "
                            "thousand reads versions {known}",
        "save_err_damaged": "the save is damaged: {why}",
        "save_err_cannot_replay": "the game cannot be replayed: {why}",
        "phase_auction_open_100": "Auction: you open, and the opening bid is 100 only — "
                                  "\"I sit on 100\".",
        "opt_sit_100": "100 (I sit on 100)",
        "phase_buy": "Buy the talon for {price}? buy / pass",
        "opt_buy": "buy for {price}",
        "opt_no_buy": "pass (no buy)",
        "not_utf8": "That line is not UTF-8 — skipped. Type your move again.",
        "stale_version": "The table has changed — look again and make your move.",
        "table_over": "The game is over already.",
        "no_such_seat": "There is no such seat at this table.",
        # two players (RULES §4 "Two players"): one opponent, two talons of two cards
        "welcome_one": "Thousand for two. Your opponent: {bots}. Rules: {preset}.",
        "opt_talon": "talon {n}",
        "phase_talon_choice": "Choose a talon, unseen: the first or the second.",
        "talons": "Talons",
        "face_down": "face down",
        "talon_taken_mark": "taken",
        "hint_failed": "No hint: the bot failed ({why}).",
        "hint_bare": "Hint ({level}): {move}",
    },
}


def _words(lang: str) -> dict[str, str]:
    return WORDS["ru" if lang == "ru" else "en"]


def _phrase_key(key: str) -> str | None:
    """The :data:`~thousand.words.catalogue.PHRASES` key that words ``key`` (``trick_you`` is
    ``trick`` about the person), or None."""
    if key in PHRASES:
        return key
    if key.endswith("_you") and key[:-4] in PHRASES and "{name" in PHRASES[key[:-4]][1]:
        return key[:-4]
    return None


def has(lang: str, key: str) -> bool:
    """Whether ``lang`` has the text ``key``."""
    return key in _words(lang) or _phrase_key(key) is not None


def T(lang: str, key: str, **params: object) -> str:
    """The text ``key`` in ``lang`` with ``params`` filled in (names agreed and declined,
    :func:`thousand.words.grammar.render`)."""
    words = _words(lang)
    if key in words:
        text = words[key]
        return render(text, lang, params) if params or "{" in text else text
    found = _phrase_key(key)
    if found is None:
        raise KeyError(key)
    if found != key:  # the person's own moment: the phrase about "Вы"/"You"
        params = {**params, "name": YOU["ru" if lang == "ru" else "en"]}
    return phrase(found, lang, **params)


def welcome(lang: str, levels: Sequence[str], preset: str) -> str:
    """The first line of a table: the opponents' levels and the preset by their names for
    people in ``lang`` («Ваши соперники: любитель, любитель. Правила: классика.»; against
    one bot, the game for two, «Ваш соперник: любитель.»)."""
    bots = ", ".join(level_name(lv, lang) for lv in levels) or "—"
    key = "welcome_one" if len(levels) == 1 else "welcome"
    return T(lang, key, bots=bots, preset=preset_name(preset, lang))


def hint_line(lang: str, level: str, view: View, move: Move, why: str) -> str:
    """A hint for the person: the strongest bot's move as advice in the second person
    («Подсказка (мастер): Поднимите заказ до 130 — играется в 92% раскладов»), the level
    by its name for people, and the bot's reason, which does not name the move again."""
    said = advice_for(view, move, lang)
    if not why:  # a move that needs no reason (the talon chosen unseen)
        return T(lang, "hint_bare", level=level_name(level, lang), move=said)
    return T(lang, "hint", level=level_name(level, lang), move=said, why=why)


#: The lines of :func:`rules_summary`: (Russian, English).
_SUMMARY: dict[str, tuple[str, str]] = {
    "players4": ("вчетвером: сдающий в раздаче не играет",
                 "four players: the dealer sits out each deal"),
    "dealer_opens": ("торговлю открывает сдающий", "the dealer opens the auction"),
    "exactly_100": ("первая ставка — ровно 100: «сижу на ста»",
                    "the opening bid is exactly 100: \"I sit on 100\""),
    "step": ("ставки кратны {step}", "bids in steps of {step}"),
    "one_step": ("ставки кратны {step}, повышают на один шаг",
                 "bids in steps of {step}, one step per raise"),
    "natural_ten": ("десятка на своём месте: 9 10 В Д К Т (и по-прежнему 10 очков)",
                    "the ten in its natural place: 9 10 J Q K A (still 10 points)"),
    "discard_three": ("разыгрывающий сносит три карты, 7 взяток",
                      "the declarer discards three cards, 7 tricks"),
    "must_overtake": ("бить старшей обязательно", "you must overtake when following suit"),
    "talon_buy": ("перекуп: прикуп можно перекупить за 120, 240, 360…",
                  "talon buy-out: the talon may be bought for 120, 240, 360, …"),
    "cut": ("съём: девятки и валет показывают всем, нижнюю карту подсматривает сдающий",
            "the cut: nines and a jack are shown to all, the dealer glimpses the bottom card"),
    "dark": ("можно темнить: 120 втемную", "dark bid: 120 blind"),
    "concede": ("можно расписать", "concede allowed"),
    "golden": ("первые три раздачи — золотые: 120 без торговли, очки вдвойне",
               "the first three deals are golden: 120 without an auction, scores doubled"),
    "barrel": ("бочка {barrel}{more}", "barrel at {barrel}{more}"),
    "barrel_none": ("без бочки", "no barrel"),
    "no_limit": (", без срока", ", without a deal limit"),
    "kept": (", счёт сохраняется", ", the score kept"),
    "bolts": ("болты: штраф {penalty} ({when})", "bolts: penalty {penalty} ({when})"),
    "every_3rd": ("за каждый третий", "every third"),
    "every_5th": ("за каждый пятый", "every fifth"),
    "three_in_a_row": ("за три подряд", "three in a row"),
    "samosval": ("самосвал: ровно {values} — счёт обнуляется",
                 "samosval: exactly {values} resets the score to 0"),
    "settlement": ("в конце расчёт: проигравшие платят победителю недостающее до {win}",
                   "settlement at the end: each loser pays the winner what he lacks to {win}"),
    "players2": ("вдвоём: по 10 карт и два прикупа по две; разыгрывающий берёт один не "
                 "глядя, очки другого идут защитнику",
                 "two players: 10 cards each and two talons of two; the declarer takes one "
                 "unseen, the other's points go to the defender"),
    "golden_two": ("первые две раздачи — золотые: 120 без торговли, очки вдвойне",
                   "the first two deals are golden: 120 without an auction, scores doubled"),
}


def _s(lang: str, key: str, **params: object) -> str:
    ru, en = _SUMMARY[key]
    text = ru if lang == "ru" else en
    return text.format(**params) if params else text


def rules_summary(rules: Rules, lang: str = "ru") -> list[str]:
    """How ``rules`` differ from the classic game, one short line each (an empty list for
    the classic game itself), in the players' words."""
    base = Rules()
    out: list[str] = []
    if rules.players == 4:
        out.append(_s(lang, "players4"))
    if rules.players == 2:
        out.append(_s(lang, "players2"))
    if rules.first_bidder == "dealer":
        out.append(_s(lang, "dealer_opens"))
    if rules.opening_bid == "exactly_100":
        out.append(_s(lang, "exactly_100"))
    if not rules.bid_jumps:
        out.append(_s(lang, "one_step", step=rules.bid_step))
    elif rules.bid_step != base.bid_step:
        out.append(_s(lang, "step", step=rules.bid_step))
    if rules.ten_strength == "natural":
        out.append(_s(lang, "natural_ten"))
    if rules.exchange == "discard_three":
        out.append(_s(lang, "discard_three"))
    if rules.must_overtake:
        out.append(_s(lang, "must_overtake"))
    if rules.talon_buy:
        out.append(_s(lang, "talon_buy"))
    if rules.cut_nines:
        out.append(_s(lang, "cut"))
    if rules.dark:
        out.append(_s(lang, "dark"))
    if rules.concede:
        out.append(_s(lang, "concede"))
    if rules.golden_deals:
        out.append(_s(lang, "golden_two" if rules.players == 2 else "golden"))
    if rules.barrel is None:
        out.append(_s(lang, "barrel_none"))
    elif (rules.barrel, rules.barrel_deals, rules.barrel_score) != (
        base.barrel, base.barrel_deals, base.barrel_score
    ):
        more = (_s(lang, "no_limit") if rules.barrel_deals is None else "") + (
            _s(lang, "kept") if rules.barrel_score == "kept" else ""
        )
        out.append(_s(lang, "barrel", barrel=rules.barrel, more=more))
    if rules.bolts is not None:
        out.append(_s(lang, "bolts", penalty=rules.penalty, when=_s(lang, rules.bolts)))
    if rules.samosval:
        values = " / ".join(str(v) for v in rules.samosval)
        out.append(_s(lang, "samosval", values=values))
    if rules.settlement:
        out.append(_s(lang, "settlement", win=rules.win_score))
    return out
