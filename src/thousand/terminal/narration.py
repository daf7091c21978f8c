"""The line mode's narration (:class:`Narration`): every event the person's seat receives,
told as a line of text in his language, and the helpers the terminal's two faces share to
choose and word them (:func:`visible_events`, :func:`about_seat`, :func:`inline_markup`).

:class:`~thousand.terminal.session.TerminalGame` is built on it: the game's loop, the
person's turn and saving are there; what the table says happened is here.  Every name is
printed as text, never read as Rich markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape

from thousand.engine.cards import JACK, NINE, parse_card
from thousand.engine.table import Table, audience_includes

from .i18n import T, has
from .render import (
    card_markup,
    cards_markup,
    cards_points,
    hand_markup,
    suit_markup,
    talon_ordinal,
    trick_markup,
)
from .sheet_view import plain

Event = dict[str, Any]

#: The game's marks that follow a deal's score (the sheet is drawn after them).
_MARKS = {"barrel_on", "fall", "knocked_off", "barrel_timeout", "bolt", "penalty",
          "bolt_samosval", "samosval", "fall_reset", "golden_restart"}
#: The longest piece of a person's input echoed back.
_ECHO = 40


def inline_markup(text: str) -> str:
    """``text`` as Rich markup that prints it exactly, for a place not followed directly
    by a tag (a name inside a sentence).  Only a ``[`` that could open a tag is escaped; a
    trailing backslash stays single (:func:`rich.markup.escape` doubles it, right only
    where a tag follows)."""
    return escape(text + " ")[:-1]


def _clip(text: str, limit: int = _ECHO) -> str:
    """A person's text as one short printable line (not yet escaped)."""
    one = " ".join(plain(text[: limit * 4]).split())
    return one if len(one) <= limit else one[: limit - 1] + "…"


def visible_events(events: Sequence[Event], seat: int | None, open_hands: bool = False
                   ) -> list[Event]:
    """The events a terminal shows the person at ``seat``: those whose audience includes
    the seat; in the open-hands mode every event, a secret's hidden twin left out (it
    follows the full one)."""
    if not open_hands:
        return [e for e in events if audience_includes(e["audience"], seat)]
    out: list[Event] = []
    for e in events:
        aud = e["audience"]
        if (
            isinstance(aud, dict) and "except" in aud and out
            and out[-1]["type"] == e["type"] and out[-1]["audience"] == {"seats": aud["except"]}
        ):
            continue
        out.append(e)
    return out


def about_seat(lang: str, key: str, seat: int | None, reader: int | None, name: str,
               **params: object) -> str:
    """The text ``key`` about ``seat`` (called ``name``): in the second person when the
    seat is the ``reader``'s own and the words have that form, else with the name."""
    if seat is not None and seat == reader and has(lang, key + "_you"):
        return T(lang, key + "_you", **params)
    return T(lang, key, name=name, **params)


class Narration:
    """The events of a table told to the person at ``human`` (``None``: a watcher), as lines
    on ``console`` in ``lang``; with ``open_hands`` every seat's events."""

    def __init__(self, table: Table, human: int | None, console: Console, lang: str,
                 open_hands: bool) -> None:
        self.table = table
        self.human = human
        self.console = console
        self.lang = lang
        self.open_hands = open_hands
        self.names = list(table.names)
        #: the names as markup: never read as styles
        self._nm = [inline_markup(plain(n)) for n in self.names]
        self.rules = table.rules
        # what the events of the current deal said so far
        self._deal: Event = {}
        self._tricks = 0
        self._bids = 0
        self._sheet_due = False
        #: the declarer of the deal (two players: the unchosen talon is his opponent's)
        self._declarer: int | None = None
        #: two players: the talon line was said with the choice of it
        self._talon_told = False

    def say(self, text: str = "") -> None:
        self.console.print(text, highlight=False)

    def _t(self, key: str, **params: object) -> str:
        return T(self.lang, key, **params)

    def _as(self, key: str, seat: int | None, **params: object) -> str:
        return about_seat(self.lang, key, seat, self.human, self._name(seat), **params)

    def _name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self._nm):
            return "—"
        return self._nm[seat]

    def _user(self, text: str, limit: int = _ECHO) -> str:
        """What a person typed, safe to print: one short line, no markup."""
        return escape(_clip(text, limit))

    def _visible(self, events: Sequence[Event]) -> list[Event]:
        return visible_events(events, self.human, self.open_hands)

    def _show(self, events: Sequence[Event]) -> None:
        shown = self._visible(events)
        for i, e in enumerate(shown):
            if self._sheet_due and e["type"] not in _MARKS:
                self._sheet()
            handler = getattr(self, "_on_" + e["type"], None)
            if handler is not None:
                handler(e, shown[i + 1:])
        if self._sheet_due:
            self._sheet()

    def _on_deal_started(self, e: Event, rest: list[Event]) -> None:
        self._deal = e
        self._tricks = 0
        self._bids = 0
        self._declarer = None
        golden = ""
        if e["golden"] and e["opener"] == self.human:
            golden = self._t("golden_you")
        elif e["golden"]:
            golden = self._t("golden", player=self._name(e["opener"]))
        self.say()
        header = self._t("deal_header", n=e["number"], dealer=self._name(e["dealer"]),
                         golden=golden)
        self.say(f"[bold]{header}[/]")
        if e["dealer"] not in e["active"]:
            self.say(self._as("sits_out", e["dealer"]))

    def _on_cut(self, e: Event, rest: list[Event]) -> None:
        """The cut (RULES §4): nines and a jack are shown to all; the bottom card the dealer
        glimpses (a talon card) is told only to the dealer."""
        dealer = self._deal.get("dealer", 0)
        who = {"cutter": self._name((dealer + 1) % len(self.names)),
               "dealer": self._name(dealer)}
        for i, c in enumerate(e["cards"]):
            if c is None:
                self.say(self._t("cut_glimpse_hidden", **who))
                continue
            card = card_markup(c, self.lang)
            rank = parse_card(c) % 6
            if rank == NINE and i == 2:
                self.say(self._t("cut_third_nine", card=card, penalty=self.rules.penalty, **who))
            elif rank == NINE:
                self.say(self._t("cut_nine", card=card, **who))
            elif rank == JACK:
                self.say(self._t("cut_jack", card=card, **who))
            elif dealer == self.human:
                self.say(f"[bold]{self._t('cut_glimpse_you', card=card, **who)}[/]")
            else:
                self.say(self._t("cut_glimpse_open", card=card, **who))

    def _on_hand(self, e: Event, rest: list[Event]) -> None:
        hand = hand_markup(e["cards"], self.lang, self.rules.ten_strength)
        if e["seat"] == self.human:
            self.say(f"  {self._t('your_hand')}: {hand}")
        else:
            self.say(f"  {self._t('hand_of', name=self._name(e['seat']))}: {hand}")

    def _on_look(self, e: Event, rest: list[Event]) -> None:
        if e["seat"] != self.human:
            self.say(self._t("look_other", name=self._name(e["seat"])))

    def _on_dark(self, e: Event, rest: list[Event]) -> None:
        self.say(self._t("dark", name=self._name(e["seat"])))

    def _on_bid(self, e: Event, rest: list[Event]) -> None:
        self._bids += 1
        name = self._name(e["seat"])
        if self._bids == 1 and e["value"] == 100 and self.rules.opening_bid == "exactly_100":
            self.say(self._t("sits_on_100", name=name))
        else:
            self.say(self._t("bids", name=name, bid=e["value"]))

    def _on_pass(self, e: Event, rest: list[Event]) -> None:
        key = {"buy": "no_buy", "redeal offer": "redeal_pass"}.get(e["phase"], "passes")
        self.say(self._t(key, name=self._name(e["seat"])))

    def _on_redeal(self, e: Event, rest: list[Event]) -> None:
        self.say(self._as("redeal", e["seat"]))

    def _on_declarer(self, e: Event, rest: list[Event]) -> None:
        self._declarer = e["seat"]
        if not e["golden"]:
            dark = self._t("dark_mark") if e["dark"] else ""
            self.say(f"[bold]{self._as('declarer', e['seat'], bid=e['bid'], dark=dark)}[/]")

    def _on_talon_choice(self, e: Event, rest: list[Event]) -> None:
        """Two players: which talon the declarer takes, with its cards when they are shown
        (the talon event that follows, said here in the same line)."""
        which = talon_ordinal(e["talon"], self.lang)
        talon = next((later for later in rest if later["type"] == "talon"), None)
        if talon is None:
            self.say(self._as("talon_chosen", e["seat"], which=which))
            return
        self._talon_told = True
        if talon["cards"] is not None:
            self.say(self._as("talon_chosen_open", e["seat"], which=which,
                              cards=cards_markup(talon["cards"], self.lang)))
        else:
            self.say(self._as("talon_chosen_hidden", e["seat"], which=which))

    def _on_other_talon(self, e: Event, rest: list[Event]) -> None:
        """Two players: the talon nobody took, turned over when the deal ends; its points
        went to the defender (RULES §4 "Two players" 3)."""
        active = self._deal.get("active") or range(len(self.names))
        defender = next((s for s in active if s != self._declarer), None)
        text = self._as("other_talon", defender, which=talon_ordinal(e["talon"], self.lang),
                        cards=cards_markup(e["cards"], self.lang),
                        points=cards_points(e["cards"]))
        self.say(f"[bold]{text}[/]")

    def _on_talon(self, e: Event, rest: list[Event]) -> None:
        if self._talon_told:  # said with the choice of it
            self._talon_told = False
            return
        if e["cards"] is not None:
            self.say(self._as("talon_taken", e["seat"],
                              cards=cards_markup(e["cards"], self.lang)))
        else:
            self.say(self._as("talon_taken_hidden", e["seat"]))

    def _on_buy(self, e: Event, rest: list[Event]) -> None:
        text = self._as("buys", e["seat"], price=e["price"], seller=self._name(e["seller"]))
        self.say(f"[bold]{text}[/]")

    def _on_give(self, e: Event, rest: list[Event]) -> None:
        seat, to, card = e["seat"], e["to_seat"], e["card"]
        name, to_name = self._name(seat), self._name(to)
        if card is not None and seat == self.human:
            self.say(self._t("you_give", card=card_markup(card, self.lang), to=to_name))
        elif card is not None and to == self.human:
            self.say(self._t("gives_you", name=name, card=card_markup(card, self.lang)))
        elif card is not None:
            self.say(self._t("gives_open", name=name, card=card_markup(card, self.lang),
                             to=to_name))
        else:
            self.say(self._t("gives", name=name, to=to_name))

    def _on_discard(self, e: Event, rest: list[Event]) -> None:
        seat, card = e["seat"], e["card"]
        if card is not None and seat == self.human:
            self.say(self._t("you_discard", card=card_markup(card, self.lang)))
        elif card is not None:
            self.say(self._t("discards_open", name=self._name(seat),
                             card=card_markup(card, self.lang)))
        else:
            self.say(self._t("discards", name=self._name(seat)))

    def _on_contract(self, e: Event, rest: list[Event]) -> None:
        self.say(f"[bold]{self._as('contract', e['seat'], n=e['value'])}[/]")

    def _on_concede(self, e: Event, rest: list[Event]) -> None:
        self.say(self._as("concedes", e["seat"], n=e["contract"]))

    def _on_card(self, e: Event, rest: list[Event]) -> None:
        # the card that ends a trick is shown in the trick's line
        for later in rest:
            if later["type"] == "trick":
                return
            if later["type"] == "card":
                break
        self.say(self._t("plays", name=self._name(e["seat"]),
                         card=card_markup(e["card"], self.lang)))

    def _on_declaration(self, e: Event, rest: list[Event]) -> None:
        text = self._as(e["kind"], e["seat"], suit=suit_markup(e["suit"], self.lang),
                        points=e["points"])
        self.say(f"[bold magenta]{text}[/]")

    def _on_trick(self, e: Event, rest: list[Event]) -> None:
        self._tricks += 1
        self.say(self._as(
            "trick", e["winner"], n=self._tricks,
            cards=trick_markup(e["cards"], self._nm, self.lang), points=e["points"],
        ))

    def _on_deal_scored(self, e: Event, rest: list[Event]) -> None:
        self.say(f"[bold]{self._t('deal_over')}[/]")
        d = e["declarer"]
        if e["outcome"] == "redeal":
            if e["redeal_by"] is not None:
                self.say(self._t("redealt_by", name=self._name(e["redeal_by"])))
            else:
                self.say(self._t("redealt"))
        elif e["outcome"] == "conceded" and d is not None:
            self.say(self._as("conceded", d, n=e["contract"]))
        elif d is not None:
            key = "made" if e["made"] else "failed"
            text = self._as(key, d, n=e["contract"], points=e["points"][d])
            self.say(f"[bold]{text}[/]")
            active = self._deal.get("active") or range(len(self.names))
            items = ", ".join(f"{self._name(s)} {e['points'][s]}" for s in active)
            self.say(self._t("points_line", items=items))
        if e["outcome"] != "redeal":
            if e["golden"]:
                self.say(self._t("golden_made"))
            elif e["dark"]:
                self.say(self._t("dark_made"))
        self._sheet_due = True

    def _mark(self, key: str, e: Event, **params: object) -> None:
        self.say(f"[bold red]{self._as(key, e['seat'], **params)}[/]")

    def _on_barrel_on(self, e: Event, rest: list[Event]) -> None:
        self._mark("barrel_on", e)

    def _on_fall(self, e: Event, rest: list[Event]) -> None:
        self._mark("fall", e)

    def _on_knocked_off(self, e: Event, rest: list[Event]) -> None:
        self._mark("knocked_off", e, amount=e["amount"])

    def _on_barrel_timeout(self, e: Event, rest: list[Event]) -> None:
        self._mark("barrel_timeout", e, amount=e["amount"])

    def _on_bolt(self, e: Event, rest: list[Event]) -> None:
        what = "bolt_no_points" if self.rules.bolt_means == "no_points" else "bolt_no_trick"
        self._mark("bolt", e, what=self._t(what))

    def _on_penalty(self, e: Event, rest: list[Event]) -> None:
        self._mark("penalty", e, amount=e["amount"], reason=self._t("penalty_" + e["reason"]))

    def _on_bolt_samosval(self, e: Event, rest: list[Event]) -> None:
        self._mark("bolt_samosval", e, old=-e["amount"])

    def _on_samosval(self, e: Event, rest: list[Event]) -> None:
        self._mark("samosval", e, old=-e["amount"])

    def _on_fall_reset(self, e: Event, rest: list[Event]) -> None:
        self._mark("fall_reset", e, score=self.rules.barrel_reset_score)

    def _on_golden_restart(self, e: Event, rest: list[Event]) -> None:
        self.say(f"[bold red]{self._t('golden_restart')}[/]")

    def _on_game_over(self, e: Event, rest: list[Event]) -> None:
        self.say()
        self.say(f"[bold]{self._t('game_over')}[/]")
        w = e["winner"]
        if isinstance(w, list):
            self.say(self._t("shared", names=", ".join(self._name(s) for s in w)))
        elif w is not None:
            self.say(f"[bold green]{self._t('winner', name=self._name(w))}[/]")
            if w == self.human:
                self.say(self._t("you_win"))
        items = ", ".join(f"{self._name(s)} {sc}" for s, sc in enumerate(e["scores"]))
        self.say(self._t("scores", items=items))
        owed = e.get("settlement")
        if owed:
            debts = [self._as("owes", s, n=n) for s, n in enumerate(owed) if n]
            if debts:
                self.say(self._t("settlement", items=", ".join(debts)))

    def _sheet(self) -> None:
        from thousand.terminal.sheet_view import render_sheet

        self._sheet_due = False
        self.console.print(render_sheet(self.table.game, self.lang))
