"""``strong`` and ``expert``: the search bots (docs/search-bots.md), their configs and what the
analysis reads of their search (:mod:`thousand.bots.valuation`, :mod:`thousand.analysis`)."""

from .bot import (
    EXPERT,
    STRONG,
    Samples,
    SearchBot,
    SearchConfig,
    expert,
    first_best,
    position,
    stakes,
    strong,
)
from .bot import _Budget as _Budget

__all__ = [
    "EXPERT",
    "STRONG",
    "Samples",
    "SearchBot",
    "SearchConfig",
    "expert",
    "first_best",
    "position",
    "stakes",
    "strong",
]
