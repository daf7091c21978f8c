"""Ratings: how strong a player (a person or a bot) is, from the places of finished games.

Why it is built like this (docs/ratings.md says it for players):

* **openskill's Plackett–Luce model.**  A game of Тысяча ends in a ranking of three (or
  four) players, not in a duel, and Plackett–Luce rates a ranking of any number of players
  directly, with ties; Elo would have to split a game into made-up duels.  The model's
  parameters are openskill's defaults (μ₀ = 25, σ₀ = 25/3, β = 25/6, τ = 25/300), so a
  game here moves ratings exactly as openskill's own ``PlackettLuce().rate`` does (the
  tests check it figure by figure).
* **A number people understand.**  A :class:`Rating` is a belief (μ, σ): its skill is μ,
  give or take σ.  The number shown is openskill's ordinal μ − 3σ, the skill we are
  99.7% sure the player has, scaled as ``1500 + 20 × (μ − 3σ)``: a new player (μ₀ = 3σ₀,
  ordinal 0) starts at exactly 1500, and one point of μ is 20 points, so the ordinals that
  real players reach (about −25 for one who always loses to +40 for one who always wins)
  span roughly 1000 to 2300, the range chess ratings taught people to read.  The number is
  conservative by design: it rises as the games make us surer of a player (σ falls), so a
  player who plays as well as the field climbs above 1500 over his first games, and a
  number nobody can inflate by playing once and stopping.
* **One rating per preset family.**  The presets are different games (``textbook`` is
  four players; ``house`` has the dark bid, bolts and samosval; ``casual`` scores what the
  declarer takes), and skill at one is not skill at another: pooling them would let a
  strong ``classic`` player farm points in a game he does not know, and would hide that.
  Five families (six with a player count a preset does not have) keep each number about
  one game, and a new player has few enough games per family that it costs little.
* **Rated only where the result means something** (:func:`rating_family`): a game whose
  rules are a preset's, as the preset's players know it.  An open-hands game and a training
  game (hints, take-backs: the caller knows) are not rated; neither is a game with any
  option changed from its preset, except the two that do not change how the game is played
  or won: ``settlement`` (what the losers owe after the game, RULES §7) and ``max_deals``
  when it stays a safeguard against an endless game (none, or at least 100 deals: a game
  to 1000 takes 20–40).  A custom ruleset may be a fine game; it is just not the game the
  family's ratings are about.

The module is pure (no I/O, no database), deterministic and fast: one update of a
three-player game takes about 0.06 ms, of four 0.08 ms
(``benchmarks/ratings.py``; the budget is 5 ms).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from thousand.engine.rules import OPTION_NAMES, PRESET_NAMES, PRESETS, Rules

__all__ = [
    "BETA",
    "DISPLAY_BASE",
    "DISPLAY_SCALE",
    "MIN_RATED_MAX_DEALS",
    "MU",
    "SIGMA",
    "TAU",
    "TOLERATED_OPTIONS",
    "Rating",
    "RatingChange",
    "RatingError",
    "places",
    "rate_game",
    "rate_scores",
    "rating_family",
    "unrated_options",
]

#: openskill's defaults, named: the prior skill and its uncertainty of a new player, the
#: spread of one game's performance, and the drift added before each game.
MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0

#: The display number: ``DISPLAY_BASE + DISPLAY_SCALE × (μ − 3σ)`` (a new player: 1500).
DISPLAY_BASE = 1500
DISPLAY_SCALE = 20
_Z = 3.0

#: Options that may differ from a preset in a rated game (see the module docstring).
TOLERATED_OPTIONS: tuple[str, ...] = ("settlement", "max_deals")
#: The lowest deal limit that still leaves a game rated (a limit below it decides games).
MIN_RATED_MAX_DEALS = 100

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


class RatingError(ValueError):
    """A rating or a game result that cannot be rated; the message says what is wrong."""


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating in one family: skill ``mu`` with uncertainty ``sigma``.

    A new player is ``Rating()``.  Stored as the two floats (:meth:`to_json`), shown as
    :attr:`display`."""

    mu: float = MU
    sigma: float = SIGMA

    def __post_init__(self) -> None:
        for name in ("mu", "sigma"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise RatingError(f"rating {name} must be a number, not {value!r}")
            if not math.isfinite(value):
                raise RatingError(f"rating {name} must be a finite number, not {value!r}")
            object.__setattr__(self, name, float(value))
        if not self.sigma > 0:
            raise RatingError(f"rating sigma must be more than 0, not {self.sigma!r}")

    @property
    def ordinal(self) -> float:
        """openskill's ordinal μ − 3σ: the skill the player has with 99.7% certainty."""
        return self.mu - _Z * self.sigma

    @property
    def display(self) -> int:
        """The number a player sees: ``1500 + 20 × ordinal``, rounded (1500 when new)."""
        return round(DISPLAY_BASE + DISPLAY_SCALE * self.ordinal)

    def to_json(self) -> dict[str, float]:
        return {"mu": self.mu, "sigma": self.sigma}

    @classmethod
    def from_json(cls, obj: object) -> Rating:
        """A rating from ``{"mu": …, "sigma": …}``; :class:`RatingError` for anything else."""
        if not isinstance(obj, Mapping) or set(obj) != {"mu", "sigma"}:
            raise RatingError(f'a rating is {{"mu": number, "sigma": number}}, not {obj!r}')
        return cls(obj["mu"], obj["sigma"])


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one game did to one player's rating."""

    before: Rating
    after: Rating

    @property
    def delta(self) -> int:
        """The change of the displayed number (what a player is shown: +37, −12)."""
        return self.after.display - self.before.display

    @property
    def mu_delta(self) -> float:
        return self.after.mu - self.before.mu


def places(scores: Sequence[int], winners: Sequence[int] | int | None = None) -> list[int]:
    """The final place of each seat (1 = first; equal results share a place, the next
    place is skipped: ``1, 1, 3``).

    ``winners`` are the seats the game declared winners (``Game.winner``): they come first
    whatever their scores, because the declarer who reaches 1000 wins even when another
    player went further in the same deal.  The others are placed by score.  A game cut
    short (a tournament's fixed number of deals) has no winners and is placed by score."""
    n = len(scores)
    if isinstance(winners, int):
        winners = [winners]
    won = set(winners or ())
    if any(not 0 <= w < n for w in won):
        raise RatingError(f"winners {sorted(won)} are not seats of a {n}-player game")
    key = [(0 if s in won else 1, -scores[s]) for s in range(n)]
    return [1 + sum(1 for t in range(n) if key[t] < key[s]) for s in range(n)]


def rate_game(ratings: Sequence[Rating], final_places: Sequence[int]) -> list[RatingChange]:
    """Each player's rating after a finished game of two, three or four players, from the
    ratings before it and the final places (1 = first; equal places are a tie).

    The update is openskill's Plackett–Luce ``rate`` with one player per team, so it
    equals openskill's own figures (two players: two teams, a duel)."""
    n = len(ratings)
    if n not in (2, 3, 4):
        raise RatingError(f"a rated game has 2, 3 or 4 players, not {n}")
    if len(final_places) != n:
        raise RatingError(f"{len(final_places)} places for {n} players: give one per player")
    for p in final_places:
        if isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= n:
            raise RatingError(f"a place is a whole number from 1 to {n}, not {p!r}")
    for r in ratings:
        if not isinstance(r, Rating):
            raise RatingError(f"{r!r} is not a Rating")
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    new = _MODEL.rate(teams, ranks=[float(p) for p in final_places])
    return [RatingChange(r, Rating(t[0].mu, t[0].sigma)) for r, t in zip(ratings, new,
                                                                          strict=True)]


def rate_scores(ratings: Sequence[Rating], scores: Sequence[int],
                winners: Sequence[int] | int | None = None) -> list[RatingChange]:
    """:func:`rate_game` for a game's final ``scores`` and ``winners`` (see :func:`places`)."""
    if len(scores) != len(ratings):
        raise RatingError(f"{len(scores)} scores for {len(ratings)} players: "
                          "give one per player")
    return rate_game(ratings, places(scores, winners))


# --------------------------------------------------------------------------- families


def rating_family(rules: Rules, *, open_hands: bool = False,
                  training: bool = False) -> str | None:
    """The rating family a game under ``rules`` counts for, or ``None`` when it is unrated.

    The family is the preset whose game the rules are (by their values, whatever preset
    they were spelled from): ``classic``, ``dealer-opens``, ``house``, ``textbook``,
    ``casual``; with a player count the preset does not have, its own family
    (``house-4p``, ``textbook-3p``).  Unrated: ``open_hands`` (every hand face up),
    ``training`` (hints or take-backs: the caller says), and rules that differ from every
    preset in an option other than :data:`TOLERATED_OPTIONS` (:func:`unrated_options`
    names them)."""
    if open_hands or training:
        return None
    return _family(rules)


def unrated_options(rules: Rules) -> tuple[str, ...]:
    """The options that keep a game under ``rules`` from being rated: those that differ
    from its own preset (``rules.preset``) and are not tolerated; empty when it is rated."""
    if _family(rules) is not None:
        return ()
    base = _base(rules.preset, rules) or Rules.preset_rules(rules.preset)
    return tuple(name for name in OPTION_NAMES if getattr(rules, name) != getattr(base, name))


def family_name(preset: str, players: int) -> str:
    """The family of ``preset`` played by ``players`` (``house``, ``house-4p``)."""
    own = PRESETS[preset].get("players", 3)
    return preset if players == own else f"{preset}-{players}p"


@functools.lru_cache(maxsize=256)
def _family(rules: Rules) -> str | None:
    # By the values alone (equal rules are one key of the cache, whatever preset they
    # name): the presets of this many players first, so that classic for two is ``two``
    # and ``two`` for three is ``classic``.
    order = sorted(PRESET_NAMES, key=lambda p: PRESETS[p].get("players", 3) != rules.players)
    for preset in order:
        if rules == _base(preset, rules):
            return family_name(preset, rules.players)
    return None


def _base(preset: str, rules: Rules) -> Rules | None:
    """Preset ``preset`` for ``rules``' player count with ``rules``' tolerated options
    (``max_deals`` only at a safe limit), or ``None`` when the preset cannot take them."""
    keep: dict[str, Any] = {"players": rules.players, "settlement": rules.settlement}
    if rules.max_deals is None or rules.max_deals >= MIN_RATED_MAX_DEALS:
        keep["max_deals"] = rules.max_deals
    try:
        return Rules.preset_rules(preset, **keep)
    except ValueError:  # a combination of RULES §7 the preset does not allow
        return None
