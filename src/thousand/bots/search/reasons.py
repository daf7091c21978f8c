"""The figures of the search bots' reasons in words, in both languages: a share as a
percentage, the count of sampled deals and points, each with its word agreed («из 271
пробного расклада», «около 21 очка»)."""

from __future__ import annotations

from thousand.words.grammar import count

from ..base import Reason


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _of(n: int) -> Reason:
    """ "of 271 sampled deals" / «из 271 пробного расклада», the count agreed."""
    return (f"of {count(n, ('sampled deal', 'sampled deals'), 'en')}",
            f"из {count(n, ('пробного расклада', 'пробных раскладов', 'пробных раскладов'))}")


def _points(x: float, lang: str, about: bool = False) -> str:
    """A number of points with its word agreed: «−22 очка», "−22 points"; ``about``: after
    «около», which takes the genitive («около 64 очков», «около 21 очка»)."""
    n = round(x)
    if lang != "ru":
        forms: tuple[str, ...] = ("point", "points")
    elif about:
        forms = ("очка", "очков", "очков")
    else:
        forms = ("очко", "очка", "очков")
    return count(n, forms, lang).replace("-", "−")
