"""``thousand play --resume`` with no file: the newest unfinished game.

Read before Typer parses the line (the package's ``run`` calls :func:`optional_resume`),
in a module of its own so that the package need not import ``play``'s, which imports the
package's Typer app (no import cycle: tests/test_import_graph.py).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["LAST_GAME", "optional_resume"]

#: What ``--resume`` with no file stands for (:func:`optional_resume`).
LAST_GAME = ""


def optional_resume(argv: Sequence[str]) -> list[str]:
    """``thousand play … --resume`` with no file after it (the end of the line, or the
    next option) as ``--resume=`` (:data:`LAST_GAME`): the newest unfinished game.  Click
    options take a value or none, never either, so the command line is read this way
    before it parses it."""
    out = list(argv)
    if not out or out[0] != "play":
        return out
    for i, word in enumerate(out):
        if word == "--":
            break
        if word == "--resume" and (i + 1 == len(out) or out[i + 1].startswith("-")):
            out[i] = "--resume=" + LAST_GAME
    return out
