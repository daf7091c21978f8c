"""The search bots' budget and judgement: :class:`SearchConfig`, and the two levels made of
it, :data:`STRONG` and :data:`EXPERT`.

A module of its own: its figures are measured and tuned one field at a time
(docs/search-bots.md), and a tuning edit touches nothing else."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from importlib import resources


@dataclass(frozen=True)
class SearchConfig:
    """The budget and the judgement of a search bot (``strong`` and ``expert`` differ in the
    budget only, and in how many candidates they look at)."""

    #: seconds per decision (None: exactly ``max_samples`` samples, reproducible)
    time_limit: float | None = 0.3
    min_samples: int = 8
    max_samples: int = 80
    #: cards considered for the exchange (the lowest by the heuristic's keep_score)
    exchange_cards: int = 5
    #: drop the weaker half of the exchange candidates after each round of deals (off:
    #: every candidate on every deal, and every card of the hand a candidate with the
    #: pool's cards, as the analysis values each card, :mod:`thousand.bots.valuation`)
    exchange_halving: bool = True
    #: gives tried per sampled deal when valuing a bid
    bid_gives: int = 2
    #: the weight of the opponents' mean deal value against one's own
    beta: float = 0.5
    #: the same with two players, where the one opponent's point is as much a loss as
    #: one's own is a gain (RULES §4 "Two players": a race of two to 1000)
    beta_two: float = 1.0
    #: points to spare before a sampled deal counts as made, for the contract and the
    #: exchange (the solver's defenders see every card: against the heuristic bot the
    #: declarer's real total is some 10 points above the solver's, against search bots
    #: about the same)
    margin: int = 0
    #: more to spare for a contract raised above the bid (the best of many estimates
    #: is optimistic)
    raise_margin: int = 5
    #: the same in the auction, where the exchange is picked by a quick rule (measured:
    #: about 7 points below the exchange searched later, 17 below the real total against
    #: heuristic defenders; -15 bids more than -7 at the same strength against both the
    #: heuristic and the -7 bot, with fewer openers left alone with 100 in self-play)
    bid_margin: int = -15
    #: the same with two players
    bid_margin_two: int = -15
    #: a defender's expected deal value, and a declarer's, for the value of passing
    defender_value: float = 34.0
    declarer_value: float = 40.0
    #: the defender's with two players (he takes all the defence's points and the talon
    #: not chosen: RULES §4 "Two players" 3)
    defender_value_two: float = 50.0
    #: the same for an opener left alone with his compulsory 100 (he fails three in four)
    stuck_opener_value: float = -40.0
    #: what winning the game is worth, in deal points, on top of the contract
    win_bonus: float = 250.0
    #: value passing from the sampled deals: how often the bidder in front would make
    #: his bid if this seat passed (else the fixed values above)
    model_pass: bool = False
    #: points to spare for the bidder in front in those deals (his exchange is picked by
    #: the quick rule, some 7 points below a searched one)
    other_margin: int = -7
    #: in card play, weight each sampled deal by how well the others' last
    #: ``inference_moves`` cards fit it (:mod:`thousand.bots.inference`): a card that
    #: cost ``loss`` points with all hands open weighs the deal by exp(-loss / this);
    #: 0 switches it off
    play_inference: float = 0.0
    inference_moves: int = 4
    #: value a bid as the contract it leads to: the sampled deals come in groups that
    #: share a talon (the declarer sees it before he names his contract), and in each
    #: group the bid is worth the contract, the bid or a raise above it, that does best
    #: over the group's deals (off: the bid itself, raised only on the barrel)
    raise_credit: bool = True
    #: sampled deals per talon in those groups
    talon_group: int = 4
    #: points to spare for such a raise in the auction's deals: the contract phase's own
    #: (``margin`` + ``raise_margin``, 5) less the 7 or so its searched exchange gains
    #: over the auction's quick one, so that the auction counts the raises the bot will
    #: name, not more
    bid_raise_margin: int = -2
    #: the auction's rule for a contract made in a sampled deal: 0, made where the
    #: solver's total reaches the contract plus its margin (``bid_margin``,
    #: ``bid_raise_margin``); above 0, made with chance σ((total − contract − margin) /
    #: ``gap_scale``): the table's total scatters about the solver's, the defenders seeing
    #: only their own cards (the gap's logistic spread, ``benchmarks/fit_defence.py``)
    gap_scale: float = 0.0
    #: the same with two players (their own fit: one defender, ten cards)
    gap_scale_two: float = 0.0


def fitted_gap(name: str = "defence_gap.json") -> tuple[int, float]:
    """The auction's rule as fitted to the defence's gap, (``bid_margin``, ``gap_scale``):
    ``name`` (``defence_gap.json`` for three players, ``defence_gap_two.json`` for two),
    written by ``benchmarks/fit_defence.py --data`` from the deals of
    ``benchmarks/defence_gap.py``.  The table's total less the solver's, over strong
    declarers' deals against strong and heuristic defenders, is a logistic distribution of
    location ``mu`` and scale ``s``: a bid is counted made in a sampled deal with chance
    σ((total + mu − bid) / s), so the margin is −mu (rounded: the thresholds the solver is
    asked are whole points) and the scale s."""
    text = resources.files(__package__).joinpath(name).read_text("utf-8")
    fit = json.loads(text)
    return -round(fit["mu"]), float(fit["s"])


_GAP_MARGIN, _GAP_SCALE = fitted_gap()
_GAP_MARGIN_TWO, _GAP_SCALE_TWO = fitted_gap("defence_gap_two.json")

#: ``strong``: the auction's rule fitted to the defence's gap, for three players and for
#: two (each measured against the hard margin of ``SearchConfig()``, the bot before it, in
#: docs/search-bots.md §6 and §7)
STRONG = SearchConfig(bid_margin=_GAP_MARGIN, gap_scale=_GAP_SCALE,
                      bid_margin_two=_GAP_MARGIN_TWO, gap_scale_two=_GAP_SCALE_TWO)


#: ``expert`` spends its bigger budget on more deals per decision and on reading the cards
#: the others played (:mod:`thousand.bots.inference`), not on wider candidate lists: the best
#: of more gives or exchanges, each valued with every card open, flatters a hand (measured:
#: with 7 exchange cards and 3 gives it was no better than ``strong``).
EXPERT = replace(
    STRONG, time_limit=1.2, min_samples=16, max_samples=300, play_inference=10.0,
    inference_moves=6,
)
