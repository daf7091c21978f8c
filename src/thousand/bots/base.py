"""What a bot is: anything with ``choose(view) -> move``.

A bot receives only its seat's :class:`~thousand.view.View` (DESIGN.md: a seat sees only
its view) and returns one of ``view.legal``.  Nothing else is required, so a user's bot
is a class with one method (docs/bots.md).  A bot may also offer
``explain(view, lang) -> (move, reason)`` so that the terminal's ``hint`` can say why.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from thousand.moves import Move
from thousand.view import View


@runtime_checkable
class Bot(Protocol):
    """A player: given the view of its seat when it is to move, a legal move."""

    def choose(self, view: View) -> Move: ...


@runtime_checkable
class ExplainingBot(Bot, Protocol):
    """A bot that can also say why, in ``lang`` (``ru`` or ``en``) or in English."""

    def explain(self, view: View, lang: str = "en") -> tuple[Move, str]: ...


def decide_with_reason(bot: Bot, view: View, lang: str = "en") -> tuple[Move, str]:
    """The bot's move and a reason for people (empty when the bot gives none)."""
    explain = getattr(bot, "explain", None)
    if callable(explain):
        try:
            move, reason = explain(view, lang)
        except TypeError:  # an ``explain(view)`` without a language
            move, reason = explain(view)
        return move, str(reason)
    return bot.choose(view), ""


class BotError(RuntimeError):
    """A bot returned something that is not a legal move."""


def checked_choice(bot: Bot, view: View) -> Move:
    """``bot.choose(view)``, refusing a move that is not in ``view.legal``."""
    move = bot.choose(view)
    if move not in view.legal:
        raise BotError(f"{type(bot).__name__} chose {move!r}, not a legal move here")
    return move
