"""``heuristic``: a bot that plays like a decent club player, from its view alone.

Auction
    It values its 7 cards (10 with two players, by their own model) with
    :func:`~thousand.bots.evaluate.predict_auction` (marriages,
    aces, guarded tens, top cards, a lone K or Q that the talon may complete), turns that
    into the chance of making each bid, and bids while that chance stays above
    ``bid_confidence``; the compulsory opening is the lowest bid.  It passes hopeless hands,
    bids only what brings it to the win when it sits on the barrel, demands a redeal it is
    entitled to when it would not bid anyway, and looks at its cards rather than bid dark.
Talon buy-out (``talon_buy``)
    Asked to buy the talon shown to all, it values its 7 cards with the talon by the play
    model (after the best exchange) and buys when the best contract from the price up is
    worth more than defending (about 35 points) and is made with at least
    ``bid_confidence``.
Two players' talons (RULES §4 "Two players")
    Both talons are unseen, so they are alike and its seed picks one, unless it knows a card
    of talon 2 (the dealer's glimpse at the cut): it then takes the talon worth more to its
    hand by the play model (averaged over the cards the talons may hold), which is talon 2
    for an ace, a ten or a marriage partner and talon 1 for a nine; the auction counts that
    card too.  With two players a bid must be surer, ``bid_confidence`` + 0.2 (a pass
    leaves the opponent a 100 he nearly always makes, not a contract to beat).
Exchange and contract
    It gives away (or discards) the cards whose loss costs least by the play model, never an
    ace or a marriage card while a cheaper card exists (with two players it discards two,
    their points its own); then it names the contract that
    maximises ``contract × (2·P(make) − 1)``, never below the bid; it concedes only where
    conceding costs less than the expected loss (the payment is the engine's own,
    :func:`thousand.engine.deal.concede_values`; a dark deal is never conceded).
Play (:mod:`thousand.bots.heuristic_play`)
    It declares marriages (cashing the sure winners first while there is no trump, the
    biggest marriage first, leading the queen), leads aces and other masters, draws trumps
    when it holds the top trump, leads low otherwise; following, it wins a trick worth
    winning with its cheapest sure winner, throws points on a trick its side has won, never
    a ten under an ace, trumps with the lowest trump that wins, and keeps marriage cards.

Everything comes from the :class:`~thousand.engine.view.View`: the cards seen played, who failed to
follow (voids), the cards given face up to it, the talon when shown.  Which card beats which
follows the rules' ``ten_strength`` (the engine's tables ``STRENGTH`` and
``HIGHER_BY_STRENGTH``), in the play and in the hand models.
"""

from __future__ import annotations

import math
import random

from thousand.engine import moves as mv
from thousand.engine.cards import (
    FULL_DECK,
    JACK,
    KING,
    MARRIAGE_MASK,
    NINE,
    POINTS,
    QUEEN,
    SUIT_MASK,
    SUIT_SYMBOLS,
    Card,
    Mask,
    card_label,
    cards_of,
    marriage_sum,
    points_of,
)
from thousand.engine.deal import Phase, concede_values, contract_choices, next_bid
from thousand.engine.moves import Move
from thousand.engine.view import View

from .base import Reason, ReasoningBot
from .evaluate import (
    HandModel,
    best_give,
    make_chance,
    model,
    predict_auction,
    predict_play,
    talon_value,
)
from .heuristic_play import play

#: What a defender scores in a deal on average (about a third of the card points); the
#: value of passing on a talon buy-out, and of the points a concede takes from each defender.
DEFENDER_POINTS = 35


def concede_possible(view: View, seat: int) -> bool:
    """Whether ``seat`` may concede as declarer in this deal, as far as the view tells
    (RULES §4 concede and its limits; a dark deal is never conceded, §7)."""
    r = view.rules
    if not r.concede or view.dark:
        return False
    g = view.game
    if g is None:
        return True
    if view.golden and not r.concede_in_golden:
        return False
    if not r.concede_on_barrel and any(g.on_barrel):
        return False
    return r.concede_limit is None or g.concedes[seat] < r.concede_limit


def concede_cost(view: View, seat: int, contract: int, hand: Mask) -> tuple[int, int]:
    """What conceding ``contract`` with ``hand`` costs ``seat``: (his loss, what each
    defender gets), from the engine's :func:`thousand.engine.deal.concede_values`, doubled in a
    golden deal, with the penalty of every ``concede_penalty_every``-th concede."""
    r = view.rules
    loss, pay = concede_values(r, contract, hand)
    if view.golden:
        loss, pay = 2 * loss, 2 * pay
    g = view.game
    every = r.concede_penalty_every
    if every and g is not None and (g.concedes[seat] + 1) % every == 0:
        loss += r.penalty
    return loss, pay


def _marriage_suits(hand: Mask) -> list[int]:
    return [s for s in range(4) if hand & MARRIAGE_MASK[s] == MARRIAGE_MASK[s]]


def _lone_marriage_cards(hand: Mask) -> bool:
    """Whether ``hand`` holds a king or queen whose partner is still to come."""
    return any(hand & MARRIAGE_MASK[s] not in (0, MARRIAGE_MASK[s]) for s in range(4))


#: Two players: what the defender scores in a deal on average, the unchosen talon's points
#: with his tricks (73.8 against the opener's 100 in ``python -m thousand.bots.calibrate
#: 40000 2 high 2``, docs/bots.md).
TWO_PLAYER_DEFENDER_POINTS = 74

#: Two players: how much surer of a bid than ``bid_confidence`` the bot must be.  A pass
#: leaves the opponent a 100 he makes most of the time while the defender takes about 74,
#: so a bid made in 55% loses to a pass: 0.75 scored 6.4 points a deal more than 0.55
#: (docs/bots.md), and 0.7 to 0.9 did alike.
TWO_PLAYER_CAUTION = 0.2


def _defender_points(view: View) -> int:
    """What a defender takes in a deal on average: a third of the deal with three, about
    half with two (RULES §4 "Two players" 3: the other talon's points are his too)."""
    return TWO_PLAYER_DEFENDER_POINTS if view.players == 2 else DEFENDER_POINTS


def _join(words: list[str], lang: str) -> str:
    """``a, b and c`` (Russian «a, b и c»)."""
    if len(words) < 2:
        return "".join(words)
    last = " и " if lang == "ru" else " and "
    return ", ".join(words[:-1]) + last + words[-1]


def _discard_reason(hand: Mask, discards: Mask, card: Card) -> Reason:
    """Why ``card`` goes with the other ``discards`` (two players, ``discard_three``): they
    are the cards the hand needs least by the play model, their points the declarer's;
    what they keep (the marriages) and what they open (a suit gone, to be trumped).  The
    card itself is not named: the move says it (docs/bots.md, hints)."""
    others = [c for c in cards_of(discards) if c != card]
    labels = {lang: _join([card_label(c, lang) for c in others], lang)
              for lang in ("en", "ru")}
    en = [f"with {labels['en']}, the cards the hand needs least"]
    ru = [f"вместе с {labels['ru']} — карты, которые нужны руке меньше всего"]
    pts = points_of(discards)
    if pts:
        en.append(f"their {pts} points count to the declarer")
        ru.append(f"их очки ({pts}) идут в зачёт разыгрывающему")
    kept = hand & ~discards
    marriages = ", ".join(SUIT_SYMBOLS[s] for s in _marriage_suits(kept))
    if marriages:
        several = len(_marriage_suits(kept)) > 1
        en.append(f"the {marriages} {'marriages stay' if several else 'marriage stays'}")
        ru.append(f"{'марьяжи' if several else 'марьяж'} {marriages} "
                  f"{'остаются' if several else 'остаётся'}")
    for s in range(4):
        if hand & SUIT_MASK[s] and not kept & SUIT_MASK[s]:
            en.append(f"no {SUIT_SYMBOLS[s]} left, so that suit can be trumped")
            ru.append(f"масть {SUIT_SYMBOLS[s]} уходит совсем: её можно будет бить козырем")
    return "; ".join(en), "; ".join(ru)


class HeuristicBot(ReasoningBot):
    """A rule-based player (see the module docstring).

    ``mistakes`` (0..1) is the chance, at each card it plays, of playing a random legal
    card instead: the ``beginner`` level is this bot with mistakes and bolder bids.
    ``bid_confidence`` is the chance of making a contract it wants before it bids it.
    """

    name = "heuristic"

    def __init__(
        self,
        seed: int | None = None,
        mistakes: float = 0.0,
        bid_confidence: float = 0.55,
        strict: bool = False,
    ) -> None:
        self.rng = random.Random(seed)
        self.mistakes = mistakes
        self.bid_confidence = bid_confidence
        #: re-raise its own errors instead of falling back to a safe move (for tests)
        self.strict = strict
        #: the last hand's talon values (two players with a glimpsed card): (key, values)
        self._talon_cache: tuple[object, tuple[float, float, float]] | None = None

    # ---------------------------------------------------------------- interface

    def decide_among(self, view: View) -> tuple[Move, Reason]:
        legal = view.legal
        if self.mistakes and view.phase == Phase.PLAY and self.rng.random() < self.mistakes:
            m = self.rng.choice([x for x in legal if x != mv.DARK] or list(legal))
            return m, ("a hunch", "наугад")
        try:
            move, reason = self._decide(view)
        except Exception:  # a bot must never stop a game: fall back to a sane legal move
            if self.strict:
                raise
            move, reason = self._fallback(view), ("a safe move", "осторожный ход")
        if move not in legal:
            if self.strict:
                raise ValueError(f"chose {mv.move_str(move)}, not legal here")
            move, reason = self._fallback(view), ("a safe move", "осторожный ход")
        return move, reason

    def _fallback(self, view: View) -> Move:
        legal = view.legal
        for m in (mv.LOOK, mv.PASS):
            if m in legal:
                return m
        cards = [m for m in legal if mv.is_card_play(m) and not mv.is_declare(m)]
        if cards:
            return min(cards, key=lambda m: (POINTS[m % 24], m % 6))
        return legal[0]

    def _decide(self, view: View) -> tuple[Move, Reason]:
        phase = view.phase
        if phase == Phase.DARK_CHOICE:
            return mv.LOOK, ("a blind bid is a gamble", "темнить вслепую — риск")
        if phase == Phase.AUCTION:
            return self._auction(view)
        if phase == Phase.BUY:
            return self._buy(view)
        if phase == Phase.TALON_CHOICE:
            return self._talon_choice(view)
        if phase == Phase.EXCHANGE:
            return self._exchange(view)
        if phase == Phase.CONTRACT:
            return self._contract(view)
        if phase == Phase.REDEAL_OFFER:
            return self._redeal_offer(view)
        if phase == Phase.PLAY:
            return play(view)
        return self._fallback(view), ("", "")

    # ------------------------------------------------------------------ auction

    def _score(self, view: View, seat: int) -> int:
        return view.game.scores[seat] if view.game is not None else 0

    def _on_barrel(self, view: View, seat: int) -> bool:
        return view.game is not None and view.game.on_barrel[seat]

    def _needed(self, view: View, seat: int) -> int:
        """The smallest contract worth playing for ``seat`` (on the barrel: the win)."""
        if self._on_barrel(view, seat):
            r = view.rules
            need = r.score_to_win - self._score(view, seat)
            return max(need, 100)
        return 0

    def max_bid(self, view: View) -> tuple[int, float]:
        """The highest bid this hand should play, and its predicted points."""
        assert view.hand is not None
        r = view.rules
        pred = predict_auction(view.hand, r.marriage_values, r.ten_strength, view.players)
        if r.exchange == "discard_three":
            pred += 6  # the discards are his, so the exchange costs nothing
        pred += self._glimpse_gain(view)
        sigma = self._model(view).auction_sigma
        conf = self.bid_confidence + (TWO_PLAYER_CAUTION if view.players == 2 else 0.0)
        # Someone about to win the game with the bid he holds: fight harder.
        hb = view.high_bidder
        if hb >= 0 and hb != view.seat and view.game is not None:
            need = self._needed(view, hb) or (r.score_to_win - self._score(view, hb))
            if view.high_bid >= need:
                conf -= 0.15
        best = 0
        b = 100
        while b <= 400:
            if make_chance(pred, b, sigma) >= conf:
                best = b
            else:
                break
            b = next_bid(r, b)
        return best, pred

    def _auction(self, view: View) -> tuple[Move, Reason]:
        legal = view.legal
        if view.hand is None:
            return self._fallback(view), ("", "")
        limit, pred = self.max_bid(view)
        need = self._needed(view, view.seat if view.seat is not None else 0)
        if need and limit < need:
            limit = 0
        bids = sorted(mv.value_of(m) for m in legal if mv.is_bid(m))
        if mv.REDEAL in legal and limit < 100:
            return mv.REDEAL, ("a weak hand", "слабая рука")
        if mv.PASS not in legal:  # the compulsory opening
            if not bids:
                return self._fallback(view), ("", "")
            return mv.bid(bids[0]), (
                f"the first bid is compulsory (hand worth about {pred:.0f})",
                f"первая ставка обязательна (рука стоит около {pred:.0f})",
            )
        en, ru = self._glimpse_note(view)
        if bids and bids[0] <= limit:
            return mv.bid(bids[0]), (
                f"the hand is worth about {pred:.0f}{en}: can play up to {limit}",
                f"рука стоит около {pred:.0f}{ru}: можно играть до {limit}",
            )
        return mv.PASS, (
            f"the hand is worth about {pred:.0f}{en}: not enough for "
            f"{bids[0] if bids else '-'}",
            f"рука стоит около {pred:.0f}{ru}: на {bids[0] if bids else '-'} не хватает",
        )

    # ------------------------------------------------------ two players' talons

    def _talon_values(self, view: View) -> tuple[float, float, float] | None:
        """Two players (RULES §4 "Two players" 1, 3): the worth of talon 1, of talon 2 and
        of a talon drawn blind, to this hand, when the seat knows a card of talon 2 (the
        dealer's glimpse at the cut); None when it knows none (the talons are alike).
        Kept for the hand, which the auction and the choice both ask about."""
        known = view.talon_known
        if view.players != 2 or not known or view.hand is None:
            return None
        r = view.rules
        key = (view.hand, known, r.marriage_values, r.ten_strength)
        if self._talon_cache is not None and self._talon_cache[0] == key:
            return self._talon_cache[1]
        hand = view.hand
        pool = FULL_DECK & ~hand
        values = r.marriage_values
        worth = (
            talon_value(hand, 0, pool & ~known, values, r.ten_strength),
            talon_value(hand, known, pool, values, r.ten_strength),
            talon_value(hand, 0, pool, values, r.ten_strength),
        )
        self._talon_cache = (key, worth)
        return worth

    def _glimpse_gain(self, view: View) -> float:
        """What the glimpsed talon card adds to the auction model, which counts a talon
        drawn blind: the better talon's worth over a blind one's."""
        worth = self._talon_values(view)
        if worth is None:
            return 0.0
        one, two, blind = worth
        return max(one, two) - blind

    def _glimpse_note(self, view: View) -> Reason:
        """Words for the auction's reason when the glimpsed card of talon 2 counts."""
        if abs(self._glimpse_gain(view)) < 0.5:
            return "", ""
        card = cards_of(view.talon_known)[0]
        return (f" counting the {card_label(card, 'en')} seen at the cut",
                f" с учётом карты {card_label(card, 'ru')}, увиденной при сдвиге")

    def _talon_choice(self, view: View) -> tuple[Move, Reason]:
        """Talon 1 or talon 2, both unseen (RULES §4 "Two players" 3): alike but for a card
        of talon 2 seen at the cut, which makes talon 2 better (an ace, a ten, a marriage
        partner) or worse (a nine, a jack) than two unknown cards; else the bot's seed
        decides."""
        worth = self._talon_values(view)
        if worth is None or abs(worth[0] - worth[1]) < 0.5:
            move = self.rng.choice(mv.TALONS)
            if worth is None:
                return move, ("both talons are unseen: either is as good",
                              "оба прикупа закрыты: они равноценны")
            card = cards_of(view.talon_known)[0]
            return move, (
                f"the {card_label(card, 'en')} seen at the cut changes little: either talon "
                "is as good",
                f"карта {card_label(card, 'ru')}, увиденная при сдвиге, почти ничего не "
                "меняет: прикупы равноценны",
            )
        one, two, _ = worth
        return (mv.TALON_2 if two > one else mv.TALON_1), self._talon_reason(view, one, two)

    @staticmethod
    def _talon_reason(view: View, one: float, two: float) -> Reason:
        """Why the talon chosen, by the glimpsed card of talon 2 and the two talons' worth;
        the talon itself is not named (the move says it): "it", "the other"."""
        assert view.hand is not None
        card = cards_of(view.talon_known)[0]
        en_c, ru_c = card_label(card, "en"), card_label(card, "ru")
        s = card // 6
        sym = SUIT_SYMBOLS[s]
        partner = card % 6 in (KING, QUEEN) and view.hand & MARRIAGE_MASK[s] & ~(1 << card)
        if two > one:
            en_what, ru_what = ((f" and makes the {sym} marriage", f", — марьяж {sym}")
                                if partner else ("", ""))
            return (
                f"the {en_c} seen at the cut lies in it{en_what}: the hand is worth about "
                f"{two:.0f} with it, {one:.0f} with the other",
                f"в нём карта {ru_c}, увиденная при сдвиге{ru_what}: с ним рука стоит около "
                f"{two:.0f}, с другим — около {one:.0f}",
            )
        if card % 6 not in (NINE, JACK) and _lone_marriage_cards(view.hand):
            return (
                f"two unknown cards are two chances to complete a marriage: the hand is worth "
                f"about {one:.0f} with them, {two:.0f} with the other talon and the {en_c} "
                "seen at the cut",
                f"две неизвестные карты — два шанса найти пару к королю или даме: с ними рука "
                f"стоит около {one:.0f}, с другим прикупом, где карта {ru_c}, увиденная при "
                f"сдвиге, — около {two:.0f}",
            )
        return (
            f"the {en_c} seen at the cut lies in the other talon and is worth less than an "
            f"unknown card: the hand is worth about {one:.0f} with this one, {two:.0f} with "
            "the other",
            f"карта {ru_c}, увиденная при сдвиге, лежит в другом прикупе и стоит меньше "
            f"неизвестной: с этим прикупом рука стоит около {one:.0f}, с другим — около "
            f"{two:.0f}",
        )

    # --------------------------------------------------------- exchange, contract

    @staticmethod
    def _model(view: View) -> HandModel:
        """The hand model of these rules: the card order and, for two, their own pair."""
        return model(view.rules.ten_strength, view.players)

    def _play_sigma(self, view: View) -> float:
        return self._model(view).play_sigma

    @staticmethod
    def _predict_play(view: View, hand: Mask) -> float:
        r = view.rules
        return predict_play(hand, r.marriage_values, r.ten_strength, view.players)

    @staticmethod
    def _discards_due(view: View) -> bool:
        """Whether the declarer discards (to his points) rather than gives: ``discard_three``
        and two players (RULES §4 "Two players" 3)."""
        return view.players == 2 or view.rules.exchange == "discard_three"

    def _exchange(self, view: View) -> tuple[Move, Reason]:
        assert view.hand is not None
        r = view.rules
        hand = view.hand
        discard = self._discards_due(view)
        done = view.discards or 0
        due = (2 if view.players == 2 else 3) if discard else 2
        n = due - (done.bit_count() if discard else len(view.given))
        give_mask, value = best_give(
            hand, r.marriage_values, n, discard, r.ten_strength, view.players
        )
        if mv.REDEAL in view.legal:
            need = max(view.bid, self._needed(view, view.declarer))
            p = make_chance(value, need, self._play_sigma(view))
            if p < 0.5:
                return mv.REDEAL, ("a weak talon and a hand that will not make it",
                                   "слабый прикуп, заказ не сыграть")
        cards = sorted(cards_of(give_mask), key=lambda c: -POINTS[c])
        card = cards[0]
        if discard:
            return mv.discard(card), _discard_reason(hand | done, done | give_mask, card)
        return mv.give(card), (
            "the card the hand needs least",
            "эта карта нужна меньше всего",
        )

    def _best_contract(
        self, view: View, pred: float, floor: int, cap: int, seat: int
    ) -> tuple[int, float, float]:
        """(contract, expected value, make chance) of the best contract from ``floor`` (the
        bid or the price of a bought talon) up to ``cap``, for a hand worth ``pred``: the
        one that maximises ``contract × (2·P(make) − 1)``; on the barrel a contract below
        the win gains nothing."""
        sigma = self._play_sigma(view)
        need = self._needed(view, seat)
        best = (floor, -math.inf, 0.0)
        for c in contract_choices(view.rules, floor, cap):
            p = make_chance(pred, c, sigma)
            ev = c * (2 * p - 1)
            if need and c < need:
                ev = -c * (1 - p)  # on the barrel a small contract gains nothing
            if ev > best[1] + 1e-9:
                best = (c, ev, p)
        return best

    def _contract(self, view: View) -> tuple[Move, Reason]:
        assert view.hand is not None
        pred = self._predict_play(view, view.hand)
        if self._discards_due(view) and view.discards is not None:
            pred += points_of(view.discards)
        # a dark or golden deal counts double (with dark_doubles=all the defenders' too)
        mult = (2 if view.dark else 1) * (2 if view.golden else 1)
        seat = view.declarer
        options = sorted(mv.value_of(m) for m in view.legal if mv.is_contract(m))
        floor = options[0]
        best_c, best_ev, _ = self._best_contract(view, pred, floor, options[-1], seat)
        p_bid = make_chance(pred, floor, self._play_sigma(view))
        if mv.CONCEDE in view.legal:
            play_ev = mult * best_ev
            loss, pay = concede_cost(view, seat, floor, view.hand)
            # Conceding gives each defender ``pay`` instead of the points they would take
            # (about a third of the deal each when the declarer fails).
            concede_ev = -loss - (pay - _defender_points(view) * (2 if view.golden else 1))
            if concede_ev > play_ev and p_bid < 0.4:
                return mv.CONCEDE, (
                    f"the hand is worth about {pred:.0f}, the contract {floor} is lost: "
                    f"conceding costs {loss}, {pay} to each opponent",
                    f"рука стоит около {pred:.0f}, заказ {floor} не сыграть: роспись стоит "
                    f"{loss}, вистующим по {pay}",
                )
        if best_c > floor:
            why = (f"the hand is worth about {pred:.0f}", f"рука стоит около {pred:.0f}")
        else:
            why = (f"the hand is worth about {pred:.0f}, no more",
                   f"рука стоит около {pred:.0f}, не больше")
        return mv.contract(best_c), why

    def buy_value(self, view: View) -> tuple[float, int, float, float, Mask]:
        """What buying the talon at ``view.buy_price`` is worth to the seat asked: (the
        hand's predicted points with the talon after its best exchange, the best contract
        from the price up, its make chance, its expected value, the cards it would keep)."""
        assert view.hand is not None and view.seat is not None and view.buy_price is not None
        r = view.rules
        values = r.marriage_values
        hand = view.hand | (view.talon or 0)
        discard = r.exchange == "discard_three"
        give, pred = best_give(hand, values, 3 if discard else 2, discard, r.ten_strength)
        kept = hand & ~give
        cap = r.bid_cap + marriage_sum(kept, values)
        c, ev, p = self._best_contract(view, pred, view.buy_price, cap, view.seat)
        return pred, c, p, ev, kept

    def _buy(self, view: View) -> tuple[Move, Reason]:
        """Talon buy-out (RULES §4 "Talon buy-out"): the talon is public now, so the hand the
        seat would play is known but for the exchange.  Buy when the best contract from
        the price up is worth more than defending and made with ``bid_confidence``."""
        assert view.hand is not None and view.seat is not None
        r = view.rules
        price = view.buy_price
        if price is None:
            return mv.PASS, ("", "")
        pred, c, p, ev, kept = self.buy_value(view)
        pass_ev: float = DEFENDER_POINTS
        conf = self.bid_confidence
        d = view.declarer
        if view.game is not None and d >= 0:
            # The declarer would win the game with his contract: fight harder.
            need = self._needed(view, d) or (r.score_to_win - self._score(view, d))
            if view.contract >= need:
                pass_ev -= 60
                conf -= 0.15
        mine = view.hand
        new = [s for s in _marriage_suits(kept) if mine & MARRIAGE_MASK[s] != MARRIAGE_MASK[s]]
        held = [s for s in _marriage_suits(kept) if s not in new]
        if new:
            names = ", ".join(SUIT_SYMBOLS[s] for s in new)
            en_m, ru_m = ("marriage", "марьяж") if len(new) == 1 else ("marriages", "марьяжи")
            what = (f"the talon completes the {names} {en_m}; ", f"прикуп даёт {ru_m} {names}; ")
        elif held:
            names = ", ".join(SUIT_SYMBOLS[s] for s in held)
            en_m, ru_m = ("marriage", "марьяжем") if len(held) == 1 else (
                "marriages", "марьяжами")
            what = (f"with the {names} {en_m} and the talon ", f"с {ru_m} {names} и прикупом ")
        else:
            what = ("with the talon ", "с прикупом ")
        pct = f"{100 * p:.0f}%"
        if ev > pass_ev and p >= conf:
            return mv.BUY, (
                f"{what[0]}the hand is worth about {pred:.0f}, "
                f"{c} is made in {pct} (by the hand model)",
                f"{what[1]}рука стоит около {pred:.0f}, "
                f"{c} играется в {pct} (по оценке руки)",
            )
        p_price = make_chance(pred, price, self._play_sigma(view))
        return mv.PASS, (
            f"{what[0]}the hand is worth about {pred:.0f}, "
            f"{price} is made in only {100 * p_price:.0f}%",
            f"{what[1]}рука стоит около {pred:.0f}, "
            f"{price} играется лишь в {100 * p_price:.0f}%",
        )

    def _redeal_offer(self, view: View) -> tuple[Move, Reason]:
        if view.seat != view.declarer:
            return mv.REDEAL, ("a redeal takes the contract away from the declarer",
                               "пересдача лишает разыгрывающего заказа")
        assert view.hand is not None
        pred = self._predict_play(view, view.hand)
        if self._discards_due(view) and view.discards is not None:
            pred += points_of(view.discards)
        if make_chance(pred, view.contract, self._play_sigma(view)) < 0.5:
            return mv.REDEAL, ("the contract looks lost", "заказ не сыграть")
        return mv.PASS, ("the contract can be made", "заказ сыграть можно")
