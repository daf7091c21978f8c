"""Every word the terminal game prints, in Russian (the default) and English.

Russian words are those the players use at the table (docs/rules.md).  ``T(lang, key,
**params)`` formats one; :func:`rules_summary` says in a few lines how a ruleset differs
from the classic game, for the start of a table.
"""

from __future__ import annotations

from thousand.rules import Rules

LANGS = ("ru", "en")

WORDS: dict[str, dict[str, str]] = {
    "ru": {
        "you": "Вы",
        "names": "Вы,Боря,Вова,Гена",
        "welcome": "Тысяча. Вы играете против: {bots}. Правила: {preset}.",
        "seed": "Раздачи по зерну {seed} (--seed {seed} повторит игру).",
        "help_short": "Ход: номер из списка или карта (КЧ, 10п, KH); hint — подсказка, "
                      "help — помощь, quit — выход.",
        "deal_header": "Раздача {n}. Сдаёт: {dealer}.{golden}",
        "golden": " Золотой кон: {player} играет 120 без торговли.",
        "golden_you": " Золотой кон: вы играете 120 без торговли.",
        "sits_out": "{name} сдаёт и в этой раздаче не играет.",
        "your_hand": "Ваши карты",
        "hand_of": "Карты: {name}",
        "hidden_hand": "Ваши карты закрыты: решите, темнить ли.",
        "talon": "Прикуп",
        "talon_hidden": "Прикуп не показывают.",
        "talon_taken": "{name} берёт прикуп: {cards}",
        "talon_taken_hidden": "{name} берёт прикуп (закрыто).",
        "auction": "Торговля",
        "bids": "{name}: {bid}",
        "passes": "{name}: пас",
        "dark": "{name}: тёмная (120 втемную)",
        "look": "{name} смотрит карты",
        "redeal": "{name} требует пересдачи.",
        "declarer": "Играет {name}, ставка {bid}{dark}.",
        "gives": "{name} отдаёт карту игроку {to}.",
        "gives_you": "{name} отдаёт вам {card}.",
        "you_give": "Вы отдаёте {card} игроку {to}.",
        "discards": "{name} кладёт карту в снос.",
        "you_discard": "Вы кладёте в снос {card}.",
        "contract": "{name} заказывает {n}.",
        "concedes": "{name} расписывается: заказ {n} не играет.",
        "redeal_pass": "{name}: без пересдачи.",
        "marriage": "{name} объявляет марьяж {suit} (+{points}). Козырь — {suit}.",
        "half_marriage": "{name} объявляет полумарьяж {suit} (+{points}). Козырь — {suit}.",
        "ace_marriage": "{name} объявляет тузовый марьяж (+{points}).",
        "four_nines": "{name} объявляет четыре девятки (+{points}).",
        "plays": "{name}: {card}",
        "trick": "Взятка {n}: {cards} — берёт {name} ({points} очк.)",
        "trump": "Козырь",
        "no_trump": "без козыря",
        "on_table": "На столе",
        "contract_line": "Заказ: {name} — {n}{dark}",
        "dark_mark": " (тёмная)",
        "deal_over": "Раздача окончена.",
        "made": "{name} сыграл {n}: {points} очк.",
        "failed": "{name} не сыграл {n}: только {points} очк.",
        "conceded": "{name} расписался на {n}.",
        "redealt": "Пересдача.",
        "points_line": "Очки в раздаче: {items}",
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
        "winner": "Победитель: {name}.",
        "shared": "Победу делят: {names}.",
        "scores": "Счёт: {items}",
        "you_win": "Вы победили!",
        "give_to": "отдать {to}",
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
        "phase_exchange": "Отдайте по карте соперникам (сейчас — игроку {to}).",
        "phase_discard": "Положите карту в снос (ещё {n}).",
        "phase_contract": "Назовите заказ (ставка {bid}).",
        "phase_redeal": "Можно потребовать пересдачи.",
        "phase_dark": "Темнить (120 втемную, очки вдвойне) или смотреть карты?",
        "open_mode": "Открытые карты (тренировка).",
        "barrel": "на бочке",
        "eof": "Ввод закончился.",
        # the same moments when they are the person's own (second person)
        "sits_out_you": "Вы сдаёте и в этой раздаче не играете.",
        "declarer_you": "Играете вы, ставка {bid}{dark}.",
        "talon_taken_you": "Вы берёте прикуп: {cards}",
        "contract_you": "Вы заказываете {n}.",
        "concedes_you": "Вы расписываетесь: заказ {n} не играет.",
        "buys_you": "Вы перекупаете прикуп за {price} (продаёт: {seller}).",
        "redeal_you": "Вы требуете пересдачи.",
        "marriage_you": "Вы объявляете марьяж {suit} (+{points}). Козырь — {suit}.",
        "half_marriage_you": "Вы объявляете полумарьяж {suit} (+{points}). Козырь — {suit}.",
        "ace_marriage_you": "Вы объявляете тузовый марьяж (+{points}).",
        "four_nines_you": "Вы объявляете четыре девятки (+{points}).",
        "trick_you": "Взятка {n}: {cards} — ваша ({points} очк.)",
        "made_you": "Вы сыграли {n}: {points} очк.",
        "failed_you": "Вы не сыграли {n}: только {points} очк.",
        "conceded_you": "Вы расписались на {n}.",
        "barrel_on_you": "Вы садитесь на бочку.",
        "fall_you": "Вы слетаете с бочки.",
        "knocked_off_you": "Вас сбили с бочки ({amount}).",
        "barrel_timeout_you": "Срок на бочке вышел — вы слетаете ({amount}).",
        "bolt_you": "У вас болт ({what}).",
        "penalty_you": "Вам штраф {amount} — {reason}.",
        "bolt_samosval_you": "Три болта подряд — самосвал: ваш счёт {old} → 0.",
        "samosval_you": "Самосвал! Ровно {old} — ваш счёт обнуляется.",
        "fall_reset_you": "Очередное падение с бочки — ваш счёт становится {score}.",
        "look_other": "{name} смотрит карты.",
        "gives_open": "{name} отдаёт {card} игроку {to}.",
        "discards_open": "{name} кладёт в снос {card}.",
        "nul_in_path": "в имени файла нулевой байт",
        "sits_on_100": "{name}: 100 — «сижу на ста»",
        "phase_auction_open_100": "Торговля: вы открываете, и первая ставка только 100 — "
                                  "«сижу на ста».",
        "opt_sit_100": "100 («сижу на ста»)",
        "phase_buy": "Перекупить прикуп за {price}? buy (куплю) / pass (пас)",
        "opt_buy": "перекупить за {price}",
        "opt_no_buy": "пас (не перекупать)",
        "buys": "{name} перекупает прикуп за {price} (продаёт: {seller}).",
        "no_buy": "{name}: без перекупа.",
        "cut_nine": "Съём ({cutter}): внизу {card} — девятка, её видят все; снимают ещё раз.",
        "cut_third_nine": "Съём ({cutter}): внизу {card} — третья девятка: снимавшему штраф "
                          "{penalty}, сдают как лежит; эта девятка уйдёт в прикуп.",
        "cut_jack": "Съём ({cutter}): внизу {card} — валет, его видят все; сдающий ({dealer}) "
                    "снимает ещё раз, никто не смотрит.",
        "cut_glimpse_you": "Съём ({cutter}): вы сдаёте и подсмотрели нижнюю карту — {card}; "
                           "она уйдёт в прикуп. Её видели только вы.",
        "cut_glimpse_open": "Съём ({cutter}): сдающий ({dealer}) подсмотрел нижнюю карту — "
                            "{card}; она уйдёт в прикуп.",
        "cut_glimpse_hidden": "Съём ({cutter}): сдающий ({dealer}) подсмотрел нижнюю карту; "
                              "её видел только он, она уйдёт в прикуп.",
        "barrel_on": "{name} — на бочке.",
        "fall": "{name}: падение с бочки.",
        "knocked_off": "{name}: сбили с бочки ({amount}).",
        "barrel_timeout": "{name}: срок на бочке вышел — падение ({amount}).",
        "bolt": "{name}: болт ({what}).",
        "bolt_no_trick": "ни одной взятки",
        "bolt_no_points": "ни одного очка",
        "penalty": "{name}: штраф {amount} — {reason}.",
        "penalty_bolt": "за болты",
        "penalty_concede": "за роспись",
        "penalty_redeal": "за пересдачи подряд",
        "penalty_cut": "за три девятки при съёме",
        "bolt_samosval": "{name}: три болта подряд — самосвал, счёт {old} → 0.",
        "samosval": "{name}: самосвал! Ровно {old} — счёт обнуляется.",
        "fall_reset": "{name}: очередное падение с бочки — счёт становится {score}.",
        "golden_restart": "В золотых конах никто не сыграл: игра начинается заново, все с нуля.",
        "redealt_by": "Пересдача (потребовал {name}).",
        "golden_made": "Золотой кон: очки вдвойне.",
        "dark_made": "Тёмная: очки вдвойне.",
        "settlement": "Расчёт: {items}",
        "owes": "{name} платит {n}",
        "owes_you": "вы платите {n}",
        "not_utf8": "Строка не в UTF-8 — пропущена. Введите ход ещё раз.",
        "not_your_turn": "Сейчас ходит {name}, не вы.",
        "stale_version": "Стол уже изменился — посмотрите и сходите ещё раз.",
        "table_over": "Игра уже окончена.",
        "no_such_seat": "За столом нет такого места.",
    },
    "en": {
        "you": "You",
        "names": "You,Bob,Vic,Greg",
        "welcome": "Thousand. You play against: {bots}. Rules: {preset}.",
        "seed": "Deals from seed {seed} (--seed {seed} replays the game).",
        "help_short": "Move: a number from the list or a card (KH, 10s, A♦); hint, help, quit.",
        "deal_header": "Deal {n}. Dealer: {dealer}.{golden}",
        "golden": " Golden deal: {player} plays 120 without an auction.",
        "golden_you": " Golden deal: you play 120 without an auction.",
        "sits_out": "{name} deals and sits out this deal.",
        "your_hand": "Your cards",
        "hand_of": "Cards: {name}",
        "hidden_hand": "Your cards are face down: bid dark or look?",
        "talon": "Talon",
        "talon_hidden": "The talon is not shown.",
        "talon_taken": "{name} takes the talon: {cards}",
        "talon_taken_hidden": "{name} takes the talon (face down).",
        "auction": "Auction",
        "bids": "{name}: {bid}",
        "passes": "{name}: pass",
        "dark": "{name}: dark (120 blind)",
        "look": "{name} looks at the cards",
        "redeal": "{name} demands a redeal.",
        "declarer": "{name} plays, bid {bid}{dark}.",
        "gives": "{name} gives a card to {to}.",
        "gives_you": "{name} gives you {card}.",
        "you_give": "You give {card} to {to}.",
        "discards": "{name} discards a card.",
        "you_discard": "You discard {card}.",
        "contract": "{name} names the contract {n}.",
        "concedes": "{name} concedes the contract {n}.",
        "redeal_pass": "{name}: no redeal.",
        "marriage": "{name} declares the {suit} marriage (+{points}). Trump: {suit}.",
        "half_marriage": "{name} declares the {suit} half marriage (+{points}). Trump: {suit}.",
        "ace_marriage": "{name} declares the ace marriage (+{points}).",
        "four_nines": "{name} declares four nines (+{points}).",
        "plays": "{name}: {card}",
        "trick": "Trick {n}: {cards} — {name} takes it ({points} pts)",
        "trump": "Trump",
        "no_trump": "no trump",
        "on_table": "On the table",
        "contract_line": "Contract: {name} — {n}{dark}",
        "dark_mark": " (dark)",
        "deal_over": "The deal is over.",
        "made": "{name} made {n}: {points} points.",
        "failed": "{name} failed {n}: only {points} points.",
        "conceded": "{name} conceded {n}.",
        "redealt": "Redeal.",
        "points_line": "Points in the deal: {items}",
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
        "winner": "Winner: {name}.",
        "shared": "Shared win: {names}.",
        "scores": "Scores: {items}",
        "you_win": "You won!",
        "give_to": "give to {to}",
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
        "phase_exchange": "Give one card to each opponent (now to {to}).",
        "phase_discard": "Discard a card ({n} more).",
        "phase_contract": "Name the contract (bid {bid}).",
        "phase_redeal": "You may demand a redeal.",
        "phase_dark": "Bid dark (120 blind, scores doubled) or look at your cards?",
        "open_mode": "Open hands (training).",
        "barrel": "on the barrel",
        "eof": "No more input.",
        # the same moments when they are the person's own (second person)
        "sits_out_you": "You deal and sit out this deal.",
        "declarer_you": "You play, bid {bid}{dark}.",
        "talon_taken_you": "You take the talon: {cards}",
        "contract_you": "You name the contract {n}.",
        "concedes_you": "You concede the contract {n}.",
        "buys_you": "You buy the talon for {price} (from {seller}).",
        "redeal_you": "You demand a redeal.",
        "marriage_you": "You declare the {suit} marriage (+{points}). Trump: {suit}.",
        "half_marriage_you": "You declare the {suit} half marriage (+{points}). Trump: {suit}.",
        "ace_marriage_you": "You declare the ace marriage (+{points}).",
        "four_nines_you": "You declare four nines (+{points}).",
        "trick_you": "Trick {n}: {cards} — yours ({points} pts)",
        "made_you": "You made {n}: {points} points.",
        "failed_you": "You failed {n}: only {points} points.",
        "conceded_you": "You conceded {n}.",
        "barrel_on_you": "You climb on the barrel.",
        "fall_you": "You fall off the barrel.",
        "knocked_off_you": "You are knocked off the barrel ({amount}).",
        "barrel_timeout_you": "Your barrel deals ran out — you fall off ({amount}).",
        "bolt_you": "You have a bolt ({what}).",
        "penalty_you": "You pay a penalty {amount} — {reason}.",
        "bolt_samosval_you": "Three bolts in a row — samosval: your score {old} → 0.",
        "samosval_you": "Samosval! Exactly {old} — your score resets to 0.",
        "fall_reset_you": "Another fall off the barrel — your score becomes {score}.",
        "look_other": "{name} looks at the cards.",
        "gives_open": "{name} gives {card} to {to}.",
        "discards_open": "{name} discards {card}.",
        "nul_in_path": "the file name holds a NUL byte",
        "sits_on_100": "{name}: 100 — \"I sit on 100\"",
        "phase_auction_open_100": "Auction: you open, and the opening bid is 100 only — "
                                  "\"I sit on 100\".",
        "opt_sit_100": "100 (I sit on 100)",
        "phase_buy": "Buy the talon for {price}? buy / pass",
        "opt_buy": "buy for {price}",
        "opt_no_buy": "pass (no buy)",
        "buys": "{name} buys the talon for {price} (from {seller}).",
        "no_buy": "{name}: no buy.",
        "cut_nine": "The cut ({cutter}): {card} at the bottom — a nine, shown to all; "
                    "cut again.",
        "cut_third_nine": "The cut ({cutter}): {card} at the bottom — the third nine: the "
                          "cutter pays {penalty}, the deck is dealt as it lies; this nine goes "
                          "to the talon.",
        "cut_jack": "The cut ({cutter}): {card} at the bottom — a jack, shown to all; the "
                    "dealer ({dealer}) cuts once more, unseen.",
        "cut_glimpse_you": "The cut ({cutter}): you deal and glimpse the bottom card — {card}; "
                           "it goes to the talon. Only you saw it.",
        "cut_glimpse_open": "The cut ({cutter}): the dealer ({dealer}) glimpses the bottom "
                            "card — {card}; it goes to the talon.",
        "cut_glimpse_hidden": "The cut ({cutter}): the dealer ({dealer}) glimpses the bottom "
                              "card; only the dealer saw it, and it goes to the talon.",
        "barrel_on": "{name} climbs on the barrel.",
        "fall": "{name} falls off the barrel.",
        "knocked_off": "{name} is knocked off the barrel ({amount}).",
        "barrel_timeout": "{name}: the barrel deals ran out — falls off ({amount}).",
        "bolt": "{name}: a bolt ({what}).",
        "bolt_no_trick": "no trick",
        "bolt_no_points": "no points",
        "penalty": "{name}: penalty {amount} — {reason}.",
        "penalty_bolt": "for bolts",
        "penalty_concede": "for conceding",
        "penalty_redeal": "for redeals in a row",
        "penalty_cut": "for three nines at the cut",
        "bolt_samosval": "{name}: three bolts in a row — samosval, the score {old} → 0.",
        "samosval": "{name}: samosval! Exactly {old} — the score resets to 0.",
        "fall_reset": "{name}: another fall off the barrel — the score becomes {score}.",
        "golden_restart": "Nobody made a golden deal: the game starts again, everyone at 0.",
        "redealt_by": "Redeal (demanded by {name}).",
        "golden_made": "Golden deal: scores doubled.",
        "dark_made": "Dark deal: scores doubled.",
        "settlement": "Settlement: {items}",
        "owes": "{name} pays {n}",
        "owes_you": "you pay {n}",
        "not_utf8": "That line is not UTF-8 — skipped. Type your move again.",
        "not_your_turn": "It is {name}'s move, not yours.",
        "stale_version": "The table has changed — look again and make your move.",
        "table_over": "The game is over already.",
        "no_such_seat": "There is no such seat at this table.",
    },
}


def has(lang: str, key: str) -> bool:
    """Whether ``lang`` has the text ``key``."""
    return key in WORDS["ru" if lang == "ru" else "en"]


def T(lang: str, key: str, **params: object) -> str:
    """The text ``key`` in ``lang`` with ``params`` filled in."""
    words = WORDS["ru" if lang == "ru" else "en"]
    text = words[key]
    return text.format(**params) if params else text


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
        out.append(_s(lang, "golden"))
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
