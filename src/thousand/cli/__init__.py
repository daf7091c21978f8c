"""The ``thousand`` command line: one Typer app, one module per command.

:func:`main` runs it the way a script wants: every failure is short, on stderr, with
an exit status and never a traceback.  A usage error (an unknown option, a missing
argument, a bad number) is one ``error:`` line plus the command's usage line, exit 2;
a file the system will not give (missing, a directory, no permission) is one
``error:`` line, exit 2; the commands themselves report their own failures the same
way (``thousand replay``: 1 for an illegal game, 2 for a file that is not a record).
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Sequence
from typing import Any

import typer

app = typer.Typer(
    name="thousand",
    help="Тысяча (Thousand): play, replay and study the card game.  Справка по-русски: "
    "thousand --help --lang ru (и thousand КОМАНДА --help --lang ru).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Click's exception classes, whether Typer vendors Click (0.2x) or depends on it: found
# through the one Typer re-exports, so no import names a module that may not exist.
_UsageError: type[Exception] = next(
    c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError"
)
_ClickException: type[Exception] = next(
    c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"
)


def version_text() -> str:
    """``thousand 0.1.0``: the installed package's version (the source's when it is run
    from a checkout without being installed)."""
    from importlib import metadata

    from thousand import __version__

    try:
        version = metadata.version("thousand")
    except metadata.PackageNotFoundError:
        version = __version__
    return f"thousand {version}"


def _show_version(value: bool) -> None:
    if value:
        typer.echo(version_text())
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", "-V", help="Print the version and exit.", is_eager=True,
        callback=_show_version,
    ),
) -> None:
    """Тысяча (Thousand): play, replay and study the card game.  Справка по-русски:
    thousand --help --lang ru (и thousand КОМАНДА --help --lang ru)."""


_COMMANDS = ("rules", "replay", "play", "arena", "verify", "serve", "tournament", "analyse",
             "exercises", "admin")
_MODULES = tuple(f"{c}_cmd" for c in _COMMANDS)


def _register(command: str | None = None) -> None:
    """Import the command modules (each adds itself to ``app``): only ``command``'s when a
    command line names one (``thousand serve`` need not import the terminal's, the
    arena's or the tournaments' modules to start), else all of them (the help, a word
    that is no command)."""
    import importlib

    for name in _MODULES if command is None else (f"{command}_cmd",):
        try:
            importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:  # a command not written yet
            if e.name != f"{__name__}.{name}":
                raise


#: The language of a command whose ``--lang`` has no default of its own (None): what its
#: messages are in when the command line does not say.
_NONE_DEFAULT = {"play": "ru"}


def _command_of(args: Sequence[str]) -> str | None:
    """The command a command line runs (its first word that is not an option)."""
    for word in args:
        if word == "--":
            return None
        if not word.startswith("-"):
            return word if word in _COMMANDS else None
    return None


def language_of(args: Sequence[str]) -> str:
    """The language a command line speaks: its ``--lang`` when that is ru or en, else the
    command's default (``play``, ``rules``, ``serve``: Russian; the others and
    ``thousand`` itself: English)."""
    from thousand.words.grammar import LANGS

    for i, word in enumerate(args):
        if word == "--":
            break
        value = args[i + 1] if word == "--lang" and i + 1 < len(args) else (
            word[len("--lang="):] if word.startswith("--lang=") else None)
        if value in LANGS:
            return str(value)
    command = _command_of(args)
    if command is None:
        return "en"
    import typer.main

    group: Any = typer.main.get_command(app)
    for param in getattr(group.commands.get(command), "params", []):
        if param.name == "lang":
            default = param.default
            return default if isinstance(default, str) else _NONE_DEFAULT.get(command, "en")
    return _NONE_DEFAULT.get(command, "en")


def _wants_help(args: Sequence[str]) -> bool:
    for word in args:
        if word == "--":
            return False
        if word == "--help":
            return True
    return False


def _russian_help(args: Sequence[str]) -> int:
    """``thousand [COMMAND] --help`` in Russian (:func:`thousand.cli.words.russian_help`)."""
    import typer.main

    from .words import russian_help

    group: Any = typer.main.get_command(app)
    command = _command_of(args)
    if command is None:
        typer.echo(russian_help(group, "thousand"))
    else:
        typer.echo(russian_help(group.commands[command], f"thousand {command}"))
    return 0


def _usage_error(e: Exception, args: Sequence[str]) -> int:
    from .common import one_line

    ctx = getattr(e, "ctx", None)
    message = e.format_message() if hasattr(e, "format_message") else str(e)
    if type(e).__name__ == "NoArgsIsHelpError":
        # ``thousand`` alone: the help (Typer has already printed it when rich draws it).
        if message.strip():
            typer.echo(message, err=True)
        return 2
    command = _command_of(args)
    if language_of(args) == "ru":
        from .words import FRAME, usage_error, usage_line

        typer.echo(one_line(FRAME["error"].format(text=usage_error(e, args, _COMMANDS))),
                   err=True)
        where = f"thousand {command}" if command else "thousand"
        usage = ctx.get_usage() if ctx is not None else f"Usage: {where} [OPTIONS] ..."
        typer.echo(one_line(usage_line(usage, where)), err=True)
        return 2
    typer.echo(f"error: {one_line(message)}", err=True)
    if ctx is not None:
        usage = one_line(ctx.get_usage().strip())
        typer.echo(f"{usage}  (--help for more)", err=True)
    else:  # Click knew no command yet (an option without its value)
        command = command or "COMMAND"
        typer.echo(f"Usage: thousand {command} [OPTIONS] ...  (thousand {command} --help "
                   "for more)", err=True)
    return 2


def _os_error(e: OSError, lang: str = "en") -> int:
    from .common import error_text, one_line, os_reason

    if e.errno == errno.EPIPE:  # the reader went away (``thousand rules | head``)
        return 1
    where = f"{e.filename}: " if e.filename is not None else ""
    reason = os_reason(e, lang) if e.errno is not None else str(e)
    typer.echo(one_line(error_text("error", lang, text=f"{where}{reason}")), err=True)
    return 2


def run(args: Sequence[str] | None = None) -> int:
    """Run the command line with ``args`` (``sys.argv[1:]`` by default) and return the
    exit status instead of exiting; what :func:`main` and the tests call."""
    argv = list(sys.argv[1:] if args is None else args)
    _register(_command_of(argv))
    if _command_of(argv) == "play":
        from .resume import optional_resume  # ``play --resume`` alone: the last game

        argv = optional_resume(argv)
    if _wants_help(argv) and language_of(argv) == "ru":
        return _russian_help(argv)
    try:
        result = app(args=argv, prog_name="thousand", standalone_mode=False)
    except _UsageError as e:
        return _usage_error(e, argv)
    except _ClickException as e:
        from .common import error_text, one_line

        said = language_of(argv)
        text = error_text("error", said, text=e.format_message())  # type: ignore[attr-defined]
        typer.echo(one_line(text), err=True)
        return int(getattr(e, "exit_code", 1))
    except typer.Abort:
        typer.echo("прервано" if language_of(argv) == "ru" else "aborted", err=True)
        return 1
    except OSError as e:
        return _os_error(e, language_of(argv))
    except KeyboardInterrupt:
        return 130
    except SystemExit as e:  # Typer exits by itself on a closed pipe
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    # Typer returns the exit status of a ``typer.Exit``, or the command's own value.
    return result if isinstance(result, int) and not isinstance(result, bool) else 0


def main() -> None:
    sys.exit(run())
