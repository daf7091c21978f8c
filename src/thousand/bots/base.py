"""What a bot is: anything with ``choose(view) -> move``.

A bot receives only its seat's :class:`~thousand.engine.view.View` (docs/architecture.md:
its view only) and returns one of ``view.legal``.  Nothing else is required, so a user's bot
is a class with one method (docs/bots.md).  A bot may also offer
``explain(view, lang) -> (move, reason)`` so that the terminal's ``hint`` can say why.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from thousand.engine.moves import Move
from thousand.engine.view import View


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


#: Why a bot chose a move: (English, Russian).
Reason = tuple[str, str]

ONLY_MOVE: Reason = ("the only legal move", "единственный возможный ход")


def say(reason: Reason, lang: str) -> str:
    """The reason in ``lang`` (Russian for ``ru``, else English)."""
    return reason[1] if lang == "ru" else reason[0]


class ReasoningBot:
    """A bot that decides with a reason in both languages: ``choose`` and ``explain`` come
    from :meth:`decide`, which answers a forced move itself and leaves a real choice to
    :meth:`decide_among`."""

    def choose(self, view: View) -> Move:
        return self.decide(view)[0]

    def explain(self, view: View, lang: str = "en") -> tuple[Move, str]:
        move, reason = self.decide(view)
        return move, say(reason, lang)

    def decide(self, view: View) -> tuple[Move, Reason]:
        legal = view.legal
        if not legal:
            raise ValueError("no legal move: it is not this seat's turn")
        if len(legal) == 1:
            return legal[0], ONLY_MOVE
        return self.decide_among(view)

    def decide_among(self, view: View) -> tuple[Move, Reason]:
        """The move and its reason when ``view.legal`` holds more than one move."""
        raise NotImplementedError


class BotError(RuntimeError):
    """A bot returned something that is not a legal move."""


def checked_choice(bot: Bot, view: View) -> Move:
    """``bot.choose(view)``, refusing a move that is not in ``view.legal``."""
    move = bot.choose(view)
    if move not in view.legal:
        raise BotError(f"{type(bot).__name__} chose {move!r}, not a legal move here")
    return move
