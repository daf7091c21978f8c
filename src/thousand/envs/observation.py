"""The observation of one seat as a flat vector, and as a string, built from its view only.

Both environments (:mod:`thousand.envs.pettingzoo`, :mod:`thousand.envs.openspiel`) hand a
player :meth:`ObservationEncoder.encode` of ``view(seat)`` (:func:`thousand.engine.deal.view_of`,
the one place that decides what is hidden), never the deal itself, so an observation can
show nothing the seat's view does not.  Seats are *relative*: block index 0 is the observing
seat, 1 the next seat clockwise, and so on, so that a policy learnt in one seat plays in all.

Every field, in order (``P`` the players, 2, 3 or 4; ``B`` the bid values of the
:class:`~thousand.envs.actions.ActionSpace`; a card ``c`` is ``suit * 6 + rank``, suits
``S C D H``, ranks ``9 J Q K T A``); :meth:`ObservationEncoder.fields` lists them with
their offsets, and docs/research.md has the table:

* ``hand`` (24): my cards; all 0 while my hand lies face down (the dark choice);
* ``hand_hidden`` (1): 1 while it does;
* ``phase`` (8; 9 with two players): one-hot: dark choice, auction, buy, exchange, contract,
  redeal offer, play, over (and, two players, talon choice);
* ``to_move``, ``dealer``, ``opener`` (P each): one-hot relative seats;
* ``active`` (P): the seats that play this deal (with 4 players the dealer sits out);
* ``golden`` (1);
* ``hand_sizes`` (P): cards in each hand / 10 (two players: / 12, the declarer's most);
* ``talon`` (24): the talon once I have seen it; ``talon_known`` (24): talon cards I know
  before (the cut); ``cut`` (24): the cards I saw at the cut;
* ``bids`` (B × P): who bid each bid value (the auction: bids only rise, so each value is
  bid at most once); ``passed`` (P); ``high_bid`` (1): / the highest value;
  ``high_bidder`` (P); ``dark_bidder`` (P); ``dark`` (1): a dark bid stands;
* ``declarer`` (P); ``bid``, ``contract`` (1 each): / the highest value;
* ``buys`` (P): the price each seat last bought the talon at / the highest value;
  ``buy_price`` (1): the price asked now;
* ``given`` (P × 24): the cards given face down that I may see, by receiver (what the
  declarer gave me; as declarer, what I gave each); ``discards`` (24): my discards;
* ``trump`` (5): S C D H or none; ``trump_declarer`` (P);
* ``trick`` (T × 24; T the cards of a trick, 3, or 2 with two players): the cards of the
  trick in progress by position (led first); ``trick_leader`` (P);
* ``played`` (P × 24): the cards each seat played to finished tricks (the cards seen
  played); ``last_trick`` (T × 24): the last finished trick by position;
* ``marriages`` (4 × P): the suit's marriage or half marriage was declared by the seat;
  ``ace_marriage``, ``four_nines`` (P each);
* ``taken`` (P): card points taken / 120; ``tricks_won`` (P) / 8 (two players: / 10);
  ``bonus`` (P): declared points / 100;
* ``scores`` (P): / 1000; ``on_barrel`` (P); ``barrel_deals_left`` (P): / 3;
  ``bolts``, ``concedes``, ``falls`` (P each): counts / 3; ``deal_number`` (1): / 100;
* two players only (RULES §4 "Two players" 3), last: ``talon_choice`` (2): which talon the
  declarer chose (one-hot, none before); ``other_talon`` (24): the talon he did not choose,
  once the deal is over and it is shown (nobody sees it before).  The two talons are hidden
  from both players until the choice, as the view hides them: ``talon`` is then the chosen
  talon once shown to me, and the declarer's two discards are his alone (``discards``).

:func:`view_key` is the string form: the view's fields that determine it (the seat's cards,
what it has seen of the talon, the cut, the discards and gives, and the deal's moves as the
seat saw them, a hidden give as ``give ??``), and the score sheet's line (two players: the
talon chosen and the other talon once shown).
"""

from __future__ import annotations

import numpy as np  # type: ignore[import-untyped, import-not-found, unused-ignore]

from thousand.engine import moves as mv
from thousand.engine.cards import cards_of, cards_str
from thousand.engine.deal import Phase
from thousand.engine.rules import Rules
from thousand.engine.view import View

from .actions import FIRST_BID, ActionSpace

__all__ = ["PHASE_ORDER", "ObservationEncoder", "view_key"]

#: The order of the one-hot ``phase`` field.
PHASE_ORDER = (
    Phase.DARK_CHOICE, Phase.AUCTION, Phase.BUY, Phase.EXCHANGE, Phase.CONTRACT,
    Phase.REDEAL_OFFER, Phase.PLAY, Phase.DONE,
)
#: Two players: the talon choice (RULES §4 "Two players" 3) is the phase field's ninth entry,
#: so that the field of three and four players is unchanged.
_PHASE_INDEX = {p: i for i, p in enumerate((*PHASE_ORDER, Phase.TALON_CHOICE))}


class _Entries:
    """The entries of one observation as it is encoded: the positions of the ones, and the
    positions and values of the others, written in two numpy calls at the end (faster than
    element by element).  Seats are relative to ``me``."""

    __slots__ = ("at", "me", "ones", "p", "val")

    def __init__(self, me: int, players: int) -> None:
        self.me = me
        self.p = players
        self.ones: list[int] = []
        self.at: list[int] = []
        self.val: list[float] = []

    def one(self, i: int) -> None:
        self.ones.append(i)

    def value(self, i: int, v: float) -> None:
        self.at.append(i)
        self.val.append(v)

    def seat(self, base: int, s: int) -> None:
        """A one at seat ``s``'s place (relative to mine) in the block at ``base``."""
        self.ones.append(base + (s - self.me) % self.p)

    def seat_value(self, base: int, s: int, v: float) -> None:
        """``v`` at seat ``s``'s place (relative to mine) in the block at ``base``."""
        self.value(base + (s - self.me) % self.p, v)

    def cards(self, base: int, mask: int) -> None:
        """Ones at the cards of ``mask`` in the 24-card block at ``base``."""
        self.ones.extend(base + c for c in cards_of(mask))


class ObservationEncoder:
    """Turns a seat's :class:`~thousand.engine.view.View` into a float32 vector (module
    docstring)."""

    def __init__(self, rules: Rules, actions: ActionSpace | None = None) -> None:
        self.rules = rules
        self.actions = actions if actions is not None else ActionSpace(rules)
        p = self.players = rules.players
        two = p == 2
        #: cards in a trick (the positions of ``trick`` and ``last_trick``)
        self.trick_size = t = 2 if two else 3
        #: what ``hand_sizes`` and ``tricks_won`` are divided by: the most there can be
        self.hand_scale = 12.0 if two else 10.0
        self.tricks_scale = 10.0 if two else 8.0
        b = self.actions.bids
        spec: list[tuple[str, int, str]] = [
            ("hand", 24, "my cards (none while face down)"),
            ("hand_hidden", 1, "my hand is face down (dark choice)"),
            ("phase", 9 if two else 8, "dark choice, auction, buy, exchange, contract, "
                                       "redeal offer, play, over" + (", talon choice" if two
                                                                      else "")),
            ("to_move", p, "who moves (relative seat)"),
            ("dealer", p, "the dealer"),
            ("opener", p, "the first bidder (golden deal: the player)"),
            ("active", p, "the seats that play this deal"),
            ("golden", 1, "a golden deal"),
            ("hand_sizes", p, f"cards in each hand / {self.hand_scale:.0f}"),
            ("talon", 24, "the talon, once shown to me"),
            ("talon_known", 24, "talon cards I know before it is shown (the cut)"),
            ("cut", 24, "cards I saw at the cut"),
            ("bids", b * p, "who bid each value 100, 105, ... (value-major)"),
            ("passed", p, "out of the auction"),
            ("high_bid", 1, "the highest bid / top value"),
            ("high_bidder", p, "who made it"),
            ("dark_bidder", p, "who bid dark"),
            ("dark", 1, "a dark bid stands"),
            ("declarer", p, "the declarer"),
            ("bid", 1, "the winning bid / top value"),
            ("contract", 1, "the contract / top value"),
            ("buys", p, "price each seat last bought the talon at / top value"),
            ("buy_price", 1, "the price asked now / top value"),
            ("given", p * 24, "cards given that I may see, by receiver (receiver-major)"),
            ("discards", 24, "my discards (declarer)"),
            ("trump", 5, "trump S C D H, or none"),
            ("trump_declarer", p, "who declared the trump"),
            ("trick", 24 * t, "the trick in progress, by position (position-major)"),
            ("trick_leader", p, "who led it"),
            ("played", p * 24, "cards each seat played to finished tricks (seat-major)"),
            ("last_trick", 24 * t, "the last finished trick, by position"),
            ("marriages", 4 * p, "suit's marriage (or half) declared by seat (suit-major)"),
            ("ace_marriage", p, "declared the ace marriage"),
            ("four_nines", p, "declared four nines"),
            ("taken", p, "card points taken / 120"),
            ("tricks_won", p, f"tricks taken / {self.tricks_scale:.0f}"),
            ("bonus", p, "declared points / 100"),
            ("scores", p, "game scores / 1000"),
            ("on_barrel", p, "on the barrel"),
            ("barrel_deals_left", p, "deals left on the barrel / 3"),
            ("bolts", p, "bolts / 3"),
            ("concedes", p, "concedes / 3"),
            ("falls", p, "falls from the barrel / 3"),
            ("deal_number", 1, "the deal's number / 100"),
        ]
        if two:
            spec += [
                ("talon_choice", 2, "the talon the declarer chose: 1, 2 (two players)"),
                ("other_talon", 24, "the talon not chosen, shown when the deal is over"),
            ]
        self.spec = spec
        self.offset: dict[str, int] = {}
        at = 0
        for name, size, _ in spec:
            self.offset[name] = at
            at += size
        #: the length of the vector
        self.size = at

    def fields(self) -> list[tuple[str, int, int, str]]:
        """``(name, offset, size, meaning)`` of every field, in order."""
        return [(name, self.offset[name], size, text) for name, size, text in self.spec]

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Lower and upper bounds of each element (scores and counts are unbounded)."""
        low = np.zeros(self.size, np.float32)
        high = np.ones(self.size, np.float32)
        for name in ("taken", "tricks_won", "bonus", "scores", "bolts", "concedes", "falls",
                     "deal_number", "barrel_deals_left"):
            o = self.offset[name]
            n = 1 if name == "deal_number" else self.players
            low[o:o + n] = -np.inf if name in ("scores", "bonus") else 0.0
            high[o:o + n] = np.inf
        return low, high

    def encode(self, view: View, out: np.ndarray | None = None) -> np.ndarray:
        """The vector of ``view`` (a seat's view, not a spectator's)."""
        if view.seat is None:
            raise ValueError("an observation is a seat's: view(None) is a spectator's")
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out.fill(0.0)
        w = _Entries(view.seat, self.players)
        self._encode_deal(view, w)
        self._encode_auction(view, w)
        self._encode_cards(view, w)
        self._encode_sheet(view, w)
        o = self.offset
        if view.talon_choice >= 0:
            w.one(o["talon_choice"] + view.talon_choice)
        if view.other_talon is not None:
            w.cards(o["other_talon"], view.other_talon)
        out[w.ones] = 1.0
        if w.at:
            out[w.at] = w.val
        return out

    def _encode_deal(self, view: View, w: _Entries) -> None:
        """My hand, the phase, the deal's seats, the hands' sizes, the talon and the cut."""
        o = self.offset
        if view.hand is None:
            w.one(o["hand_hidden"])
        else:
            w.cards(o["hand"], view.hand)
        w.one(o["phase"] + _PHASE_INDEX[view.phase])
        if view.phase != Phase.DONE:
            w.seat(o["to_move"], view.to_move)
        w.seat(o["dealer"], view.dealer)
        w.seat(o["opener"], view.opener)
        for s in view.active:
            w.seat(o["active"], s)
        if view.golden:
            w.one(o["golden"])
        hand_scale = self.hand_scale
        for s, n in enumerate(view.hand_sizes):
            w.seat_value(o["hand_sizes"], s, n / hand_scale)
        if view.talon is not None:
            w.cards(o["talon"], view.talon)
        if view.talon_known:
            w.cards(o["talon_known"], view.talon_known)
        base = o["cut"]
        w.ones.extend(base + c for c in view.cut if c is not None)

    def _encode_auction(self, view: View, w: _Entries) -> None:
        """The bids and passes, the declarer and his contract, the talon's buy-outs."""
        o = self.offset
        p = self.players
        me = w.me
        top = float(self.actions.top)
        base = o["bids"]
        for s, m in view.auction:
            if mv.is_bid(m):  # its rung: the action space's, from the engine's encoding
                w.one(base + (self.actions.index(m) - FIRST_BID) * p + (s - me) % p)
        for s in view.passed:
            w.seat(o["passed"], s)
        if view.high_bid:
            w.value(o["high_bid"], view.high_bid / top)
        if view.high_bidder >= 0:
            w.seat(o["high_bidder"], view.high_bidder)
        if view.dark_bidder >= 0:
            w.seat(o["dark_bidder"], view.dark_bidder)
        if view.dark:
            w.one(o["dark"])
        if view.declarer >= 0:
            w.seat(o["declarer"], view.declarer)
            w.value(o["bid"], view.bid / top)
            w.value(o["contract"], view.contract / top)
        for s, price in view.buys:
            w.seat_value(o["buys"], s, price / top)
        if view.buy_price is not None:
            w.value(o["buy_price"], view.buy_price / top)

    def _encode_cards(self, view: View, w: _Entries) -> None:
        """The cards given and discarded, the trump, the tricks, the declarations and what
        each seat took."""
        o = self.offset
        p = self.players
        me = w.me
        base = o["given"]
        for c, to in view.given:
            if c is not None:
                w.one(base + (to - me) % p * 24 + c)
        if view.discards:
            w.cards(o["discards"], view.discards)
        w.one(o["trump"] + (view.trump if view.trump >= 0 else 4))
        if view.trump_declarer >= 0:
            w.seat(o["trump_declarer"], view.trump_declarer)
        if view.trick:
            base = o["trick"]
            for i, (_, c) in enumerate(view.trick):
                w.one(base + 24 * i + c)
            w.seat(o["trick_leader"], view.trick[0][0])
        if view.tricks:
            base = o["played"]
            for t in view.tricks:
                for s, c in t.cards:
                    w.one(base + (s - me) % p * 24 + c)
            base = o["last_trick"]
            for i, (_, c) in enumerate(view.tricks[-1].cards):
                w.one(base + 24 * i + c)
        for d in view.declarations:
            r = (d.seat - me) % p
            if d.kind in ("marriage", "half_marriage"):
                w.one(o["marriages"] + d.suit * p + r)
            elif d.kind == "ace_marriage":
                w.one(o["ace_marriage"] + r)
            else:
                w.one(o["four_nines"] + r)
        for s in range(p):
            if view.taken[s]:
                w.seat_value(o["taken"], s, view.taken[s] / 120.0)
            if view.tricks_won[s]:
                w.seat_value(o["tricks_won"], s, view.tricks_won[s] / self.tricks_scale)
            if view.bonus[s]:
                w.seat_value(o["bonus"], s, view.bonus[s] / 100.0)

    def _encode_sheet(self, view: View, w: _Entries) -> None:
        """The score sheet's line: scores, the barrel, bolts, concedes, falls, the deal."""
        g = view.game
        if g is None:
            return
        o = self.offset
        for s in range(self.players):
            if g.scores[s]:
                w.seat_value(o["scores"], s, g.scores[s] / 1000.0)
            if g.on_barrel[s]:
                w.seat(o["on_barrel"], s)
            left = g.barrel_deals_left[s]
            if left:
                w.seat_value(o["barrel_deals_left"], s, left / 3.0)
            if g.bolts[s]:
                w.seat_value(o["bolts"], s, g.bolts[s] / 3.0)
            if g.concedes[s]:
                w.seat_value(o["concedes"], s, g.concedes[s] / 3.0)
            if g.falls[s]:
                w.seat_value(o["falls"], s, g.falls[s] / 3.0)
        w.value(o["deal_number"], g.deal_number / 100.0)

    def visible_cards(self, vector: np.ndarray) -> int:
        """Every card the vector shows anywhere (a mask): a test checks that it is among
        the cards the view reveals (:meth:`thousand.engine.view.View.visible_cards`)."""
        mask = 0
        o = self.offset
        p = self.players
        t = self.trick_size
        blocks = [("hand", 1), ("talon", 1), ("talon_known", 1), ("cut", 1),
                  ("given", p), ("discards", 1), ("trick", t), ("played", p),
                  ("last_trick", t)]
        if p == 2:
            blocks.append(("other_talon", 1))
        for name, n in blocks:
            part = vector[o[name]:o[name] + 24 * n].reshape(n, 24)
            for c in np.nonzero(part.any(axis=0))[0]:
                mask |= 1 << int(c)
        return mask


def _cards(mask: int | None) -> str:
    return "?" if mask is None else "".join(cards_str(mask))


def view_key(view: View) -> str:
    """The view as a string: equal views give equal strings, and it holds nothing the view
    does not (the seat's own hand, the talon if seen, the cut as seen, its discards and the
    gives it saw, the deal's moves as the seat saw them, and the score sheet's line)."""
    given = ",".join(f"{'?' if c is None else c}>{to}" for c, to in view.given)
    cut = ",".join("?" if c is None else str(c) for c in view.cut)
    g = view.game
    sheet = ""
    talons = ""
    if view.players == 2:
        talons = f"|T:{view.talon_choice}:{_cards(view.other_talon)}"
    if g is not None:
        sheet = (f"{g.deal_number};{g.scores};{g.on_barrel};{g.barrel_deals_left};{g.bolts};"
                 f"{g.concedes};{g.falls};{int(g.golden)}")
    return (
        f"p{view.seat} d{view.dealer} o{view.opener} {'G' if view.golden else ''}"
        f"|h:{_cards(view.hand)}|t:{_cards(view.talon)}|k:{_cards(view.talon_known)}"
        f"|c:{cut}|x:{_cards(view.discards)}|g:{given}|m:{' '.join(view.history)}"
        f"|s:{sheet}{talons}"
    )
