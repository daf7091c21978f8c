"""A game step by step for the replay viewer (``GET /api/games/{id}/replay``,
``POST /api/replay``).

One step per move (a ``look`` folds into the move that follows it), and one step with
``move: null`` at the start of every deal; each step has the public events the move
caused, the spectator's view after it (at the end of a deal: the deal as it ended), the
scores, and — only when the game is over, or for a record the asker already holds —
every hand.  The steps are built by taking the finished table back move by move
(``Table.undo`` on a clone), so any table, live or restored from a record, replays.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from thousand.engine.protocol import cards_json, view_json
from thousand.engine.record import RecordError, ReplayError, load_record, replay
from thousand.engine.table import Event, Table, audience_includes
from thousand.words.catalogue import replay_error_text

__all__ = ["MAX_STEPS", "ReplayRefused", "record_replay", "table_replay"]

#: The most moves a replay shows (a record of 2000 deals would make a reply of gigabytes).
MAX_STEPS = 20_000


class ReplayRefused(ValueError):
    """``code`` ``malformed`` (not a record), ``illegal`` (a move breaks the rules) or
    ``too_long``; the message is the one line ``thousand replay`` prints."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _state(t: Table, hands: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"view": view_json(t.view(None)), "scores": list(t.game.scores),
                           "to_move": t.to_move}
    if hands:
        game = t.game
        deal = game.deal if game.deal is not None else game.last_finished_deal()
        out["hands"] = [cards_json(h) for h in deal.hands]
    return out


def _deal_end(t: Table, hands: bool) -> dict[str, Any]:
    """The deal that has just ended, as it ended (the table is already in the next)."""
    deal = t.game.last_finished_deal()
    out: dict[str, Any] = {"view": view_json(deal.view(None))}
    if hands:
        out["hands"] = [cards_json(h) for h in deal.hands]
    return out


def table_replay(final: Table, *, hands: bool) -> list[dict[str, Any]]:
    """The steps of ``final``'s game so far (``final`` itself is not changed)."""
    if final.version > MAX_STEPS:
        raise ReplayRefused("too_long", f"the game has {final.version} moves; a replay "
                            f"shows at most {MAX_STEPS}")
    t = final.clone()
    public: dict[int, list[Event]] = defaultdict(list)
    for e in t.log:
        if audience_includes(e["audience"], None):
            public[e["v"]].append(e)
    moves = list(t.moves)
    top = t.version
    states: list[dict[str, Any]] = [{}] * (top + 1)
    ends: dict[int, dict[str, Any]] = {}
    for v in range(top, -1, -1):
        states[v] = _state(t, hands)
        if any(e["type"] == "deal_started" for e in public[v]) and v > 0:
            ends[v] = _deal_end(t, hands)
        if v > 0:
            t.undo()

    def step(deal: int | None, move: str | None, seat: int | None, events: list[Event],
             state: dict[str, Any], scores: list[int]) -> dict[str, Any]:
        out = {"deal": deal, "move": move, "seat": seat, "events": events,
               "view": state["view"], "scores": scores}
        if "hands" in state:
            out["hands"] = state["hands"]
        return out

    steps: list[dict[str, Any]] = []
    number: int | None = None
    folded: list[Event] = []
    for v in range(top + 1):
        events = public[v]
        scores = states[v]["scores"]
        cut = next((i for i, e in enumerate(events) if e["type"] == "deal_started"), None)
        before, after = (events, []) if cut is None else (events[:cut], events[cut:])
        if v > 0:
            move = moves[v - 1]
            if move == "look" and v < top:
                folded += before
                continue
            end = ends.get(v)
            seat = states[v - 1]["to_move"]
            steps.append(step(number, move, seat, folded + before,
                              end if end is not None else states[v], scores))
            folded = []
        if after:
            number = after[0].get("number", number)
            steps.append(step(number, None, None, after, states[v], scores))
    return steps


def _one_line(text: str) -> str:
    return " ".join(text.split())


def record_replay(data: bytes) -> dict[str, Any]:
    """``POST /api/replay``: the record (JSON text) checked as ``thousand replay`` checks
    it, then its steps with every hand (the asker holds the record)."""
    try:
        record = load_record(data)
    except RecordError as e:
        raise ReplayRefused("malformed", _one_line(f"error: {e}")) from None
    try:
        replay(record)
    except ReplayError as e:
        text = replay_error_text(e, "en", list(record.players))
        raise ReplayRefused("illegal", _one_line(text)) from None
    except RecordError as e:
        raise ReplayRefused("malformed", _one_line(f"error: {e}")) from None
    moves = sum(len(d.moves) for d in record.deals)
    if moves > MAX_STEPS:
        raise ReplayRefused("too_long", f"the record has {moves} moves; a replay shows at "
                            f"most {MAX_STEPS}")
    try:
        table = Table.from_record(record)
    except ValueError as e:  # replay() found none of these; kept for safety
        raise ReplayRefused("illegal", _one_line(str(e))) from None
    steps = table_replay(table, hands=True)
    _recorded_commitments(steps, [getattr(d, "commitment", None) for d in record.deals])
    return {
        "record": record.to_json(),
        "header": table.header(),
        "over": table.over,
        "winner": table.game.winner,
        "steps": steps,
    }


def _recorded_commitments(steps: list[dict[str, Any]],
                          commitments: list[tuple[str, str | None] | None]) -> None:
    """A table rebuilt from a record has no seed of its own: its events say what the record
    says of each deal's commitment (``sha256`` when the deal starts, ``salt`` when it is
    scored), and nothing when the record is silent."""
    started = scored = 0
    for step in steps:
        for e in step["events"]:
            if e["type"] == "deal_started":
                c = commitments[started] if started < len(commitments) else None
                e.pop("commitment", None)
                if c is not None:
                    e["commitment"] = c[0]
                started += 1
            elif e["type"] == "deal_scored":
                c = commitments[scored] if scored < len(commitments) else None
                e.pop("salt", None)
                if c is not None and c[1] is not None:
                    e["salt"] = c[1]
                scored += 1
