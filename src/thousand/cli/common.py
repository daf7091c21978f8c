"""What several commands share: the ``--preset``/``--set`` options, bot levels, errors.

Every command reads a ruleset the same way and reports a bad option the same way (one
``error: …`` line on stderr, exit status 2), so the options live here once.
"""

from __future__ import annotations

import errno
import os
import unicodedata
from typing import Annotated

import typer
from rich.console import Console

from thousand.bots import bot_levels
from thousand.engine.rules import Rules, RulesError

PRESET_HELP = "classic, dealer-opens, house, textbook or casual"

PresetArgument = Annotated[str, typer.Argument(help=PRESET_HELP)]
SetOption = Annotated[
    list[str] | None,
    typer.Option("--set", "-s", help="Change an option: name=value (repeatable)."),
]


#: The longest error line printed: a message quoting a megabyte of input stays readable.
MAX_LINE = 400


def one_line(text: str, limit: int = MAX_LINE) -> str:
    """``text`` as one printable line: line breaks become spaces, other control
    characters and lone surrogates (a file name that is not UTF-8) visible escapes, and
    a long text is cut with "…"."""
    text = text[: limit * 2].replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
    out = []
    for ch in text:
        code = ord(ch)
        if 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04x}")
        elif unicodedata.category(ch) == "Cc":
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    line = "".join(out)
    return line if len(line) <= limit else line[: limit - 1] + "…"


#: The errors of the options several commands share: key -> (English, Russian)
#: (:func:`thousand.words.grammar.render`: counts agreed).
ERRORS: dict[str, tuple[str, str]] = {
    "error": ("error: {text}", "ошибка: {text}"),
    "no_level": ("--bots needs at least one level", "--bots: назовите хотя бы один уровень"),
    "command_level": ("{level}: --bots names levels; a command plays a seat with "
                      "`thousand arena --seat N=cmd:COMMAND`",
                      "{level}: --bots называет уровни; программа занимает место так: "
                      "`thousand arena --seat N=cmd:КОМАНДА`"),
    "unknown_level": ("unknown bot level {level}; choose from {known}",
                      "нет такого уровня бота: {level}; есть {known}"),
    "seat_spec": ("--seat {spec}: write N=BOT with N a seat from 0 to {last}, e.g. "
                  "--seat 2=cmd:\"node bot.js\"",
                  "--seat {spec}: пишите N=БОТ, где N — место от 0 до {last}, например "
                  "--seat 2=cmd:\"node bot.js\""),
    "seat_twice": ("--seat {n} is given twice", "--seat {n} указано дважды"),
    "seat_bot": ("--seat {n}: {why}", "--seat {n}: {why}"),
    "bots_count": ("--bots names {k:#bot|bots} for a {players}-player game: one level per "
                   "seat", "--bots называет {k:#бота|бота|ботов}, а играют {players}: "
                   "нужен один уровень на место"),
    "bots_count_free": ("--bots names {k:#bot|bots} for a {players}-player game: one level "
                        "per seat, or one for each of the {free} seats --seat leaves free",
                        "--bots называет {k:#бота|бота|ботов}, а играют {players}: нужен "
                        "один уровень на место или на каждое из {free} мест, которые "
                        "--seat оставляет свободными"),
}


#: Why the system refused a file, in Russian (the English is the system's own).
OS_REASONS: dict[int, str] = {
    errno.ENOENT: "нет такого файла или папки",
    errno.EACCES: "нет доступа",
    errno.EPERM: "нет прав",
    errno.EISDIR: "это папка",
    errno.ENOTDIR: "часть пути — не папка",
    errno.ENOSPC: "на диске нет места",
    errno.EROFS: "диск только для чтения",
    errno.EEXIST: "уже существует",
    errno.ENAMETOOLONG: "слишком длинное имя",
    errno.ELOOP: "слишком много символических ссылок",
    errno.EINVAL: "недопустимое имя",
}


def os_reason(e: OSError, lang: str = "en") -> str:
    """Why the system refused (``e.strerror``), in ``lang``."""
    if lang == "ru":
        return OS_REASONS.get(e.errno or 0, f"ошибка системы (errno {e.errno})")
    return str(e.strerror or e)


def value_reason(e: ValueError, lang: str = "en") -> str:
    """Why Python refused a file name (a NUL byte in it), in ``lang``."""
    if lang == "ru":
        return "в имени нулевой байт" if "null" in str(e) else "недопустимое имя"
    return str(e)


#: Why a seat's bot cannot play (thousand.bots.external, thousand.envs.openspiel_bots say
#: it in English), in Russian: (a pattern of the English, its Russian with ``\1`` groups).
BOT_REASONS_RU: tuple[tuple[str, str], ...] = (
    (r"(.*): cannot find the program (.*)", r"\1: программа \2 не найдена"),
    (r"unknown bot level (.*); choose one of: (.*), or cmd:COMMAND",
     r"нет такого уровня бота: \1; есть \2 или cmd:КОМАНДА"),
    (r"cannot read the command (.*?): .*", r"команда \1 не разбирается"),
    (r"the command is empty: write cmd:PROGRAM \[ARGUMENTS\]",
     r"команда пуста: пишите cmd:ПРОГРАММА [АРГУМЕНТЫ]"),
    (r"(.*): an OpenSpiel seat is openspiel:ALGORITHM\[:SECONDS\] with ALGORITHM one of (.*)",
     r"\1: место OpenSpiel пишут openspiel:АЛГОРИТМ[:СЕКУНДЫ], АЛГОРИТМ — один из \2"),
    (r"(.*): the seconds a decision must be a number from 0 to 600",
     r"\1: секунды на ход — число больше 0 и не больше 600"),
)


def bot_reason(e: Exception, lang: str = "en") -> str:
    """Why a seat's bot cannot play, in ``lang`` (:data:`BOT_REASONS_RU` for Russian)."""
    import re

    text = str(e)
    if lang != "ru":
        return text
    for pattern, ru in BOT_REASONS_RU:
        m = re.fullmatch(pattern, text)
        if m:
            return m.expand(ru)
    return "бот не годится: " + text


def error_text(key: str, lang: str = "en", **params: object) -> str:
    """The shared error ``key`` (:data:`ERRORS`) in ``lang``."""
    from thousand.words.grammar import render

    en, ru = ERRORS[key]
    return render(ru if lang == "ru" else en, lang, params)


def fail(message: str, code: int = 2, lang: str = "en") -> typer.Exit:
    """Print one ``error:`` line (``ошибка:`` in Russian) to stderr and return the exit to
    raise."""
    typer.echo(one_line(error_text("error", lang, text=message)), err=True)
    return typer.Exit(code)


def lang_or_exit(lang: str) -> str:
    """``--lang`` checked (``ru`` or ``en``), or exit 2 saying so (in English: the
    language is what is wrong)."""
    from thousand.words.rules import check_lang

    try:
        return check_lang(lang)
    except RulesError as e:
        raise fail(str(e)) from None


def rules_or_exit(preset: str, sets: list[str] | None, lang: str = "en") -> Rules:
    """The ruleset of a preset and ``--set`` overrides, or exit 2 naming what is wrong in
    ``lang``."""
    from thousand.words.rules import rules_error_text

    try:
        return Rules.from_cli(preset, sets or [])
    except RulesError as e:
        raise fail(rules_error_text(e, lang), lang=lang) from None


def parse_levels(text: str, lang: str = "en") -> list[str]:
    """``heuristic,random`` -> ``["heuristic", "random"]``, every level checked (a
    ValueError says what is wrong in ``lang``)."""
    levels = [t.strip() for t in text.split(",") if t.strip()]
    if not levels:
        raise ValueError(error_text("no_level", lang))
    known = bot_levels()
    for lv in levels:
        if lv.startswith("cmd:"):
            raise ValueError(error_text("command_level", lang, level=repr(lv)))
        if lv not in known:
            raise ValueError(error_text("unknown_level", lang, level=repr(lv),
                                        known=", ".join(known)))
    return levels


def levels_or_exit(text: str, lang: str = "en") -> list[str]:
    try:
        return parse_levels(text, lang)
    except ValueError as e:
        raise fail(str(e), lang=lang) from None


def seat_levels(levels: list[str], seats: list[str], players: int,
                lang: str = "en") -> list[str]:
    """The bot of every seat from ``--bots`` and ``--seat N=BOT`` (N from 0; BOT a level or
    ``cmd:COMMAND``).  ``--bots`` names every seat (``--seat`` replaces some) or exactly
    the seats ``--seat`` leaves free, in order."""
    from thousand.bots.external import check_level

    given: dict[int, str] = {}
    for spec in seats:
        n_text, eq, bot = spec.partition("=")
        try:
            n = int(n_text.strip())
        except ValueError:
            n = -1
        if not eq or not 0 <= n < players:
            raise ValueError(error_text("seat_spec", lang, spec=repr(spec), last=players - 1))
        if n in given:
            raise ValueError(error_text("seat_twice", lang, n=n))
        bot = bot.strip()
        try:
            check_level(bot)
        except ValueError as e:
            raise ValueError(error_text("seat_bot", lang, n=n, why=bot_reason(e, lang))) from None
        given[n] = bot
    if len(levels) == players:
        out = list(levels)
    elif len(levels) == players - len(given):
        free = iter(levels)
        out = [given.get(s) or next(free) for s in range(players)]
    else:
        raise ValueError(error_text("bots_count_free" if given else "bots_count", lang,
                                    k=len(levels), players=players,
                                    free=players - len(given)))
    for s, bot in given.items():
        out[s] = bot
    return out


def seat_levels_or_exit(levels: list[str], seats: list[str] | None, players: int,
                        lang: str = "en") -> list[str]:
    try:
        return seat_levels(levels, seats or [], players, lang)
    except ValueError as e:
        raise fail(str(e), lang=lang) from None


def output_console() -> Console:
    """A console for tables; when piped, wide enough not to cut them at 80 columns, unless
    ``COLUMNS`` says how wide the reader's screen is (then that width, as on a terminal)."""
    console = Console(highlight=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(highlight=False, width=max(console.width, 120))
    return console
