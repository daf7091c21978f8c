"""Bots: players that see only their seat's view and return a move.

>>> from thousand.bots import make_bot
>>> bot = make_bot("heuristic", seed=1)
>>> move = bot.choose(game.view(game.to_move))          # doctest: +SKIP

Levels (docs/bots.md): ``random`` (any legal move), ``beginner`` (the heuristic bot with
bolder bids and a random card one time in four), ``heuristic`` (a club player's rules of
thumb).  Other modules add levels with :func:`register_bot`; ``strong`` and ``expert`` are
expected to.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, BotError, ExplainingBot, checked_choice, decide_with_reason
from .heuristic import HeuristicBot
from .random_bot import RandomBot

BotFactory = Callable[[int | None], Bot]

_REGISTRY: dict[str, BotFactory] = {}
_DESCRIPTIONS: dict[str, tuple[str, str]] = {}


def register_bot(
    level: str, factory: BotFactory, description: tuple[str, str] | str = ""
) -> None:
    """Add a bot level: ``factory(seed)`` makes one bot.  ``description`` is
    ``(English, Russian)`` or one English text.  Registering a level again replaces it."""
    if not level or not level.replace("-", "").replace("_", "").isalnum():
        raise ValueError(f"{level!r} is not a bot level name")
    _REGISTRY[level] = factory
    if isinstance(description, str):
        description = (description, description)
    _DESCRIPTIONS[level] = description


def make_bot(level: str, seed: int | None = None) -> Bot:
    """A new bot of ``level`` (one of :data:`BOT_LEVELS`), seeded for reproducible games."""
    _load_plugins()
    try:
        factory = _REGISTRY[level]
    except KeyError:
        raise ValueError(
            f"unknown bot level {level!r}; choose one of: {', '.join(bot_levels())}"
        ) from None
    return factory(seed)


def bot_levels() -> tuple[str, ...]:
    """Every registered level, weakest first as registered."""
    _load_plugins()
    return tuple(_REGISTRY)


def describe_level(level: str, lang: str = "en") -> str:
    en, ru = _DESCRIPTIONS.get(level, ("", ""))
    return ru if lang == "ru" else en


def best_level() -> str:
    """The strongest registered level (the one ``hint`` asks)."""
    levels = bot_levels()
    for name in ("expert", "strong", "heuristic"):
        if name in levels:
            return name
    return levels[-1]


_PLUGINS = ("thousand.bots.search", "thousand.bots.strong", "thousand.bots.expert")
_plugins_loaded = False


def _load_plugins() -> None:
    """Import the modules that register the search bots, where they exist."""
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    import importlib

    for name in _PLUGINS:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:
                raise


register_bot("random", lambda seed: RandomBot(seed), ("any legal move", "любой возможный ход"))
register_bot(
    "beginner",
    lambda seed: HeuristicBot(seed, mistakes=0.25, bid_confidence=0.4),
    ("the heuristic bot, bidding boldly and playing a random card one time in four",
     "эвристика, но смелее торгуется и каждую четвёртую карту кладёт наугад"),
)
register_bot(
    "heuristic",
    lambda seed: HeuristicBot(seed),
    ("a club player's rules of thumb", "правила хорошего клубного игрока"),
)

#: The levels registered when this module was imported (see :func:`bot_levels` for later ones).
BOT_LEVELS: tuple[str, ...] = tuple(_REGISTRY)

__all__ = [
    "BOT_LEVELS",
    "Bot",
    "BotError",
    "BotFactory",
    "ExplainingBot",
    "HeuristicBot",
    "RandomBot",
    "best_level",
    "bot_levels",
    "checked_choice",
    "decide_with_reason",
    "describe_level",
    "make_bot",
    "register_bot",
]
