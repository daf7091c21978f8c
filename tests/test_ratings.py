"""Ratings (thousand.site.ratings): openskill's Plackett–Luce figures, the display number,
places with ties and winners, and which games are rated (docs/ratings.md)."""

from __future__ import annotations

import math

import pytest
from openskill.models import PlackettLuce

from thousand.engine.rules import Rules
from thousand.site.ratings import (
    BETA,
    SIGMA,
    TAU,
    Rating,
    RatingChange,
    RatingError,
    _family,
    places,
    rate_game,
    rate_scores,
    rating_family,
    unrated_options,
)


def openskill_figures(ratings: list[Rating], ranks: list[int]) -> list[float]:
    """What openskill itself makes of the game (a fresh default model, one player a
    team): μ, σ of each player in turn."""
    model = PlackettLuce()
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    new = model.rate(teams, ranks=[float(p) for p in ranks])
    return [x for t in new for x in (t[0].mu, t[0].sigma)]


def figures(changes: list[RatingChange]) -> list[float]:
    return [x for c in changes for x in (c.after.mu, c.after.sigma)]


def test_a_known_game_moves_ratings_as_openskill_does() -> None:
    before = [Rating(31.5, 4.2), Rating(25.0, SIGMA), Rating(19.0, 2.5)]
    changes = rate_game(before, [2, 1, 3])
    expected = openskill_figures(before, [2, 1, 3])
    assert figures(changes) == pytest.approx(expected, rel=1e-12)
    assert [c.before for c in changes] == before
    # the favourite came second: he loses, the newcomer who won gains the most
    assert changes[0].mu_delta < 0 < changes[1].mu_delta
    assert changes[1].delta > 0 > changes[2].delta


def test_new_players_by_hand() -> None:
    """Three new players, places 1, 2, 3.  Plackett–Luce (Weng & Lin, algorithm 4) with
    equal priors gives μ changes of σ²/c × (2/3, 1/6, −5/6): 4 : 1 : −5, summing to 0,
    where σ² is the prior's variance plus τ² and c² = 3(σ² + β²)."""
    changes = rate_game([Rating()] * 3, [1, 2, 3])
    var = SIGMA**2 + TAU**2
    c = math.sqrt(3 * (var + BETA**2))
    assert [ch.mu_delta for ch in changes] == pytest.approx(
        [var / c * 2 / 3, var / c / 6, -var / c * 5 / 6], rel=1e-9)
    assert sum(ch.mu_delta for ch in changes) == pytest.approx(0, abs=1e-9)
    assert all(ch.before.display == 1500 for ch in changes)
    # every sigma shrinks: a game is evidence
    assert all(ch.after.sigma < SIGMA for ch in changes)
    deltas = [ch.delta for ch in changes]
    assert deltas[0] > deltas[1] > 0 > deltas[2]
    assert deltas == [65, 31, -55]


def test_display_number() -> None:
    assert Rating().display == 1500
    assert Rating(30.0, 2.0).display == 1500 + 20 * 24
    assert Rating(10.0, 5.0).ordinal == pytest.approx(-5.0)
    assert Rating.from_json(Rating(27.5, 3.25).to_json()) == Rating(27.5, 3.25)


def test_ties_share_a_place() -> None:
    before = [Rating(), Rating(), Rating(28.0, 6.0)]
    changes = rate_game(before, [1, 1, 3])
    assert figures(changes) == pytest.approx(
        openskill_figures(before, [1, 1, 3]), rel=1e-12)
    assert changes[0].after == changes[1].after  # the same prior and the same place
    # equal scores are an equal place; the next place is skipped
    assert places([500, 500, 120]) == [1, 1, 3]
    assert places([300, 700, 300, 700]) == [3, 1, 3, 1]
    # a shared win (Game.winner is a list)
    assert places([1000, 1000, 600], [0, 1]) == [1, 1, 3]
    assert rate_scores(before, [640, 640, 200])[0].after == changes[0].after


def test_the_winner_comes_first_whatever_the_scores() -> None:
    # the declarer reached 1000 and won although another player went past him in the deal
    assert places([1005, 1000, 400], winners=1) == [2, 1, 3]
    assert places([120, 900, -40], winners=None) == [2, 1, 3]


def test_four_players() -> None:
    before = [Rating(24.0, 7.0), Rating(27.0, 5.0), Rating(22.0, 8.0), Rating()]
    changes = rate_game(before, [3, 1, 4, 2])
    assert figures(changes) == pytest.approx(
        openskill_figures(before, [3, 1, 4, 2]), rel=1e-12)
    assert changes[1].mu_delta > 0 > changes[2].mu_delta


@pytest.mark.parametrize(("ratings", "final", "message"), [
    ([Rating()] * 5, [1, 2, 3, 4, 5], "2, 3 or 4 players, not 5"),
    ([Rating()] * 3, [1, 2], "2 places for 3 players"),
    ([Rating()] * 3, [1, 2, 4], "from 1 to 3, not 4"),
    ([Rating()] * 3, [1, 2, True], "not True"),
])
def test_bad_results_say_what_is_wrong(ratings: list[Rating], final: list[int],
                                       message: str) -> None:
    with pytest.raises(RatingError, match=message):
        rate_game(ratings, final)


def test_bad_ratings_say_what_is_wrong() -> None:
    with pytest.raises(RatingError, match="sigma must be more than 0"):
        Rating(25.0, 0.0)
    with pytest.raises(RatingError, match="finite"):
        Rating(float("nan"), 1.0)
    with pytest.raises(RatingError, match='"mu": number'):
        Rating.from_json({"mu": 1})
    with pytest.raises(RatingError, match="not seats"):
        places([1, 2, 3], winners=[3])


def test_two_players_are_a_duel_of_two_teams() -> None:
    """RULES §4 "Two players" 6 (scoring and the game as usual): a game for two is rated,
    openskill's Plackett–Luce with two teams of one; the winner gains what the loser loses
    when they stood alike."""
    before = [Rating(), Rating()]
    changes = rate_game(before, [2, 1])
    assert figures(changes) == pytest.approx(openskill_figures(before, [2, 1]), rel=1e-12)
    assert changes[1].mu_delta > 0 > changes[0].mu_delta
    assert changes[1].mu_delta == pytest.approx(-changes[0].mu_delta)


def test_the_game_for_two_is_one_family_whatever_it_is_spelled_from() -> None:
    """RULES §4 "Two players": preset ``two`` is classic with players=2, so classic for two
    is the family ``two`` and ``two`` for three is ``classic``, asked in either order (the
    answer is cached by the rules' values, which do not hold the preset's name)."""
    _family.cache_clear()
    assert rating_family(Rules.preset_rules("classic", players=2)) == "two"
    assert rating_family(Rules.preset_rules("two")) == "two"
    assert rating_family(Rules.preset_rules("two", players=3)) == "classic"
    _family.cache_clear()
    assert rating_family(Rules.preset_rules("two", players=3)) == "classic"
    assert rating_family(Rules.preset_rules("classic")) == "classic"


def test_which_games_are_rated() -> None:
    for preset in ("classic", "dealer-opens", "house", "textbook", "casual", "two"):
        assert rating_family(Rules.preset_rules(preset)) == preset
    classic = Rules()
    assert rating_family(classic, open_hands=True) is None
    assert rating_family(classic, training=True) is None
    # a player count the preset does not have is a family of its own
    assert rating_family(Rules.preset_rules("house", players=4)) == "house-4p"
    # what the losers owe and a deal limit kept as a safeguard change nothing
    assert rating_family(Rules.preset_rules("classic", settlement=True, max_deals=None)) \
        == "classic"
    # a deal limit that decides games, or any other option changed: unrated, and why
    short = Rules.preset_rules("classic", max_deals=20)
    assert rating_family(short) is None and unrated_options(short) == ("max_deals",)
    custom = Rules.from_cli("house", ["bid_step=10", "dark=false"])
    assert rating_family(custom) is None
    assert unrated_options(custom) == ("bid_step", "dark")
    assert unrated_options(classic) == ()
    # the family is the game the values make, whatever preset they were spelled from
    spelled = Rules.from_cli("classic", [
        "bid_step=10", "must_overtake=true", "declarer_scores=taken", "rounding=1",
        "barrel=850", "barrel_deals=none", "max_deals=none",
    ])
    assert rating_family(spelled) == "casual"
