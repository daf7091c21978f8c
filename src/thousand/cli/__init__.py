"""The ``thousand`` command line: one Typer app, one module per command."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="thousand",
    help="Тысяча (Thousand): play, replay and study the card game.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Тысяча (Thousand): play, replay and study the card game."""


def _register() -> None:
    # Each command module adds itself to ``app`` on import.
    import importlib

    for name in ("rules_cmd", "replay_cmd", "play_cmd", "arena_cmd"):
        try:
            importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:  # a command not written yet
            if e.name != f"{__name__}.{name}":
                raise


def main() -> None:
    _register()
    app()
