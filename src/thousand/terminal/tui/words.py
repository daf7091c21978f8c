"""The words of the full-screen table that the line mode has no use for (labels, keys,
the help screen), in Russian and English.  What the rules say — every event, every
refusal — comes from the shared catalogue :mod:`thousand.words.catalogue`; the moves' names from
:mod:`thousand.terminal.i18n`."""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "ru": {
        "title": "Тысяча",
        "deal": "раздача {n}",
        "trump": "козырь {suit}",
        "no_trump": "козыря нет",
        "contract": "заказ: {name} {n}",
        "dark": " втёмную",
        "golden": "золотой кон",
        "talon": "Прикуп",
        "talon_with": "прикуп у {name}",
        "on_table": "На столе",
        "trick_n": "Взятка {n} из {total}",
        "last_trick": "Прошлая: {name} +{points}",
        "auction": "Торговля",
        "given": "Отдано",
        "cards": "карт {n}",
        "hand_hidden": "карты закрыты",
        "tricks": "{points} очк., {n} вз.",
        "bid": "ставка {n}",
        "pass": "пас",
        "dark_bid": "120 втёмную",
        "declarer": "★{n}",
        "dealer_mark": "сдаёт",
        "dealer_mark_you": "сдаёте",
        "sits_out": "сдаёт, не играет",
        "sits_out_you": "сдаёте, вне игры",
        "barrel": "бочка",
        "barrel_left": "бочка {n}",
        "bolts": "болт×{n}",
        "you_move": "Ваш ход.",
        "how_to_play": "Карта: ← → и Enter, щелчок или её номер.",
        "thinking": "{name} думает…",
        "hint_thinking": "Подсказка: думаю…",
        "paused": "Enter — следующая раздача, F4 — запись",
        "over": "Игра окончена. F4 — запись, Ctrl+Q — выход.",
        "deal_result": "Итог раздачи: {text}",
        "key_help": "F1 справка",
        "key_hint": "F2 подсказка",
        "key_last": "F3 взятка",
        "key_sheet": "F4 запись",
        "key_why": "F5 почему",
        "key_concede": "F6 расписать",
        "key_save": "^S сохранить",
        "key_analysis": "F7 анализ",
        "over_analysis": "Игра окончена. F7 — анализ, F4 — запись, Ctrl+Q — выход.",
        "analysis_title": "Анализ партии",
        "analysis_keys": "← → ход, [ ] или Shift+← → отмеченный, Esc — к столу",
        "analysis_running": "Анализ идёт…",
        "key_quit": "^Q выход",
        "no_concede": "Сейчас расписать нельзя.",
        "concede_picked": "Выбрано «расписать»: Enter — расписать, ← → — другой ход.",
        "declare_how": "Карта с «+» объявляет марьяж; тот же ход без марьяжа — {numbers}.",
        "too_small": "Окно терминала мало для стола: нужно не меньше {w}×{h}, сейчас "
                     "{now_w}×{now_h}. Увеличьте окно или играйте построчно: {play} "
                     "--plain. Ctrl+Q — выход.",
        "placeholder": "карта (кч, 10п), номер, ставка; подсказка, справка",
        "save_q": "Сохранить игру перед выходом?",
        "save_copy_q": "Игра и так сохраняется после каждого хода. Сохранить ещё и копию?",
        "save_file": "Файл: {path}",
        "copy_file": "Игра: {auto}\nКопия: {path}",
        "yes": "Да (д)",
        "no": "Нет (н)",
        "cancel": "Отмена (Esc)",
        "hint": "Подсказка ({level}): {move} — {why}",
        "why": "Почему {name}: {move} — {why}",
        "why_none": "Боты ещё не ходили.",
        "why_closed": "Почему боты так сыграли — только в открытой игре (--open).",
        "no_last_trick": "Взяток в этой раздаче ещё не было.",
        "not_your_turn": "Сейчас не ваш ход.",
        "no_declare": "без марьяжа",
        "close": "Esc — закрыть",
        "bot_error": "Бот {name} ошибся: {why}",
        "help": (
            "Как ходить\n"
            "  ← → (и ↑ ↓) выбирают карту или ставку, Enter — сходить;\n"
            "  Home и End — к началу и к концу ставок, F6 — «расписать»;\n"
            "  мышь: щелчок по карте или по ставке — сразу ход;\n"
            "  набрать карту и Enter: кч, 10б, KH, 10s, A♦ (KH+ — с марьяжем);\n"
            "  номер над картой или в строке ходов и Enter («+» на карте — с марьяжем);\n"
            "  ставка числом: 120; слова: пас, dark (темню), look (смотрю), buy (куплю),\n"
            "  redeal (пересдача), concede (расписать), заказ 130.\n"
            "Клавиши\n"
            "  F1 эта справка, F2 подсказка (ход лучшего бота и почему),\n"
            "  F3 прошлая взятка, F4 запись, F5 почему бот так сыграл\n"
            "  (в открытой игре), F7 анализ (после конца игры),\n"
            "  Ctrl+S сохранить, Ctrl+Q или Ctrl+C выйти.\n"
            "  Набрать save [файл] — сохранить, quit — выйти.\n"
            "Между раздачами — пауза: Enter продолжает.\n"
            "Сохранённую игру продолжает {play} --resume ФАЙЛ."
        ),
        "help_title": "Справка",
        # two players (RULES §4 "Two players"): the two talons on the table
        "talon_n": "Прикуп {n}",
        "talon_choice": "Выбор прикупа",
        "talon_key": "клавиша {n}",
        "key_talon": "1 2 прикуп",
        "discards": "Снос",
        "to_defender": "→ {name} +{points}",
        "help_two": "Вдвоём прикуп выбирают не глядя: клавишей 1 или 2, щелчком по нему "
                    "или словами: прикуп 1, первый, беру второй.",
    },
    "en": {
        "title": "Thousand",
        "deal": "deal {n}",
        "trump": "trump {suit}",
        "no_trump": "no trump",
        "contract": "contract: {name} {n}",
        "dark": " dark",
        "golden": "golden deal",
        "talon": "Talon",
        "talon_with": "talon taken by {name}",
        "on_table": "On the table",
        "trick_n": "Trick {n} of {total}",
        "last_trick": "Last: {name} +{points}",
        "auction": "Auction",
        "given": "Given",
        "cards": "{n} cards",
        "hand_hidden": "cards face down",
        "tricks": "{points} pts, {n} tr.",
        "bid": "bid {n}",
        "pass": "pass",
        "dark_bid": "120 dark",
        "declarer": "★{n}",
        "dealer_mark": "dealer",
        "dealer_mark_you": "dealer",
        "sits_out": "deals, sits out",
        "sits_out_you": "deal, sit out",
        "barrel": "barrel",
        "barrel_left": "barrel {n}",
        "bolts": "bolt×{n}",
        "you_move": "Your move.",
        "how_to_play": "A card: ← → and Enter, a click, or its number.",
        "thinking": "{name} is thinking…",
        "hint_thinking": "Hint: thinking…",
        "paused": "Enter: the next deal, F4: the score sheet",
        "over": "The game is over. F4: the score sheet; Ctrl+Q: leave.",
        "deal_result": "The deal: {text}",
        "key_help": "F1 help",
        "key_hint": "F2 hint",
        "key_last": "F3 last trick",
        "key_sheet": "F4 sheet",
        "key_why": "F5 why",
        "key_concede": "F6 concede",
        "key_save": "^S save",
        "key_analysis": "F7 analysis",
        "over_analysis": "The game is over. F7: analysis; F4: the score sheet; Ctrl+Q: leave.",
        "analysis_title": "Analysis of the game",
        "analysis_keys": "← → decision, [ ] or Shift+← → marked one, Esc: the table",
        "analysis_running": "Analysing…",
        "key_quit": "^Q quit",
        "no_concede": "You cannot concede now.",
        "concede_picked": "Concede is picked: Enter concedes, ← → another move.",
        "declare_how": "A card marked + declares its marriage; the same card without it: "
                       "{numbers}.",
        "too_small": "The terminal is too small for the table: it needs at least {w}×{h}, "
                     "it is {now_w}×{now_h}. Make the window larger, or play line by line: "
                     "{play} --plain. Ctrl+Q leaves.",
        "placeholder": "a card (KH, 10s), a number, a bid; hint, help",
        "save_q": "Save the game before leaving?",
        "save_copy_q": "The game is saved after every move anyway. Save a copy as well?",
        "save_file": "File: {path}",
        "copy_file": "The game: {auto}\nThe copy: {path}",
        "yes": "Yes (y)",
        "no": "No (n)",
        "cancel": "Cancel (Esc)",
        "hint": "Hint ({level}): {move} — {why}",
        "why": "Why {name}: {move} — {why}",
        "why_none": "The bots have not moved yet.",
        "why_closed": "Why a bot played: only with open hands (--open).",
        "no_last_trick": "No trick has been taken in this deal yet.",
        "not_your_turn": "It is not your move.",
        "no_declare": "no marriage",
        "close": "Esc: close",
        "bot_error": "The bot {name} failed: {why}",
        "help": (
            "How to move\n"
            "  ← → (and ↑ ↓) pick a card or a bid, Enter plays it;\n"
            "  Home and End go to either end of the bids, F6 picks concede;\n"
            "  the mouse: a click on a card or a bid plays it;\n"
            "  type a card and Enter: KH, 10s, A♦ (KH+ declares the marriage);\n"
            "  the number over a card or in the row of moves, and Enter (+ declares);\n"
            "  a bid as a number: 120; words: pass, dark, look, buy, redeal,\n"
            "  concede, contract 130.\n"
            "Keys\n"
            "  F1 this help, F2 hint (the best bot's move and why),\n"
            "  F3 the last trick, F4 the score sheet, F5 why a bot played\n"
            "  (open hands), F7 analysis (once the game is over),\n"
            "  Ctrl+S save, Ctrl+Q or Ctrl+C leave.\n"
            "  Type save [FILE] to save, quit to leave.\n"
            "Between deals the table pauses: Enter goes on.\n"
            "{play} --resume FILE continues a saved game."
        ),
        "help_title": "Help",
        # two players (RULES §4 "Two players"): the two talons on the table
        "talon_n": "Talon {n}",
        "talon_choice": "Choosing a talon",
        "talon_key": "key {n}",
        "key_talon": "1 2 talon",
        "discards": "Discards",
        "to_defender": "→ {name} +{points}",
        "help_two": "Two players choose a talon unseen: the key 1 or 2, a click on it, or "
                    "words: talon 1, t2, second talon.",
    },
}

def W(lang: str, key: str, **params: object) -> str:
    """The word ``key`` of the full-screen table in ``lang``; ``{play}`` in it is the
    command that started the game (``thousand play``, ``./run play``)."""
    text = WORDS["ru" if lang == "ru" else "en"][key]
    if "{play}" in text:
        from ..autosave import play_command

        params = {"play": play_command(), **params}
    return text.format(**params) if params else text
