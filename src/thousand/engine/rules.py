"""The rules model: every option of RULES §4 as one frozen :class:`Rules` value.

Why it looks like this:

* **One flat field per option, named exactly as in RULES §4.**  The engine asks
  "is this on?" in its inner loops, the game record stores options by name, and
  ``--set name=value`` on the command line uses the same name, so one name per option
  everywhere means no translation tables that can drift apart.
* **Frozen and hashable.**  A game is played under one ruleset from start to end; a
  frozen value cannot be changed half-way through by accident and can key caches
  (the solver's tables depend on the rules).
* **Validated on construction.**  Every way of making a ``Rules`` (code, JSON record,
  command line) ends in ``__post_init__``, so an engine that receives a ``Rules`` never
  has to re-check values or meet a contradictory combination (RULES §7).
* **The preset is recorded but is not part of equality.**  ``preset`` says which
  column of RULES §5 the user started from, which keeps stored records and
  displays short (:meth:`Rules.overrides`); two rulesets that play the same game are
  equal whatever preset they were spelled from.

Three spellings of a value exist, one per medium:

* Python (the engine's): the field types below; "none" is ``None``, marriage values
  are a tuple by suit ``S C D H`` (the suit order of :mod:`thousand.engine.cards`).
* JSON (records): ``null`` for none, marriage values as ``{"S": 40, ...}``, samosval as a
  list or ``null``.
* Command line: ``none``, ``true``/``yes``/``1``/``on``, ``S:40,C:60,D:80,H:100``,
  ``555,-555``.

Each option is declared once, as its field of :class:`Rules` (the shape of a declaration
is :mod:`thousand.engine.options`); :data:`OPTIONS` is the table made of them, which the
validation below, the rules pages' groups and the C paths' allow-lists read.

The module is pure: no printing, no I/O.  Explanations for people live in
:mod:`thousand.words.rules`.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from .options import IN_C, NOT_IN_C, InC, Option, Spec, declarations, option

__all__ = [
    "OPTIONS",
    "OPTION_NAMES",
    "PRESETS",
    "PRESET_NAMES",
    "UNSUPPORTED",
    "BarrelScore",
    "BoltMeans",
    "Bolts",
    "ConcedeLoss",
    "ConcedePayment",
    "DarkDoubles",
    "DeclarerScores",
    "Exchange",
    "FirstBidder",
    "OpeningBid",
    "Rules",
    "RulesError",
    "SittingDealerScores",
    "TalonShown",
    "TenStrength",
    "format_value",
]

# The words of the choice options (RULES §4): each alias is the one list of its values,
# for the type checker and for validation (the specs below read them with get_args).
SittingDealerScores = Literal["talon_marriage", "talon_value"]
FirstBidder = Literal["left_of_dealer", "dealer"]
OpeningBid = Literal["at_least_100", "exactly_100"]
TenStrength = Literal["high", "natural"]
Exchange = Literal["give_one_each", "discard_three"]
TalonShown = Literal["all", "not_at_100"]
DeclarerScores = Literal["contract", "taken"]
#: The words of ``concede_opponents_get`` (else a number of points).
ConcedePayment = Literal["half_contract", "aces"]
#: The word of ``concede_declarer_loses`` (else true or false).
ConcedeLoss = Literal["half"]
DarkDoubles = Literal["declarer", "all"]
Bolts = Literal["every_3rd", "three_in_a_row", "every_5th"]
BoltMeans = Literal["no_trick", "no_points"]
BarrelScore = Literal["capped", "kept"]

#: Suit letters in the order of ``Rules.marriage_values`` (and of :mod:`thousand.engine.cards`).
_SUITS = "SCDH"
_SUIT_ALIASES = {"S": 0, "C": 1, "D": 2, "H": 3, "♠": 0, "♣": 1, "♦": 2, "♥": 3}

_INT_TEXT = re.compile(r"[+-]?[0-9]{1,12}", re.ASCII)
_TRUE_WORDS = frozenset({"true", "yes", "y", "1", "on"})
_FALSE_WORDS = frozenset({"false", "no", "n", "0", "off"})
_NONE_WORDS = frozenset({"none", "null", "no_value"})


class RulesError(ValueError):
    """A ruleset that cannot be played: an unknown name, a bad value or a contradiction.

    The message is meant for a person at the command line: it names the option (or the
    preset) and says what is allowed, so no traceback is needed to fix it.
    """


# --------------------------------------------------------------------------- specs


_BOOL = Spec("bool")

#: Bounds of the numeric options (issue: an unbounded value once validated and then
#: exhausted memory or overflowed the move encoding).  Points of one deal (a bid cap,
#: a bonus, a penalty) stay below MAX_POINTS, so a bid always fits the move encoding
#: and the solver's score type; scores (win, barrel, samosval) below MAX_SCORE.
MAX_POINTS = 1000
MAX_SCORE = 100_000
MAX_COUNT = 100
MAX_DEALS = 100_000
MAX_MARRIAGE = 500

#: The values most numeric options share: points of a deal, a score, a count (or none).
_POINTS = Spec("int", minimum=0, maximum=MAX_POINTS)
_SCORE = Spec("int", minimum=-MAX_SCORE, maximum=MAX_SCORE)
_COUNT = Spec("int", optional=True, minimum=1, maximum=MAX_COUNT)


def _choice(alias: Any, optional: bool = False) -> Spec:
    """A choice option's values: the words of its ``Literal`` alias (and none)."""
    return Spec("choice", choices=get_args(alias), optional=optional)


#: The values of the two collection options, worded for error messages.
_MARRIAGES = Spec(
    "marriages",
    allowed_text=(
        "a value for each of the four suits S, C, D, H, each a multiple of 5, "
        f"from 0 to {MAX_MARRIAGE}: S:40,C:60,D:80,H:100 "
        '(in JSON {"S": 40, "C": 60, "D": 80, "H": 100})'
    ),
)
_SAMOSVAL = Spec(
    "ints",
    optional=True,
    allowed_text=(
        f"a list of up to {MAX_COUNT} different non-zero whole numbers from "
        f"-{MAX_SCORE} to {MAX_SCORE}, e.g. 555,-555"
    ),
)



# --------------------------------------------------------------------------- presets

#: Each preset of RULES §5 as its differences from ``classic`` (Python values).
PRESETS: dict[str, dict[str, Any]] = {
    # seed 000: the bold values of RULES §4.
    "classic": {},
    # seed 002: the dealer opens; cut for nines; concede at 60 each; pay the winner.
    "dealer-opens": {
        "first_bidder": "dealer",
        "opening_bid": "exactly_100",
        "cut_nines": True,
        "concede": True,
        "max_deals": None,
        "settlement": True,
    },
    # seed 003: the opener sits on 100, one-step raises, golden deals, concede (every 3rd
    # costs a penalty, not on the barrel or in golden deals), dark, redeals, bolts,
    # samosval, knock-off barrel.
    "house": {
        "opening_bid": "exactly_100",
        "bid_jumps": False,
        "golden_deals": True,
        "concede": True,
        "concede_penalty_every": 3,
        "concede_on_barrel": False,
        "concede_in_golden": False,
        "dark": True,
        "redeal_four_nines": True,
        "redeal_weak_talon": True,
        "redeal_penalty_after": 3,
        "bolts": "every_3rd",
        "samosval": (555, -555),
        "barrel_knock_off": True,
        "barrel_falls_reset": 3,
        "max_deals": None,
    },
    # seed 004: four players, the dealer scores the talon, the opener sits on 100,
    # one-step raises of ten, the ten in its natural place, discard three, barrel at 900
    # with the score kept.
    "textbook": {
        "players": 4,
        "sitting_dealer_scores": "talon_value",
        "opening_bid": "exactly_100",
        "bid_step": 10,
        "bid_jumps": False,
        "ten_strength": "natural",
        "exchange": "discard_three",
        "concede": True,
        "concede_declarer_loses": False,
        "rounding": 10,
        "barrel": 900,
        "barrel_score": "kept",
        "barrel_deals": None,
        "dark": True,
        "dark_talon_shown": False,
        "max_deals": None,
    },
    # seed 001: steps of ten, must overtake, score what you take, no rounding.
    "casual": {
        "bid_step": 10,
        "must_overtake": True,
        "declarer_scores": "taken",
        "rounding": 1,
        "barrel": 850,
        "barrel_deals": None,
        "max_deals": None,
    },
    # seed 004 "можно, разумеется, и вдвоём": classic for two, with two talons (RULES §4
    # "Two players").
    "two": {"players": 2},
}

#: Preset names in the order of RULES §5.
PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)

# A preset's value that depends on another option's final value: (option, value) ->
# defaults applied when the option has that value, unless the user set them himself.
# RULES §5: house "with players=4, sitting_dealer_scores=talon_marriage" (seed 003:
# "вчетвером сдающий не играет, а если в прикупе марьяж — получает его очки").
_CONDITIONAL: dict[str, tuple[tuple[str, Any], dict[str, Any]]] = {
    "house": (("players", 4), {"sitting_dealer_scores": "talon_marriage"}),
}

#: Agreements the seeds mention but do not define well enough to implement (RULES §4,
#: last paragraph).  ``thousand rules`` lists them so that nobody assumes they are on.
UNSUPPORTED: dict[str, str] = {}

#: The options that need a third player, refused with ``players=2`` (RULES §4 "Two
#: players", point 7): each with the value that turns it off.
NEEDS_THREE: dict[str, object] = {
    "talon_buy": False,
    "exchange": "give_one_each",
    "sitting_dealer_scores": None,
    "redeal_weak_talon": False,
    "redeal_weak_talon_only_at_100": False,
    "barrel_simultaneous_fall": False,
}


# --------------------------------------------------------------------------- Rules


@dataclass(frozen=True, slots=True)
class Rules:
    """A complete ruleset: one field per option of RULES §4, defaults = ``classic``.

    Build one with :meth:`preset_rules`, :meth:`from_json` or :meth:`from_cli` rather
    than the constructor: those apply the preset's values (the constructor starts
    from ``classic`` whatever ``preset`` says, ``preset`` being only a label).
    Change one with :func:`dataclasses.replace`, which validates again.

    Each field is its option's one declaration (:func:`thousand.engine.options.option`):
    ``option(default, values, group, reach, C field or NOT_IN_C)``; :data:`OPTIONS` reads
    them.  The words for people are keyed by the field's name in the words module.
    """

    players: int = option(3, Spec("int", choices=(2, 3, 4)), "players", "deal", NOT_IN_C)
    sitting_dealer_scores: SittingDealerScores | None = option(
        None, _choice(SittingDealerScores, optional=True), "players", "deal", NOT_IN_C
    )
    first_bidder: FirstBidder = option(
        "left_of_dealer", _choice(FirstBidder), "players", "deal", InC("dealer_opens")
    )
    opening_bid: OpeningBid = option(
        "at_least_100", _choice(OpeningBid), "auction", "deal", InC("exactly_100")
    )
    bid_step: int = option(
        5,
        Spec("int", minimum=5, maximum=50, multiple=5, allowed_text="a multiple of 5 from 5 to 50"),
        "auction", "deal", IN_C,
    )
    bid_jumps: bool = option(True, _BOOL, "auction", "deal", IN_C)
    ten_strength: TenStrength = option(
        "high", _choice(TenStrength), "play", "play", InC("ten_natural", fast_path=False)
    )
    bid_cap: int = option(
        120, Spec("int", minimum=100, maximum=MAX_POINTS), "auction", "deal", IN_C
    )
    min_score_to_bid: int | None = option(
        None, Spec("int", optional=True, minimum=-MAX_SCORE, maximum=MAX_SCORE),
        "auction", "deal", NOT_IN_C,
    )
    exchange: Exchange = option("give_one_each", _choice(Exchange), "talon", "deal", NOT_IN_C)
    talon_shown: TalonShown = option("all", _choice(TalonShown), "talon", "deal", NOT_IN_C)
    must_overtake: bool = option(False, _BOOL, "play", "play", IN_C)
    marriage_values: tuple[int, int, int, int] = option(
        (40, 60, 80, 100), _MARRIAGES, "marriages", "play", IN_C
    )
    marriage_on_first_lead: bool = option(False, _BOOL, "marriages", "play", IN_C)
    marriage_points_declarer_only: bool = option(False, _BOOL, "marriages", "play", IN_C)
    half_marriage: bool = option(False, _BOOL, "marriages", "play", IN_C)
    ace_marriage: int = option(0, _POINTS, "marriages", "play", IN_C)
    ace_marriage_trump: bool = option(False, _BOOL, "marriages", "play", IN_C)
    ace_marriage_all_in_row: bool = option(False, _BOOL, "marriages", "play", IN_C)
    four_nines_bonus: int = option(0, _POINTS, "marriages", "play", IN_C)
    no_lead_own_trump: bool = option(False, _BOOL, "play", "play", IN_C)
    rounding: int = option(5, Spec("int", choices=(1, 5, 10)), "scoring", "deal", IN_C)
    round_declarer_before_compare: bool = option(False, _BOOL, "scoring", "deal", IN_C)
    declarer_scores: DeclarerScores = option(
        "contract", _choice(DeclarerScores), "scoring", "deal", InC("declarer_scores_taken")
    )
    concede: bool = option(False, _BOOL, "conceding", "deal", NOT_IN_C)
    concede_opponents_get: int | ConcedePayment = option(
        60,
        Spec("int_or_word", minimum=0, maximum=MAX_POINTS, words=get_args(ConcedePayment)),
        "conceding", "deal", NOT_IN_C,
    )
    concede_declarer_loses: bool | ConcedeLoss = option(
        True, Spec("bool_or_word", words=get_args(ConcedeLoss)), "conceding", "deal", NOT_IN_C
    )
    concede_limit: int | None = option(None, _COUNT, "conceding", "deal", NOT_IN_C)
    concede_penalty_every: int | None = option(None, _COUNT, "conceding", "game", NOT_IN_C)
    concede_on_barrel: bool = option(True, _BOOL, "conceding", "deal", NOT_IN_C)
    concede_in_golden: bool = option(True, _BOOL, "conceding", "deal", NOT_IN_C)
    dark: bool = option(False, _BOOL, "dark", "deal", NOT_IN_C)
    dark_doubles: DarkDoubles = option("declarer", _choice(DarkDoubles), "dark", "deal", NOT_IN_C)
    dark_min_score: int = option(0, _SCORE, "dark", "deal", NOT_IN_C)
    dark_outbid_needs_marriage: bool = option(True, _BOOL, "dark", "deal", NOT_IN_C)
    dark_marriages_doubled: bool = option(True, _BOOL, "dark", "deal", NOT_IN_C)
    dark_talon_shown: bool = option(True, _BOOL, "dark", "deal", NOT_IN_C)
    redeal_four_nines: bool = option(False, _BOOL, "redeals", "deal", NOT_IN_C)
    redeal_weak_hand: int | None = option(
        None, Spec("int", optional=True, minimum=1, maximum=120), "redeals", "deal", NOT_IN_C
    )
    redeal_weak_talon: bool = option(False, _BOOL, "redeals", "deal", NOT_IN_C)
    redeal_weak_talon_only_at_100: bool = option(False, _BOOL, "redeals", "deal", NOT_IN_C)
    redeal_after_exchange: bool = option(False, _BOOL, "redeals", "deal", NOT_IN_C)
    redeal_penalty_after: int | None = option(None, _COUNT, "redeals", "game", NOT_IN_C)
    cut_nines: bool = option(False, _BOOL, "players", "deal", NOT_IN_C)
    bolts: Bolts | None = option(None, _choice(Bolts, optional=True), "bolts", "game", NOT_IN_C)
    bolt_means: BoltMeans = option("no_trick", _choice(BoltMeans), "bolts", "game", NOT_IN_C)
    bolt_samosval: bool = option(False, _BOOL, "bolts", "game", NOT_IN_C)
    samosval: tuple[int, ...] = option((), _SAMOSVAL, "bolts", "game", NOT_IN_C)
    penalty: int = option(120, _POINTS, "bolts", "game", NOT_IN_C)
    barrel: int | None = option(
        880, Spec("int", optional=True, minimum=1, maximum=MAX_SCORE), "barrel", "game", NOT_IN_C
    )
    barrel_score: BarrelScore = option("capped", _choice(BarrelScore), "barrel", "game", NOT_IN_C)
    barrel_deals: int | None = option(3, _COUNT, "barrel", "game", NOT_IN_C)
    barrel_knock_off: bool = option(False, _BOOL, "barrel", "game", NOT_IN_C)
    barrel_simultaneous_fall: bool = option(False, _BOOL, "barrel", "game", NOT_IN_C)
    barrel_falls_reset: int | None = option(None, _COUNT, "barrel", "game", NOT_IN_C)
    barrel_reset_score: int = option(0, _SCORE, "barrel", "game", NOT_IN_C)
    no_barrel_after_reset: bool = option(False, _BOOL, "barrel", "game", NOT_IN_C)
    barrel_bolts: bool = option(False, _BOOL, "barrel", "game", NOT_IN_C)
    golden_deals: bool = option(False, _BOOL, "golden", "deal", NOT_IN_C)
    golden_restart: bool = option(False, _BOOL, "golden", "game", NOT_IN_C)
    win_score: int = option(
        1000, Spec("int", minimum=1, maximum=MAX_SCORE), "end", "game", NOT_IN_C
    )
    win_strict: bool = option(False, _BOOL, "end", "game", NOT_IN_C)
    max_deals: int | None = option(
        200, Spec("int", optional=True, minimum=1, maximum=MAX_DEALS), "end", "game", NOT_IN_C
    )
    settlement: bool = option(False, _BOOL, "end", "game", NOT_IN_C)
    talon_buy: bool = option(False, _BOOL, "auction", "deal", NOT_IN_C)
    #: The preset this ruleset was started from (RULES §5); a label, not an option.
    preset: str = field(default="classic", compare=False)

    def __post_init__(self) -> None:
        # Accept the natural Python spellings of the two collection options (a list,
        # a suit map) but store tuples, so that the value stays hashable and equal
        # rulesets compare equal.
        mv: Any = self.marriage_values
        if isinstance(mv, Mapping):
            object.__setattr__(self, "marriage_values", _marriages_from_map(mv, mv))
        elif isinstance(mv, list):
            object.__setattr__(self, "marriage_values", tuple(mv))
        sv: Any = self.samosval
        if sv is None:
            object.__setattr__(self, "samosval", ())
        elif isinstance(sv, list | tuple) and all(_is_int(v) for v in sv):
            # Order does not matter to the rule; keep one canonical order (high first,
            # as RULES writes [555, -555]) so that equal rules compare equal.
            object.__setattr__(self, "samosval", tuple(sorted(sv, reverse=True)))
        self.validate()

    # ------------------------------------------------------------------ checks

    def validate(self) -> None:
        """Raise :class:`RulesError` for a bad value or a contradictory combination.

        Each option is checked on its own first, then the combinations of RULES §7.
        An option whose parent option is off is *not* an error (``concede_limit=3``
        with ``concede=false`` is fine): a user may switch off an option that a
        preset turns on without having to reset all its details.
        """
        if self.preset not in PRESETS:
            raise _unknown_preset(self.preset)
        for name, spec in _SPECS.items():
            problem = _check_value(name, spec, getattr(self, name))
            if problem:
                raise RulesError(problem)
        self._check_combinations()

    def _check_combinations(self) -> None:
        if self.players == 2:
            on = [name for name, off in NEEDS_THREE.items() if getattr(self, name) != off]
            if on:
                given = ", ".join(f"{n}={format_value(n, getattr(self, n))}" for n in on)
                turn_off = " ".join(
                    f"--set {n}={format_value(n, NEEDS_THREE[n])}" for n in on
                )
                raise RulesError(
                    f"players: 2 cannot be used with {given}: "
                    f"{'it needs' if len(on) == 1 else 'they need'} a third player; "
                    f"turn {'it' if len(on) == 1 else 'them'} off too: {turn_off}"
                )
        if self.first_bidder == "dealer" and self.players == 4:
            raise RulesError(
                "first_bidder: dealer cannot be used with players=4, where the dealer sits "
                "out the deal; use first_bidder=left_of_dealer or players=3"
            )
        if self.sitting_dealer_scores is not None and self.players == 3:
            raise RulesError(
                f"sitting_dealer_scores: {self.sitting_dealer_scores} needs players=4 "
                "(with 3 players nobody sits out); use sitting_dealer_scores=none or players=4"
            )
        # The blind bid and the golden deals' contract are exactly 120 (RULES §4); a
        # lower cap would forbid the very bid the option makes.
        for name in ("dark", "golden_deals"):
            if getattr(self, name) and self.bid_cap < 120:
                raise RulesError(
                    f"{name}: true needs bid_cap of at least 120 (it plays a contract of 120), "
                    f"but bid_cap is {self.bid_cap}; raise bid_cap or set {name}=false"
                )
        if self.barrel is not None and self.barrel >= self.win_score:
            raise RulesError(
                f"barrel: {self.barrel} is not allowed; use a score below win_score "
                f"({self.win_score}), or none"
            )
        top = self.barrel if self.barrel is not None else self.win_score
        if self.barrel_reset_score >= top:
            what = "barrel" if self.barrel is not None else "win_score"
            raise RulesError(
                f"barrel_reset_score: {self.barrel_reset_score} is not allowed; use a score "
                f"below {what} ({top})"
            )
        for value in self.samosval:
            if value >= self.win_score:
                raise RulesError(
                    f"samosval: {value} is not allowed; use scores below win_score "
                    f"({self.win_score}): a player there has already won"
                )
        # Half a marriage (постельный, and the sitting dealer's K or Q in the talon) must
        # be a whole number of points.
        halves = []
        if self.half_marriage:
            halves.append("half_marriage=true")
        if self.sitting_dealer_scores == "talon_value":
            halves.append("sitting_dealer_scores=talon_value")
        if halves:
            odd = [f"{s}:{v}" for s, v in zip(_SUITS, self.marriage_values, strict=True) if v % 2]
            if odd:
                raise RulesError(
                    f"marriage_values: {','.join(odd)} cannot be halved; with "
                    f"{' and '.join(halves)} use multiples of 10"
                )

    # ------------------------------------------------------------------ the end

    @property
    def score_to_win(self) -> int:
        """The lowest score that wins the game: ``win_score``, one more with ``win_strict``
        (the score must pass it, RULES §4)."""
        return self.win_score + 1 if self.win_strict else self.win_score

    def wins(self, score: int) -> bool:
        """Whether a player with ``score`` has won (reached ``win_score``, or passed it with
        ``win_strict``).  The one home of the rule: the game and the bots ask it."""
        return score >= self.score_to_win

    # ------------------------------------------------------------------ building

    @classmethod
    def preset_rules(cls, name: str, **overrides: Any) -> Rules:
        """The preset ``name`` of RULES §5 with ``overrides`` (Python values) on top."""
        if name not in PRESETS:
            raise _unknown_preset(name)
        for key in overrides:
            if key not in _SPECS:
                raise _unknown_option(key)
        players = overrides.get("players", PRESETS[name].get("players", 3))
        values = _preset_values(name, players)
        values.update(overrides)
        return cls(preset=name, **values)

    @classmethod
    def from_json(cls, obj: object) -> Rules:
        """Read the ``rules`` of a game record (RULES §6).

        ``obj`` is a preset name, or an object ``{"preset": name, option: value, ...}``
        (``preset`` defaults to ``classic``) with JSON values: ``null`` for none,
        ``marriage_values`` as a suit map, ``samosval`` as a list.
        """
        if isinstance(obj, str):
            return cls.preset_rules(obj)
        if not isinstance(obj, Mapping):
            raise RulesError(
                f"rules: {_show(obj)} is not allowed; use a preset name or an object "
                '{"preset": name, option: value, ...}'
            )
        preset = obj.get("preset", "classic")
        if not isinstance(preset, str):
            raise _unknown_preset(preset)
        overrides: dict[str, Any] = {}
        for key, value in obj.items():
            if key == "preset":
                continue
            if not isinstance(key, str) or key not in _SPECS:
                raise _unknown_option(key)
            overrides[key] = _from_json_value(key, value)
        return cls.preset_rules(preset, **overrides)

    @classmethod
    def from_cli(cls, preset: str, sets: Sequence[str]) -> Rules:
        """``thousand ... PRESET --set name=value ...``: values as typed on the command line.

        Option names may be written with ``-`` for ``_``; a later ``--set`` of the same
        option wins.  Values: ``none``; ``true``/``yes``/``1``/``on`` and
        ``false``/``no``/``0``/``off``; whole numbers (``−`` accepted for minus);
        ``S:100,C:80,H:60,D:40`` or a JSON object for marriage_values; ``555,-555`` or a
        JSON list for samosval.
        """
        overrides: dict[str, Any] = {}
        for item in sets:
            name, sep, text = item.partition("=")
            name = name.strip().replace("-", "_")
            if not sep:
                if name in _SPECS:
                    raise RulesError(
                        f"{name}: no value given; write {name}=VALUE with VALUE "
                        f"{_SPECS[name].allowed()}"
                    )
                raise RulesError(f"--set {item!r}: write it as name=value, e.g. bid_step=10")
            if name not in _SPECS:
                raise _unknown_option(name)
            overrides[name] = _from_cli_text(name, text.strip())
        return cls.preset_rules(preset, **overrides)

    # ------------------------------------------------------------------ writing

    def to_json(self) -> dict[str, Any]:
        """The whole resolved ruleset as JSON: ``{"preset": ..., every option: value}``.

        A game record stores this, so the game replays the same even if a preset's
        definition changes later.
        """
        out: dict[str, Any] = {"preset": self.preset}
        for name in OPTION_NAMES:
            out[name] = _to_json_value(name, getattr(self, name))
        return out

    def overrides(self) -> dict[str, Any]:
        """The options (JSON values) that differ from the preset the rules started from.

        ``Rules.from_json({"preset": r.preset, **r.overrides()}) == r`` always holds,
        so this is the compact form for display and for short records.
        """
        base = _preset_values(self.preset, self.players)
        return {
            name: _to_json_value(name, getattr(self, name))
            for name in OPTION_NAMES
            if getattr(self, name) != base[name]
        }

    def value_text(self, option: str) -> str:
        """An option's value as the command line writes it (see :func:`format_value`)."""
        if option not in _SPECS:
            raise _unknown_option(option)
        return format_value(option, getattr(self, option))


#: Every option's declaration (:mod:`thousand.engine.options`), read off the fields of
#: :class:`Rules`, in the order of RULES §4.
OPTIONS: dict[str, Option] = declarations(Rules)
#: Every option, in the order of RULES §4.
OPTION_NAMES: tuple[str, ...] = tuple(OPTIONS)
_SPECS: dict[str, Spec] = {name: o.spec for name, o in OPTIONS.items()}


# --------------------------------------------------------------------------- helpers


def _defaults() -> dict[str, Any]:
    return {name: o.default for name, o in OPTIONS.items()}


def _preset_values(name: str, players: object) -> dict[str, Any]:
    """Every option's value in preset ``name`` when the final player count is ``players``."""
    values = _defaults()
    values.update(PRESETS[name])
    if name in _CONDITIONAL:
        (key, wanted), extra = _CONDITIONAL[name]
        if (players if key == "players" else values[key]) == wanted:
            values.update(extra)
    return values


def _unknown_option(name: object) -> RulesError:
    text = str(name)
    if text == "preset":
        return RulesError("'preset' is not an option; give the preset name itself")
    close = difflib.get_close_matches(text, OPTION_NAMES, n=1, cutoff=0.6)
    if close:
        return RulesError(f"unknown option {text!r} (did you mean {close[0]!r}?)")
    return RulesError(f"unknown option {text!r}; `thousand rules` lists the options")


def _unknown_preset(name: object) -> RulesError:
    shown = repr(name) if isinstance(name, str) else _show(name)
    return RulesError(f"unknown preset {shown}; presets: {', '.join(PRESET_NAMES)}")


def _is_int(value: object) -> bool:
    # bool is an int subclass; ``True`` is never a number of points.
    return isinstance(value, int) and not isinstance(value, bool)


def _show(value: object) -> str:
    """A wrong value as a person would recognise it in a message."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, Mapping | list | tuple):
        try:
            return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        except (TypeError, ValueError):
            return repr(value)
    return repr(value)


def _bad(name: str, value: object, spec: Spec, none_word: str = "none") -> str:
    return f"{name}: {_show(value)} is not allowed; use {spec.allowed(none_word)}"


def _check_value(name: str, spec: Spec, value: object) -> str | None:
    """The error message for one option's value on its own, or None if it is fine."""
    if value is None:
        return None if spec.optional else _bad(name, value, spec)
    if spec.kind == "bool":
        return None if isinstance(value, bool) else _bad(name, value, spec)
    if spec.kind == "bool_or_word":
        ok = isinstance(value, bool) or (isinstance(value, str) and value in spec.words)
        return None if ok else _bad(name, value, spec)
    if spec.kind == "choice":
        return None if value in spec.choices and isinstance(value, str) else _bad(name, value, spec)
    if spec.kind == "marriages":
        ok = (
            isinstance(value, tuple)
            and len(value) == 4
            and all(_is_int(v) and 0 <= v <= MAX_MARRIAGE and v % 5 == 0 for v in value)
        )
        if ok:
            return None
        if isinstance(value, tuple) and len(value) == 4:
            value = _show(dict(zip(_SUITS, value, strict=True)))
            return f"{name}: {value} is not allowed; use {spec.allowed()}"
        return _bad(name, value, spec)
    if spec.kind == "ints":
        if not (
            isinstance(value, tuple)
            and len(value) <= MAX_COUNT
            and all(_is_int(v) and v != 0 and abs(v) <= MAX_SCORE for v in value)
        ):
            return _bad(name, value, spec)
        if len(set(value)) != len(value):
            return f"{name}: {_show(value)} is not allowed; use {spec.allowed()} (no repeats)"
        return None
    if spec.kind == "int_or_word" and isinstance(value, str):
        return None if value in spec.words else _bad(name, value, spec)
    # int or int_or_word with a number
    if not _is_int(value):
        return _bad(name, value, spec)
    assert isinstance(value, int)
    if spec.choices and value not in spec.choices:
        return _bad(name, value, spec)
    if spec.minimum is not None and value < spec.minimum:
        return _bad(name, value, spec)
    if spec.maximum is not None and value > spec.maximum:
        return _bad(name, value, spec)
    if value % spec.multiple:
        return _bad(name, value, spec)
    return None


def _marriages_from_map(obj: Mapping[Any, Any], shown: object) -> tuple[int, int, int, int]:
    """Read ``{"S": 40, "C": 60, "D": 80, "H": 100}`` (suit letters or symbols)."""
    spec = _SPECS["marriage_values"]
    values: list[int | None] = [None, None, None, None]
    for key, value in obj.items():
        suit = _SUIT_ALIASES.get(str(key).strip().upper())
        if suit is None or values[suit] is not None or not _is_int(value):
            raise RulesError(_bad("marriage_values", shown, spec))
        values[suit] = value
    if any(v is None for v in values):
        missing = ", ".join(s for s, v in zip(_SUITS, values, strict=True) if v is None)
        raise RulesError(
            f"marriage_values: {_show(shown)} is not allowed; suit {missing} missing; "
            f"use {spec.allowed()}"
        )
    a, b, c, d = (int(v) for v in values if v is not None)
    return (a, b, c, d)


def _from_json_value(name: str, value: object) -> Any:
    """Turn a JSON value of option ``name`` into its Python value (types only checked)."""
    spec = _SPECS[name]
    if spec.kind == "marriages":
        if not isinstance(value, Mapping):
            raise RulesError(_bad(name, value, spec))
        return _marriages_from_map(value, value)
    if spec.kind == "ints":
        if value is None:
            return ()
        if not isinstance(value, list) or not all(_is_int(v) for v in value):
            raise RulesError(_bad(name, value, spec, "null"))
        return tuple(value)
    if value is None:
        if not spec.optional:
            raise RulesError(_bad(name, value, spec))
        return None
    problem = _check_value(name, spec, value)
    if problem:
        raise RulesError(_bad(name, value, spec, "null"))
    return value


def _parse_int(text: str) -> int | None:
    """A whole number in ASCII digits (at most 12 of them), or None.

    ``int()`` alone would take other scripts' digits ("²", "٣") and spend quadratic time
    on a line of thousands of digits.
    """
    text = text.replace("−", "-").replace("_", "").strip()
    if not _INT_TEXT.fullmatch(text):
        return None
    return int(text)


def _from_cli_text(name: str, text: str) -> Any:
    """Turn command-line text for option ``name`` into its Python value."""
    spec = _SPECS[name]
    low = text.lower()
    if spec.kind == "marriages":
        if text.startswith("{"):
            try:
                obj = json.loads(text)
            except json.JSONDecodeError:
                raise RulesError(_bad(name, text, spec)) from None
            if not isinstance(obj, dict):
                raise RulesError(_bad(name, text, spec))
            return _marriages_from_map(obj, text)
        pairs: dict[str, Any] = {}
        for part in text.split(","):
            suit, sep, digits = part.replace("=", ":").partition(":")
            parsed = _parse_int(digits)
            if not sep or parsed is None or suit.strip().upper() in pairs:
                raise RulesError(_bad(name, text, spec))
            pairs[suit.strip().upper()] = parsed
        return _marriages_from_map(pairs, text)
    if spec.kind == "ints":
        if low in _NONE_WORDS:
            return ()
        body = text[1:-1] if text.startswith("[") and text.endswith("]") else text
        numbers = [_parse_int(part) for part in body.split(",")]
        if any(n is None for n in numbers):
            raise RulesError(_bad(name, text, spec))
        return tuple(n for n in numbers if n is not None)
    if spec.optional and low in _NONE_WORDS:
        return None
    if spec.kind in ("bool", "bool_or_word"):
        if low in _TRUE_WORDS:
            return True
        if low in _FALSE_WORDS:
            return False
        if low in spec.words:
            return low
        raise RulesError(_bad(name, text, spec))
    if spec.kind == "choice":
        if low in spec.choices:
            return low
        raise RulesError(_bad(name, text, spec))
    if spec.kind == "int_or_word" and low in spec.words:
        return low
    number = _parse_int(text)
    if number is None:
        raise RulesError(_bad(name, text, spec))
    return number


def _to_json_value(name: str, value: Any) -> Any:
    kind = _SPECS[name].kind
    if kind == "marriages":
        return dict(zip(_SUITS, value, strict=True))
    if kind == "ints":
        return list(value) if value else None
    return value


def format_value(option: str, value: Any) -> str:
    """``value`` of ``option`` written as the command line accepts it back.

    ``none``, ``true``/``false``, ``S:40,C:60,D:80,H:100``, ``555,-555``; so
    ``Rules.from_cli(p, [f"{k}={format_value(k, v)}"])`` reads the same value.
    """
    if option not in _SPECS:
        raise _unknown_option(option)
    kind = _SPECS[option].kind
    if value is None or (kind == "ints" and not value):
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if kind == "marriages":
        return ",".join(f"{s}:{v}" for s, v in zip(_SUITS, value, strict=True))
    if kind == "ints":
        return ",".join(str(v) for v in value)
    return str(value)


assert {f.name for f in dataclasses.fields(Rules)} == {*OPTION_NAMES, "preset"}, (
    "every field of Rules but preset is an option made by options.option()"
)
