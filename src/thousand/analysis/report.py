"""The whole analysis of a record as JSON-ready data (docs/analysis.md, the shape checked
by docs/analysis.schema.json).

For every decision of the chosen seats: the values of the moves with every card open
(:mod:`.open_cards`), from the seat's view by sampling (:mod:`.view_play`, or the search
bots' own valuation of every phase when :mod:`thousand.bots.valuation` is installed),
the cost of the move played, its mark and, for a marked one, a reason.  Then a summary
per player.  A decision's samples are seeded from (seed, deal, move), so the analysis of
one deal does not depend on the others — which lets ``jobs`` split the deals over
processes with the same result.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from thousand.engine import moves as mv
from thousand.engine.deal import Phase
from thousand.engine.game import GameOver
from thousand.engine.moves import Move
from thousand.engine.record import Record, load_record, replay
from thousand.solver import Solver

from . import open_cards, reasons
from .marks import MARKS, THRESHOLDS, accuracy, mark_of
from .view_play import paired_cost, play_samples
from .walk import Decision, decisions

FORMAT = 1
#: Moves listed per decision and per basis: the best ones, and the one played.
LISTED = 5
Progress = Callable[[int, int], None]


def _valuation() -> Any | None:
    """The search bots' valuation of every phase, when this installation has it."""
    try:
        return import_module("thousand.bots.valuation")
    except ModuleNotFoundError:
        return None


@dataclass
class _Settings:
    seats: tuple[int, ...]
    deals: tuple[int, ...]
    view_based: bool
    samples: int
    seed: int
    lang: str


@dataclass
class _Pending:
    """A decision's entry and what its reason still needs (the trick it went to)."""

    entry: dict[str, Any]
    decision_view: Any
    played: Move
    best: Move | None
    cost: float
    totals: tuple[float, float] | None  # the declarer's total after the best and the played
    kind: str  # play, contract, other
    open_totals: tuple[float, float] | None = None  # the same with every card open


@dataclass
class _DealWork:
    number: int
    out: dict[str, Any]
    pending: list[_Pending] = field(default_factory=list)


def _listed(values: Mapping[Move, float], played: Move, sign: int) -> list[dict[str, Any]]:
    order = sorted(values, key=lambda m: -sign * values[m])
    keep = order[:LISTED]
    if played in values and played not in keep:
        keep = [*keep[: LISTED - 1], played]
    return [{"move": mv.move_str(m), "value": round(float(values[m]), 1)} for m in keep]


def _seed(seed: int, deal: int, index: int, phase: str) -> int:
    return zlib.crc32(f"{seed}|{deal}|{index}|{phase}".encode())


def _view_block(d: Decision, st: _Settings, solver: Solver,
                valuation: Any | None) -> tuple[dict[str, Any], float, float] | None:
    """The view-based values of a decision, its cost and the cost's low end."""
    seed = _seed(st.seed, d.deal, d.index, d.phase)
    if valuation is not None:
        try:
            val = valuation.valuate(d.view, samples=st.samples, seed=seed)
        except NotImplementedError:
            val = None
        if val is not None:
            means = {m: float(val.mean(m)) for m in val.moves}
            if d.move not in means:
                return None
            best = val.best()
            cost, low, high = val.cost(d.move)
            n = len(val.weights)
            block = {"best": mv.move_str(best), "cost": round(cost, 1), "low": round(low, 1),
                     "high": round(high, 1), "samples": n, "unit": "utility",
                     "moves": _listed(means, d.move, 1)}
            return block, cost, low
    if d.view.phase != Phase.PLAY:
        return None
    samples = play_samples(d.view, st.samples, seed, solver)
    if not samples.get(d.move):
        return None
    sign = 1 if d.seat == d.view.declarer else -1
    means = {m: sum(v) / len(v) for m, v in samples.items() if v}
    best = max(means, key=lambda m: sign * means[m])
    cost, low, high = paired_cost(samples[best], samples[d.move], sign)
    block = {"best": mv.move_str(best), "cost": round(cost, 1), "low": round(low, 1),
             "high": round(high, 1), "samples": len(samples[d.move]),
             "unit": "declarer_total", "moves": _listed(means, d.move, sign)}
    return block, cost, low


def _open_values(d: Decision, solver: Solver, work: _DealWork,
                 card_values: dict[Move, int] | None) -> tuple[dict[Move, int], int, str] | None:
    """(values, sign, unit) of a decision with every card open, where they exist.  A
    contract's fills in the deal's double-dummy table (the play may never start: a
    concede)."""
    phase = d.view.phase
    declarer = d.seat == d.view.declarer
    if phase == Phase.PLAY:
        values = card_values if card_values is not None else open_cards.play_values(
            d.view, d.live_deal, solver)
        return values, (
            1 if declarer else -1), "declarer_total"
    if phase == Phase.EXCHANGE:
        values = open_cards.exchange_values(d.game, solver)
        return (values, 1, "declarer_total") if values else None
    if phase == Phase.CONTRACT:
        start = open_cards.to_first_lead(d.game.clone())
        if start is None or start.deal is None:
            return None
        best_total = open_cards.play_total(start.view(start.to_move), start.deal, solver)
        values = open_cards.contract_values(d.view, best_total)
        named = mv.value_of(d.move) if mv.is_contract(d.move) else d.view.bid
        if work.out["double_dummy"] is None:
            work.out["double_dummy"] = {"declarer_best": best_total, "contract": named,
                                        "makeable": best_total >= named}
        return (values, 1, "deal_score") if values else None
    return None


def _analyse_decision(d: Decision, st: _Settings, solver: Solver, valuation: Any | None,
                      work: _DealWork, card_values: dict[Move, int] | None = None) -> None:
    """One decision's entry; ``card_values``: a card's open values, solved already for
    the deal's chart."""
    entry: dict[str, Any] = {
        "index": d.index, "seat": d.seat, "phase": d.phase, "played": mv.move_str(d.move),
        "forced": d.forced,
        "trick": len(d.view.tricks) + 1 if d.view.phase == Phase.PLAY else None,
        "view": None, "open": None, "mark": None, "basis": None, "reason": None,
    }
    work.out["decisions"].append(entry)
    if d.forced:
        return
    cost: float | None = None
    low: float | None = None
    best: Move | None = None
    totals: tuple[float, float] | None = None
    open_totals: tuple[float, float] | None = None
    opened = _open_values(d, solver, work, card_values)
    if opened is not None and d.move in opened[0]:
        values, sign, unit = opened
        obest = max(values, key=lambda m: sign * values[m])
        lost = sign * (values[obest] - values[d.move])
        entry["open"] = {"best": mv.move_str(obest), "lost": lost, "unit": unit,
                         "moves": _listed(values, d.move, sign)}
        cost, best = float(lost), obest
        if unit == "deal_score" and mv.is_contract(d.move) and values[d.move] >= 0:
            # a contract that the open cards make is not marked for being low: only
            # what each player could know says whether more was worth naming
            cost = 0.0
        if unit == "declarer_total":
            totals = open_totals = (float(values[obest]), float(values[d.move]))
    if st.view_based:
        # cards are valued by the paired sampling here (the declarer's total, the unit
        # of the open cards); the search bots' valuation serves the other phases
        viewed = _view_block(d, st, solver,
                             None if d.view.phase == Phase.PLAY else valuation)
        if viewed is not None:
            entry["view"], cost, low = viewed
            best = mv.parse_move(entry["view"]["best"])
            if entry["view"]["unit"] == "declarer_total":
                listed = {x["move"]: x["value"] for x in entry["view"]["moves"]}
                totals = (listed[entry["view"]["best"]], listed[entry["played"]])
    if cost is None or best is None:
        return
    mark = mark_of(cost, low)
    entry["mark"] = mark
    entry["basis"] = ("view" if entry["view"] is not None else "open")
    entry["_cost"] = max(0.0, cost)
    if mark is not None:
        # a contract marked from the view is explained from the view, not by hindsight
        kind = "play" if d.view.phase == Phase.PLAY else (
            "contract" if d.view.phase == Phase.CONTRACT and entry["basis"] == "open"
            else "talon" if d.view.phase == Phase.TALON_CHOICE else "other")
        if entry["basis"] == "view" and kind in ("other", "talon"):
            totals = None  # the exchange's open totals do not explain a view mark
        work.pending.append(_Pending(entry, d.view, d.move, best, cost, totals, kind,
                                     open_totals))


def _finish_deal(work: _DealWork, game: Any, names: Sequence[str], lang: str) -> None:
    """The reasons, once the deal's tricks are known, and the deal's score row."""
    try:
        ended = game.last_finished_deal()
    except GameOver:  # no deal has ended yet
        ended = None
    tricks = list(ended.tricks) if ended is not None and len(game.summaries) >= work.number \
        else []
    declarer = work.out["declarer"]
    for p in work.pending:
        if p.kind == "play":
            fell_to = None
            n = p.entry["trick"] - 1
            if n < len(tricks):
                t = tricks[n]
                seat = p.entry["seat"]
                same_side = (t.winner == declarer) == (seat == declarer)
                if t.winner != seat and not same_side:
                    card = dict(t.cards).get(t.winner)
                    fell_to = (t.winner, card) if card is not None else None
            sampled = p.entry["view"]["samples"] if p.entry["view"] else None
            p.entry["reason"] = reasons.play_reason(
                p.decision_view, p.played, p.best or p.played, p.cost, lang, names, fell_to,
                p.totals, sampled, p.open_totals)
        elif p.kind == "contract":
            best_total = _declarer_best(work)
            p.entry["reason"] = reasons.contract_reason(p.played, p.best or p.played,
                                                        best_total, lang) if best_total \
                is not None else reasons.generic_reason(p.best or p.played, p.cost, lang, None)
        elif p.kind == "talon":
            sampled = p.entry["view"]["samples"] if p.entry["view"] else None
            p.entry["reason"] = reasons.talon_reason(p.decision_view, p.best or p.played,
                                                     p.cost, lang, sampled)
        elif p.totals is not None:  # an exchange, valued with every card open
            p.entry["reason"] = reasons.totals_reason(names[p.entry["seat"]], p.totals[1],
                                                      p.totals[0], None, lang)
        else:
            sampled = p.entry["view"]["samples"] if p.entry["view"] else None
            p.entry["reason"] = reasons.generic_reason(p.best or p.played, p.cost, lang,
                                                       sampled)
    work.pending.clear()


def _declarer_best(work: _DealWork) -> int | None:
    dd = work.out.get("double_dummy")
    return int(dd["declarer_best"]) if dd else None


def _analyse_deals(record: Record, st: _Settings, progress: Progress | None = None,
                   total: int = 0) -> list[dict[str, Any]]:
    """The analysed deals among ``st.deals`` (the walk replays the others unanalysed)."""
    solver = Solver()
    valuation = _valuation() if st.view_based else None
    names = list(record.players)
    out: list[dict[str, Any]] = []
    work: _DealWork | None = None
    last_game: Any = None
    done = 0
    wanted = set(st.deals)
    for d in decisions(record):
        if work is not None and d.deal != work.number:
            _finish_deal(work, d.game, names, st.lang)
            work = None
        if d.deal not in wanted:
            continue
        last_game = d.game
        if work is None:
            view = d.view
            work = _DealWork(d.deal, {"number": d.deal, "dealer": view.dealer,
                                      "declarer": None, "contract": None, "points": None,
                                      "double_dummy": None, "chart": [], "decisions": []})
            out.append(work.out)
        card_values = _chart_point(d, work, solver) if d.view.phase == Phase.PLAY else None
        if d.seat in st.seats:
            _analyse_decision(d, st, solver, valuation, work, card_values)
            done += 1
            if progress is not None:
                progress(done, total)
    if work is not None and last_game is not None:
        _finish_deal(work, last_game, names, st.lang)
    return out


def _chart_point(d: Decision, work: _DealWork, solver: Solver) -> dict[Move, int]:
    """The deal's double-dummy table at the first lead, and the declarer's total after
    every card (whoever plays it: the chart is the deal's, not a seat's); returns the
    card's open values, for its decision's entry."""
    out = work.out
    view = d.view
    out["declarer"], out["contract"] = view.declarer, view.contract
    values = open_cards.play_values(view, d.live_deal, solver)
    if out["double_dummy"] is None and not view.tricks and not view.trick:
        # the position's value is its best move's: the declarer's highest, a defender's lowest
        best = max(values.values()) if d.seat == view.declarer else min(values.values())
        out["double_dummy"] = {"declarer_best": best, "contract": view.contract,
                               "makeable": best >= view.contract}
    if d.move in values:
        out["chart"].append({"index": d.index, "declarer_total": values[d.move]})
    return values


def _deal_job(args: tuple[dict[str, Any], _Settings]) -> list[dict[str, Any]]:
    record_json, st = args
    return _analyse_deals(load_record(record_json), st)


def _players(record: Record, deals: list[dict[str, Any]], seats: Sequence[int]
             ) -> list[dict[str, Any]]:
    out = []
    for seat in seats:
        costs: list[float] = []
        marks = dict.fromkeys(MARKS, 0)
        lost_view = lost_open = 0.0
        played_deals = 0
        worst: list[dict[str, Any]] = []
        for deal in deals:
            mine = [e for e in deal["decisions"] if e["seat"] == seat and not e["forced"]]
            if mine:
                played_deals += 1
            for e in mine:
                if "_cost" in e:
                    costs.append(e["_cost"])
                if e.get("_cost", 0) > 0:
                    worst.append({"deal": deal["number"], "index": e["index"],
                                  "cost": round(e["_cost"], 1)})
                if e["mark"]:
                    marks[e["mark"]] += 1
                if e["view"]:
                    lost_view += max(0.0, e["view"]["cost"])
                if e["open"]:
                    lost_open += max(0, e["open"]["lost"])
        worst.sort(key=lambda w: -w["cost"])
        per = max(1, played_deals)
        out.append({
            "seat": seat, "name": record.players[seat], "decisions": len(costs),
            "marks": marks, "lost_view": round(lost_view, 1), "lost_open": round(lost_open, 1),
            "lost_per_deal_view": round(lost_view / per, 1),
            "lost_per_deal_open": round(lost_open / per, 1),
            "accuracy": accuracy(costs), "worst": worst[:3],
        })
    return out


def count_decisions(record: Record, seats: Sequence[int], deals: Sequence[int]) -> int:
    """How many decisions the analysis of these seats and deals looks at."""
    wanted = set(deals)
    return sum(1 for d in decisions(record) if d.deal in wanted and d.seat in seats)


def analyse_record(record: Mapping[str, Any] | Record, *, seats: Sequence[int] | None = None,
                   deals: Sequence[int] | None = None, view_based: bool = True,
                   samples: int = 48, seed: int = 0, lang: str = "ru", jobs: int = 1,
                   progress: Progress | None = None) -> dict[str, Any]:
    """The analysis of a game record (module docstring).  Raises the record's own
    :class:`~thousand.engine.record.RecordError` /
    :class:`~thousand.engine.record.ReplayError` for a record that is not one or does not
    replay, and ``ValueError`` for a seat or a deal the game does not have."""
    rec = record if isinstance(record, Record) else load_record(record)
    result = replay(rec)
    n_seats = len(rec.players)
    chosen = tuple(range(n_seats)) if seats is None else tuple(sorted(set(seats)))
    for s in chosen:
        if not 0 <= s < n_seats:
            raise ValueError(f"seat {s}: the game has seats 0 to {n_seats - 1}")
    numbers = tuple(range(1, len(rec.deals) + 1)) if deals is None else tuple(
        sorted(set(deals)))
    for n in numbers:
        if not 1 <= n <= len(rec.deals):
            raise ValueError(f"deal {n}: the record has deals 1 to {len(rec.deals)}")
    if samples < 1 and view_based:
        raise ValueError("samples must be at least 1")
    st = _Settings(chosen, numbers, view_based, samples, seed, lang)
    total = count_decisions(rec, chosen, numbers)
    if jobs > 1 and len(numbers) > 1:
        parts = [_Settings(chosen, (n,), view_based, samples, seed, lang) for n in numbers]
        record_json = rec.to_json()
        analysed: list[dict[str, Any]] = []
        done = 0
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for part in pool.map(_deal_job, [(record_json, p) for p in parts]):
                analysed.extend(part)
                done += sum(1 for d in part for e in d["decisions"] if e["seat"] in chosen)
                if progress is not None:
                    progress(done, total)
    else:
        analysed = _analyse_deals(rec, st, progress, total)
    summaries = result.game.summaries
    for deal in analysed:
        k = deal["number"] - 1
        if k < len(summaries):
            deal["points"] = list(summaries[k].result.points)
    players = _players(rec, analysed, chosen)
    for deal in analysed:
        for e in deal["decisions"]:
            e.pop("_cost", None)
    winner = result.winner
    return {
        "format": FORMAT, "kind": "thousand-analysis",
        "game": {"players": list(rec.players), "preset": getattr(rec.rules, "preset", None),
                 "deals": len(rec.deals), "scores": list(result.scores),
                 "winner": list(winner) if isinstance(winner, list) else winner},
        "settings": {"view_based": view_based, "samples": samples, "seed": seed,
                     "lang": lang, "seats": list(chosen), "deals": list(numbers),
                     "thresholds": dict(THRESHOLDS)},
        "deals": analysed,
        "players": players,
    }
