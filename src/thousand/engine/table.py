"""A table: one game, its seats, a version, and the events each move causes.

:class:`Table` is what every front end talks to (docs/architecture.md "A move's way"):

* ``submit(seat, move, version)`` accepts a move only from the seat to move and only
  against the current version; anything else raises :class:`TableError` with a stable code
  and plain data, and changes nothing;
* it returns the events the move caused, each naming its audience (``"all"``, only some
  seats, or everyone except some seats), in the notation of RULES §6, so that a client
  learns what happened without comparing views;
* ``events_since(seat, version)`` replays what a client missed, ``snapshot(seat)`` gives a
  reconnecting client its view and the version;
* a table is restored from its record (mid-deal too) or from its move log and plays on
  into the next deals exactly as an uninterrupted one: every deal's cards come from the
  table's seed and the deal's number alone (:meth:`thousand.engine.game.Game.random_cards`);
* ``clone()`` and ``undo()`` are cheap and never touch another copy.

The version counts accepted moves.  A seat that may bid dark must choose ``dark`` or
``look`` first; a move other than ``dark`` sent in that choice counts as ``look`` and
the move, two versions, whichever way the client sent it, so that a restored table
counts the same.  The record (RULES §6) never holds ``look``; :attr:`Table.moves`, the
table's own log, does.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from . import moves as mv
from .cards import SUITS, card_str
from .deal import Deal, Phase
from .errors import IllegalMove
from .fairness import commitment, salt_for
from .game import Game
from .moves import Move
from .protocol import (
    MoveMessage,
    ProtocolError,
    cards_json,
    parse_client_message,
    result_json,
    table_header,
    view_json,
)
from .rules import Rules
from .view import View

__all__ = ["EVENT_TYPES", "TABLE_ERRORS", "Table", "TableError", "audience_includes"]

#: Every event a table sends (docs/protocol.md).
EventType = Literal[
    "deal_started", "cut", "hand", "look", "dark", "bid", "pass", "redeal", "declarer",
    "talon", "buy", "talon_choice", "other_talon", "give", "discard", "contract", "concede",
    "card", "declaration", "trick",
    "deal_scored", "barrel_on", "fall", "knocked_off", "barrel_timeout", "bolt", "penalty",
    "bolt_samosval", "samosval", "fall_reset", "golden_restart", "game_over",
]
EVENT_TYPES: tuple[str, ...] = EventType.__args__  # type: ignore[attr-defined]

#: Why a table refuses a message.
TableErrorCode = Literal[
    "not_your_turn", "stale_version", "malformed", "illegal_move", "game_over", "no_such_seat",
]
TABLE_ERRORS: tuple[str, ...] = TableErrorCode.__args__  # type: ignore[attr-defined]

Event = dict[str, Any]
Audience = Literal["all"] | dict[str, list[int]]

#: The game's score-sheet marks, as protocol events (penalties carry their reason).
_GAME_EVENTS: dict[str, tuple[EventType, str | None]] = {
    "barrel_on": ("barrel_on", None),
    "fall": ("fall", None),
    "knocked_off": ("knocked_off", None),
    "barrel_timeout": ("barrel_timeout", None),
    "bolt": ("bolt", None),
    "bolt_penalty": ("penalty", "bolt"),
    "concede_penalty": ("penalty", "concede"),
    "redeal_penalty": ("penalty", "redeal"),
    "cut_penalty": ("penalty", "cut"),
    "bolt_samosval": ("bolt_samosval", None),
    "samosval": ("samosval", None),
    "fall_reset": ("fall_reset", None),
    "golden_restart": ("golden_restart", None),
}


class TableError(ValueError):
    """A refused message: ``code`` (one of :data:`TABLE_ERRORS`) and plain ``params``.

    ``illegal_move`` carries the engine's reason (:class:`thousand.engine.errors.IllegalMove`) in
    ``params``: ``{"move", "code", "params"}``.  Nothing changed at the table.
    """

    def __init__(self, code: TableErrorCode, /, **params: Any) -> None:
        self.code: TableErrorCode = code
        self.params = params
        super().__init__(code, params)

    def to_json(self) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "params": self.params}


def audience_includes(audience: Audience, seat: int | None) -> bool:
    """Whether ``seat`` (``None``: a spectator) receives an event with this audience."""
    if audience == "all":
        return True
    assert isinstance(audience, dict)
    if "seats" in audience:
        return seat is not None and seat in audience["seats"]
    return seat not in audience["except"]


def _ev(event_type: EventType, audience: Audience = "all", **data: Any) -> Event:
    return {"type": event_type, "audience": audience, **data}


def _private(event_type: EventType, seats: Sequence[int], secret: dict[str, Any],
             hidden: dict[str, Any], **data: Any) -> list[Event]:
    """One event in two forms: with the secret for ``seats``, without it for the rest."""
    who = sorted(set(seats))
    return [
        _ev(event_type, {"seats": who}, **data, **secret),
        _ev(event_type, {"except": who}, **data, **hidden),
    ]


@dataclass(frozen=True, slots=True)
class _Before:
    """What a deal looked like before a move: enough to tell what the move did."""

    looked: int
    declarer: int
    n_given: int
    discards: int
    n_tricks: int
    n_decl: int
    n_buys: int
    n_summaries: int


class Table:
    """A game with seats, a version and an event log (see the module's docstring)."""

    def __init__(
        self,
        rules: Rules | None = None,
        names: Sequence[str] | None = None,
        first_dealer: int | None = None,
        seed: int | None = None,
        *,
        _deals: Sequence[_Cards] = (),
    ) -> None:
        self.seed = seed if seed is not None else secrets.randbits(128)
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError("seed must be a whole number from 0")
        self.game = Game(rules, names, first_dealer, seed=self.seed, auto_deal=False)
        self.version = 0
        #: Every accepted move in order, ``look`` included: the table's own log.
        self.moves: list[str] = []
        #: Every event, each stamped with the version it was caused at (``"v"``).
        self.log: list[Event] = []
        # dealt cards to use before the seed's (a record being restored, an undone deal)
        self._recorded: list[_Cards] = list(_deals)
        self._deal_next()

    # ------------------------------------------------------------------ building

    @classmethod
    def from_moves(
        cls,
        rules: Rules,
        names: Sequence[str],
        first_dealer: int,
        seed: int,
        moves: Sequence[str],
    ) -> Table:
        """A table replayed from its own log (:attr:`moves`): the same table, version and
        events as the one that wrote the log."""
        table = cls(rules, names, first_dealer, seed)
        for text in moves:
            table._play(mv.parse_move(text))
        return table

    @classmethod
    def from_record(cls, record: Any) -> Table:
        """A table restored from a game record (RULES §6; ``seed`` when the record keeps
        one): the recorded deals are dealt as recorded and their moves replayed; a
        finished deal is followed by the next one from the seed, as it would have been."""
        from .record import load_record  # the record module reads files; the table does not

        rec = load_record(record) if not hasattr(record, "deals") else record
        cards = [_Cards(d.hands, d.talon, d.cut, d.talons) for d in rec.deals]
        table = cls(rec.rules, rec.players, rec.first_dealer, getattr(rec, "seed", None),
                    _deals=cards)
        for number, deal in enumerate(rec.deals):
            if table.over:
                break
            if len(table.game.records) != number + 1:
                raise ValueError(f"deal {number + 1}: the previous deal did not end")
            for m in deal.moves:
                if len(table.game.records) != number + 1 or table.over:
                    raise ValueError(f"deal {number + 1}: moves after the end of the deal")
                table._play(m)
        return table

    # ------------------------------------------------------------------ queries

    @property
    def rules(self) -> Rules:
        return self.game.rules

    @property
    def names(self) -> list[str]:
        return self.game.names

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def to_move(self) -> int | None:
        """The seat to move, or None when the game is over."""
        deal = self.game.deal
        return None if deal is None or self.game.over else deal.to_move

    def view(self, seat: int | None) -> View:
        """What ``seat`` (``None``: a spectator) may see: the engine's view."""
        self._check_seat(seat)
        return self.game.view(seat) if self.game.deal is not None else self._last_view(seat)

    def view_json(self, seat: int | None) -> dict[str, Any]:
        return view_json(self.view(seat))

    def header(self) -> dict[str, Any]:
        """What a client learns once: protocol version, rules, names."""
        return table_header(self.rules, self.names)

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        """What a (re)connecting client needs: the table, its view and the version."""
        return {
            "type": "snapshot",
            "version": self.version,
            "seat": seat,
            "table": self.header(),
            "over": self.over,
            "winner": self.game.winner,
            "view": self.view_json(seat),
        }

    def events_since(self, seat: int | None, version: int) -> list[Event]:
        """The events after ``version`` that ``seat`` receives, in order; ``-1``: every
        event since the table was laid (a deal's first events have version 0)."""
        self._check_seat(seat)
        if isinstance(version, bool) or not isinstance(version, int) or version < -1:
            raise TableError("malformed", why="version must be a whole number from -1")
        if version > self.version:
            raise TableError("stale_version", version=self.version)
        return [e for e in self.log if e["v"] > version and audience_includes(e["audience"], seat)]

    def to_record(self, with_seed: bool = False) -> dict[str, Any]:
        """The game record (RULES §6) of everything so far; ``with_seed`` adds the seed,
        which tells every future deal: keep such a record private until the game ends."""
        from .record import game_to_record

        out = game_to_record(self.game)
        in_play = len(out["deals"]) - 1 if self.game.deal is not None else None
        for index, (deal, rec) in enumerate(zip(out["deals"], self.game.records, strict=True)):
            salt = salt_for(self.seed, index)
            deal["commitment"] = {"sha256": commitment(rec.hands, rec.talon, salt, rec.talons)}
            if index != in_play:  # revealed once the deal has ended
                deal["commitment"]["salt"] = salt
        if with_seed:
            out["seed"] = self.seed
        return out

    # ------------------------------------------------------------------ moves

    def submit(self, seat: int, move: str | Move, version: int) -> list[Event]:
        """Make ``move`` for ``seat`` against ``version``; return the events it caused.

        Raises :class:`TableError` (nothing changes) when the game is over, the seat is not
        a seat or not the one to move, the version is not the table's, the move is not a
        move, or the rules do not allow it (``illegal_move``, with the engine's reason).
        """
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise TableError("no_such_seat", seat=None)
        self._check_seat(seat)
        if isinstance(version, bool) or not isinstance(version, int):
            raise TableError("malformed", why="version must be a whole number")
        if self.game.over:
            raise TableError("game_over", winner=self.game.winner)
        if version != self.version:
            raise TableError("stale_version", version=self.version)
        if seat != self.to_move:
            raise TableError("not_your_turn", seat=self.to_move)
        m = self._parse(move)
        start = len(self.log)
        try:
            self._play(m)
        except IllegalMove as e:
            raise TableError("illegal_move", **e.to_json()) from None
        return self.log[start:]

    def submit_json(self, seat: int, message: Any) -> list[Event]:
        """:meth:`submit` for a client's message (JSON text or object, see
        :func:`thousand.engine.protocol.parse_client_message`)."""
        try:
            msg = parse_client_message(message)
        except ProtocolError as e:
            raise TableError("malformed", why=str(e)) from None
        if not isinstance(msg, MoveMessage):
            raise TableError("malformed", why="expected a move message")
        return self.submit(seat, msg.move, msg.version)

    def undo(self) -> None:
        """Take back the last accepted move (its events and version too)."""
        if not self.moves:
            raise IndexError("no move to undo")
        game = self.game
        if game.deal is not None and not game.deal.history and len(game.records) > 1:
            # the next deal goes back to the pack: the same cards if it is dealt again
            rec = game.records[-1]
            self._recorded.insert(0, _Cards(rec.hands, rec.talon, rec.cut, rec.talons))
        game.undo()
        self.version -= 1
        self.moves.pop()
        while self.log and self.log[-1]["v"] > self.version:
            self.log.pop()

    def clone(self) -> Table:
        """An independent copy: moves and undos on either leave the other as it was."""
        other = Table.__new__(Table)
        other.seed = self.seed
        other.game = self.game.clone()
        other.version = self.version
        other.moves = list(self.moves)
        other.log = list(self.log)  # events are never changed once logged
        other._recorded = list(self._recorded)
        return other

    # ------------------------------------------------------------------ internals

    def _check_seat(self, seat: int | None) -> None:
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.game.n
        ):
            raise TableError("no_such_seat", seat=seat if isinstance(seat, int) else None)

    def _parse(self, move: str | Move) -> Move:
        if isinstance(move, str):
            try:
                return mv.parse_move(move)
            except mv.MoveError as e:
                raise TableError("malformed", why=str(e)) from None
        if isinstance(move, bool) or not isinstance(move, int):
            raise TableError("malformed", why="a move is a string in notation, e.g. \"105\"")
        try:
            mv.move_str(move)
        except mv.MoveError as e:
            raise TableError("malformed", why=str(e)) from None
        if move < 0:
            raise TableError("malformed", why=f"{move} is not a move")
        return move

    def _play(self, move: Move) -> None:
        """Apply a move (legality checked by the engine); a move other than ``dark`` in the
        dark choice is ``look`` first, as its own version."""
        deal = self.game.deal
        assert deal is not None
        if deal.implies_look(move):
            self._step(mv.LOOK)
        self._step(move)

    def _step(self, move: Move) -> None:
        game = self.game
        deal = game.deal
        assert deal is not None
        seat = deal.to_move
        before = _Before(
            deal.looked, deal.declarer, len(deal.given), deal.discards, len(deal.tricks),
            len(deal.declarations), len(deal.buys), len(game.summaries),
        )
        phase = deal.phase
        game.apply(move)
        self.version += 1
        self.moves.append(mv.move_str(move))
        events = self._move_events(deal, seat, phase, move, before)
        if len(game.summaries) > before.n_summaries:
            events.extend(self._deal_end_events())
            self._deal_next(events)
        for e in events:
            e["v"] = self.version
        self.log.extend(events)

    def _deal_next(self, events: list[Event] | None = None) -> None:
        """Deal the next deal unless the game is over: recorded cards first (a record being
        restored), then the seed's; with its moves when the record has them."""
        game = self.game
        out = events if events is not None else []
        if game.over:
            return
        recorded = self._recorded.pop(0) if self._recorded else None
        if recorded is not None:
            game.start_deal(recorded.hands, recorded.talon, recorded.cut, recorded.talons)
        else:
            game.start_deal()
        out.extend(self._deal_start_events())
        if events is None:
            for e in out:
                e["v"] = self.version
            self.log.extend(out)

    # events ---------------------------------------------------------------------

    def _deal_start_events(self) -> list[Event]:
        deal = self.game.deal
        assert deal is not None
        ctx = deal.ctx
        index = len(self.game.records) - 1
        digest = commitment(ctx.hands, ctx.talon, salt_for(self.seed, index), ctx.talons)
        out = [_ev("deal_started", number=_deal_number(self.game), dealer=ctx.dealer,
                   opener=ctx.opener, active=list(ctx.active), golden=ctx.golden,
                   commitment=digest)]
        if ctx.cut:
            shown = [card_str(c) if c % 6 in (0, 1) else None for c in ctx.cut]
            out += _private("cut", [ctx.dealer], {"cards": [card_str(c) for c in ctx.cut]},
                            {"cards": shown})
        for seat in range(deal.players):
            if deal.looked >> seat & 1 and deal.hands[seat] and seat != deal.declarer:
                out.append(_hand(deal, seat))
        if deal.declarer >= 0:  # a golden deal starts with the talon taken
            out += _declarer_events(deal)
        return out

    def _move_events(self, deal: Deal, seat: int, phase: Phase, move: Move,
                     before: _Before) -> list[Event]:
        out: list[Event] = []
        text = mv.move_str(move)
        if move == mv.LOOK:
            out.append(_ev("look", seat=seat))
        elif move == mv.DARK:
            out.append(_ev("dark", seat=seat, value=120))
        elif mv.is_bid(move):
            out.append(_ev("bid", seat=seat, value=mv.value_of(move)))
        elif move == mv.PASS:
            out.append(_ev("pass", seat=seat, phase=_phase_name(phase)))
        elif move == mv.REDEAL:
            out.append(_ev("redeal", seat=seat, phase=_phase_name(phase)))
        elif move == mv.BUY:
            seller = before.declarer
            out.append(_ev("buy", seat=seat, seller=seller, price=deal.buys[-1][1]))
            out += [_hand(deal, seller), _hand(deal, seat)]  # the talon changed hands
        elif mv.is_give(move):
            card, to = deal.given[-1]
            out += _private("give", [seat, to], {"card": card_str(card)}, {"card": None},
                            seat=seat, to_seat=to)
        elif mv.is_discard(move):
            out += _private("discard", [seat], {"card": text.split()[1]}, {"card": None},
                            seat=seat)
        elif mv.is_talon_choice(move):
            out.append(_ev("talon_choice", seat=seat, talon=deal.talon_choice + 1))
            out += _talon_events(deal)
        elif mv.is_contract(move):
            out.append(_ev("contract", seat=seat, value=mv.value_of(move)))
        elif move == mv.CONCEDE:
            out.append(_ev("concede", seat=seat, contract=deal.bid))
        elif mv.is_card_play(move):
            out.append(_ev("card", seat=seat, card=card_str(mv.card_of(move)),
                           declare=mv.is_declare(move)))
            for d in deal.declarations[before.n_decl:]:
                out.append(_ev("declaration", seat=d.seat, kind=d.kind, suit=SUITS[d.suit],
                               points=d.points, trump=_suit_or_none(deal.trump)))
            for t in deal.tricks[before.n_tricks:]:
                out.append(_ev("trick", winner=t.winner, leader=t.leader, points=t.points,
                               cards=[{"seat": s, "card": card_str(c)} for s, c in t.cards]))
        # Hands that became visible to their seat (a look, the end of a dark bid).
        for s in range(deal.players):
            if deal.looked >> s & 1 and not before.looked >> s & 1 and s != deal.declarer:
                out.append(_hand(deal, s))
        if before.declarer < 0 <= deal.declarer and not deal.done:
            out += _declarer_events(deal)
        if deal.done and deal.talon_choice >= 0:
            # two players: the other talon is turned over (RULES §4 "Two players" 3)
            out.append(_ev("other_talon", talon=2 - deal.talon_choice,
                           cards=cards_json(deal.unchosen_talon)))
        return out

    def _deal_end_events(self) -> list[Event]:
        game = self.game
        summary = game.summaries[-1]
        res = summary.result
        # the number of the deal as it started (a redealt deal keeps its number)
        number = self.game.deals_played + (1 if res.outcome == "redeal" else 0)
        out = [_ev("deal_scored", number=number, dealer=summary.dealer,
                   **result_json(res), changes=list(summary.changes),
                   scores=list(summary.scores),
                   salt=salt_for(self.seed, len(game.records) - 1))]
        for e in summary.events:
            kind, reason = _GAME_EVENTS[e.kind]
            data: dict[str, Any] = {"seat": None if e.seat < 0 else e.seat, "amount": e.amount}
            if reason is not None:
                data["reason"] = reason
            out.append(_ev(kind, **data))
        if game.over:
            out.append(_ev("game_over", winner=game.winner, scores=list(game.scores),
                           settlement=game.settlement() if game.rules.settlement else None))
        return out

    def _last_view(self, seat: int | None) -> View:
        """The view of the game's last deal once the game is over."""
        return self.game.last_finished_deal().view(seat)


def _deal_number(game: Game) -> int:
    """The number of the deal being played: redeals do not count (the score sheet's)."""
    return game.deals_played + 1


class _Cards(NamedTuple):
    """A deal's dealt cards: the hands, the talon and the cut."""

    hands: tuple[int, ...]
    talon: int
    cut: tuple[int, ...]
    talons: tuple[int, ...] = ()


def _phase_name(phase: Phase) -> str:
    from .deal_data import PHASE_NAMES

    return PHASE_NAMES[phase]


def _suit_or_none(suit: int) -> str | None:
    return None if suit < 0 else SUITS[suit]


def _hand(deal: Deal, seat: int) -> Event:
    return _ev("hand", {"seats": [seat]}, seat=seat, cards=cards_json(deal.hands[seat]))


def _declarer_events(deal: Deal) -> list[Event]:
    """The auction is over (or a golden deal begins): who plays, and the talon."""
    d = deal.declarer
    out = [_ev("declarer", seat=d, bid=deal.bid, dark=deal.dark_standing,
               golden=deal.ctx.golden)]
    if deal.phase == Phase.TALON_CHOICE:
        # two players: no talon is his until he chooses one; but a golden or dark
        # declarer sees his ten cards now and has had no hand event yet
        unseen_until_now = deal.ctx.golden or deal.dark_standing
        return [*out, _hand(deal, d)] if unseen_until_now else out
    return out + _talon_events(deal)


def _talon_events(deal: Deal) -> list[Event]:
    """The talon the declarer takes, to whom it is shown, and his hand with it."""
    d = deal.declarer
    out: list[Event] = []
    talon = cards_json(deal.talon)
    if deal.talon_public:
        out.append(_ev("talon", cards=talon, seat=d))
    else:
        seen = [s for s in range(deal.players) if deal.talon_visible_to(s)]
        out += _private("talon", seen, {"cards": talon}, {"cards": None}, seat=d)
    # the declarer's whole hand with the talon, to him
    out.append(_hand(deal, d))
    return out


