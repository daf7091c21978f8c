"""The table drawn from the person's seat's wire view (:class:`TableDrawing`): the top
line, the seats, the middle of the table (the talon or talons, the auction, the trick),
the status line, the hand and the row of moves numbered as the screen shows them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rich.text import Text
from textual.widgets import Static

from thousand.engine import moves as mv
from thousand.words.catalogue import event_text, preset_name

from ..i18n import T
from ..render import (
    cards_points,
    discards_due,
    discards_in_deal,
    move_markup,
    phase_line,
    tricks_in_deal,
)
from ..sheet_view import plain
from .table_state import TableState
from .widgets import (
    Choice,
    ChoiceBar,
    HandView,
    SeatPanel,
    TablePanel,
    auction_text,
    card_text,
    sort_hand,
    trump_text,
)
from .words import W

#: The order of the word moves in the row of moves (numbers come after ``pass``).
_WORD_ORDER = {"pass": 0, "dark": 2, "look": 3, "buy": 4, "redeal": 5, "concede": 6,
               "talon 1": 7, "talon 2": 8}
#: Two players: the table's middle is this much wider, for the talons' rows.
TABLE_W_2 = 34


def _seat_points(view: dict[str, Any], seat: int) -> int:
    """The points a seat has in the deal: its tricks and declarations while it is played;
    once it has ended the engine's own count (``result.points``), which adds what the
    tricks do not show: the declarer's discards, and with two players the unchosen talon
    to the defender (RULES §4 "Two players" 3), so the panel says what the log says."""
    result = view.get("result")
    if result and result.get("outcome") == "played" and seat < len(result["points"]):
        return int(result["points"][seat])
    taken = (view.get("taken") or [0] * (seat + 1))[seat]
    bonus = (view.get("bonus") or [0] * (seat + 1))[seat]
    return int(taken + bonus)


class TableDrawing(TableState):
    """Everything on the table's screen drawn again from the seat's view
    (:meth:`_refresh`), after every event and every key."""

    def _display_view(self) -> dict[str, Any]:
        if self.paused and self._end_view is not None:
            view = dict(self._end_view)
            view["legal"] = []
            return view
        return self.table.view_json(self.human)

    def _refresh(self) -> None:
        view = self._display_view()
        if view.get("game"):
            self._game = dict(view["game"])
        if self._scored is not None and self._game is not None:
            self._game["scores"] = list(self._scored["scores"])
        self.view = view
        my_turn = (not self.paused and not self.busy and not self.table.over
                   and self.human is not None and self.table.to_move == self.human)
        self._make_choices(view if my_turn else None)
        self._draw_top(view)
        for seat in range(self.table.game.n):
            self._draw_seat(view, seat)
        self._draw_table(view)
        self._draw_status(view, my_turn)
        self._draw_moves(view)
        self._draw_keys()
        self._draw_message()

    def _draw_keys(self) -> None:
        """The line of keys that do something now: F3 once a trick is taken, F5 with
        open hands, F6 while concede is one of the moves (never with F3: a deal is
        conceded before its first trick), so that it holds in one line of 80."""
        names = ["key_help", "key_hint"]
        if self.view.get("tricks"):
            names.append("key_last")
        names.append("key_sheet")
        if self.open_hands:
            names.append("key_why")
        if any(c.move == "concede" for c in self.choices):
            names.append("key_concede")
        if any(c.move == "talon 1" for c in self.choices):
            names.append("key_talon")
        if self._can_analyse():
            names.append("key_analysis")
        names += ["key_save", "key_quit"]
        keys = " ".join(W(self.lang, name) for name in names)
        self.query_one("#keys", Static).update(Text(keys, style="dim"))

    def _make_choices(self, view: dict[str, Any] | None) -> None:
        old = self.choices[self.selected].move if self.choices else None
        self.choices = []
        if view is None:
            self.selected = 0
            return
        legal: list[str] = list(view["legal"])
        number = {m: 0 for m in legal}  # numbered below, in the order shown
        if view["phase"] in ("play", "exchange") and view["hand"]:
            primary: dict[str, str] = {}
            for card in sort_hand(view["hand"], self.rules.ten_strength):
                for m in (card + "+", card, "give " + card, "discard " + card):
                    if m in number:
                        primary[card] = m
                        self.choices.append(Choice(m, "hand", card_text(card, self.lang),
                                                   number[m], card))
                        break
            for m in legal:
                if m in primary.values():
                    continue
                if mv.is_card_play(mv.parse_move(m)):  # the card without its marriage
                    label = card_text(m, self.lang)
                    label.append(" " + W(self.lang, "no_declare"), style="dim")
                else:  # a word move beside the cards (the declarer's redeal)
                    label = self._label(m, view)
                self.choices.append(Choice(m, "bar", label, number[m]))
        else:
            def order(m: str) -> tuple[int, int]:
                if m in _WORD_ORDER:
                    return (_WORD_ORDER[m], 0)
                return (1, mv.value_of(mv.parse_move(m)))

            for m in sorted(legal, key=order):
                self.choices.append(Choice(m, "bar", self._label(m, view), number[m]))
        # Numbers follow the order on the screen: the hand from the left, then the row of
        # moves; a typed number means the same (:meth:`_numbered_view`).
        self.choices = [replace(c, number=i + 1) for i, c in enumerate(self.choices)]
        moves = [c.move for c in self.choices]
        if old in moves:
            self.selected = moves.index(old)
        elif "look" in moves:
            self.selected = moves.index("look")
        else:
            self.selected = 0

    def _label(self, move: str, view: dict[str, Any]) -> Text:
        m = mv.parse_move(move)
        if mv.is_bid(m) or mv.is_contract(m):
            text = move_markup(m, view, self.rules, self._nm, self.lang)
            if mv.is_contract(m) or text.startswith(T(self.lang, "opt_bid", n="")):
                return Text(str(mv.value_of(m)))
            return Text.from_markup(text)
        return Text.from_markup(move_markup(m, view, self.rules, self._nm, self.lang))

    def _draw_top(self, view: dict[str, Any]) -> None:
        lang = self.lang
        game = self._game or {}
        out = Text(W(lang, "title"), style="bold")
        out.append(" · " + preset_name(self.rules.preset, lang))
        if game.get("deal"):
            out.append(" · " + W(lang, "deal", n=game["deal"]))
        if view.get("golden"):
            out.append(" · " + W(lang, "golden"), style="bold yellow")
        if view.get("declarer") is not None and view.get("phase") not in ("auction",):
            out.append(" │ ")
            out.append_text(trump_text(view.get("trump"), lang))
            n = view.get("contract") or view.get("bid")
            out.append(" │ " + W(lang, "contract", name=self._who(view["declarer"]), n=n))
            if view.get("dark"):
                out.append(W(lang, "dark"))
        self.query_one("#top", Static).update(out)

    def _draw_seat(self, view: dict[str, Any], seat: int) -> None:
        lang = self.lang
        panel = self.query_one(f"#seat-{seat}", SeatPanel)
        game = self._game or {}
        phase = view.get("phase")
        active = view.get("active") or []
        to_move = (not self.paused and not self.table.over and view.get("to_move") == seat
                   and view.get("phase") != "over")
        title = ("▶ " if to_move else "") + self._who(seat)
        if seat == view.get("declarer") and phase not in ("dark choice", "auction"):
            title += " " + W(lang, "declarer", n=view.get("contract") or view.get("bid"))
        panel.border_title = title
        panel.set_class(to_move, "-to-move")
        panel.set_class(seat == self.human, "-you")
        # the score and its marks
        line1 = Text()
        scores = game.get("scores") or []
        if seat < len(scores):
            line1.append(str(scores[seat]), style="bold")
        if (game.get("on_barrel") or [False] * (seat + 1))[seat]:
            left = (game.get("barrel_deals_left") or [None] * (seat + 1))[seat]
            mark = W(lang, "barrel_left", n=left) if left is not None else W(lang, "barrel")
            line1.append("  " + mark, style="bold yellow")
        bolts = (game.get("bolts") or [0] * (seat + 1))[seat]
        if bolts:
            line1.append("  " + W(lang, "bolts", n=bolts), style="yellow")
        # the deal
        line2 = Text()
        if seat not in active:
            line2.append(W(lang, "sits_out_you" if seat == self.human else "sits_out"),
                         style="dim")
        elif phase in ("dark choice", "auction"):
            said = [a["move"] for a in view.get("auction") or () if a["seat"] == seat]
            if said:
                last = said[-1]
                if last == "pass":
                    line2.append(W(lang, "pass"), style="dim")
                elif last == "dark":
                    line2.append(W(lang, "dark_bid"), style="bold")
                else:
                    line2.append(W(lang, "bid", n=last), style="bold")
        elif phase in ("play", "over") or view.get("tricks"):
            tricks = (view.get("tricks_won") or [0] * (seat + 1))[seat]
            line2.append(W(lang, "tricks", n=tricks, points=_seat_points(view, seat)))
        # the cards
        hand: list[str] = []
        count = Text()
        sizes = view.get("hand_sizes") or []
        if self.open_hands and seat != self.human and seat in active and not self.paused:
            hand = self.table.view_json(seat)["hand"] or []
        if seat < len(sizes) and seat in active:
            count = Text(W(lang, "cards", n=sizes[seat]), style="dim")
        panel.show(line1, line2, hand=hand, count=count,
                   mark=W(lang, "dealer_mark_you" if seat == self.human else "dealer_mark")
                   if view.get("dealer") == seat else "",
                   lang=lang, ten_strength=self.rules.ten_strength)

    def _cards_line(self, head: str, cards: list[str] | None, hidden: int,
                    style: str = "") -> Text:
        """``head`` and the cards face up, or ``hidden`` cards face down (░)."""
        line = Text(head)
        if cards:
            for i, card in enumerate(cards):
                line.append(" " if i else "")
                line.append_text(card_text(card, self.lang, style))
        else:
            line.append(" ".join("░" * hidden), style="dim")
        return line

    def _talon_lines(self, view: dict[str, Any], panel: TablePanel) -> list[Text]:
        """The talon: three players' one, or two players' two (:meth:`_two_talons`)."""
        panel.talon_columns = []
        if self.table.game.n == 2:
            return self._two_talons(view, panel)
        if view.get("talon"):
            return [self._cards_line(W(self.lang, "talon") + ": ", view["talon"], 0)]
        line = Text(W(self.lang, "talon") + ": ")
        line.append("░ ░ ░" if view.get("declarer") is None else "—", style="dim")
        return [line]

    def _two_talons(self, view: dict[str, Any], panel: TablePanel) -> list[Text]:
        """Two players' talons side by side, each under its number (RULES §4 "Two players"
        3): face down until chosen; the chosen one face up as ``talon_shown`` says, with
        the declarer's ★; the other turned over when the deal ends, with its points to
        the defender under it.  While the person chooses, each says its key, and a click
        on a talon's column chooses it (``panel.talon_columns``)."""
        lang = self.lang
        chosen = view.get("talon_choice")
        other = view.get("other_talon")
        width = max(12, (panel.content_size.width or TABLE_W_2 - 4) // 2)
        columns: list[list[Text]] = []
        for n in (1, 2):
            cards = self._cards_line("", view.get("talon") if n == chosen else other, 2)
            if n == chosen:
                cards.append(" ★", style="bold")
            column = [Text(W(lang, "talon_n", n=n), style="bold"), cards]
            if "talon 1" in [c.move for c in self.choices]:
                column.append(Text(W(lang, "talon_key", n=n), style="bold cyan"))
                panel.talon_columns.append(((n - 1) * width, n * width, f"talon {n}"))
            elif chosen is not None and n != chosen and other:
                defender = self._opponent_of(view.get("declarer"))
                column.append(Text(W(lang, "to_defender", name=self._who(defender)[:10],
                                     points=cards_points(other)), style="bold"))
            columns.append(column)
        rows = []
        for i in range(max(len(c) for c in columns)):
            left = columns[0][i].copy() if i < len(columns[0]) else Text()
            left.pad_right(width - left.cell_len)
            rows.append(left.append_text(columns[1][i] if i < len(columns[1]) else Text()))
        return rows

    def _discard_line(self, view: dict[str, Any]) -> Text | None:
        """The declarer's discards so far (two players, ``discard_three``): face down, his
        own dim to him."""
        d = view.get("declarer")
        if d is None or not discards_due(self.rules):
            return None
        known = view.get("discards")
        if known is None:
            sizes = view.get("hand_sizes") or []
            held = self.table.game.hand_size + (2 if self.table.game.n == 2 else 3)
            count = max(0, held - sizes[d]) if d < len(sizes) else 0
        else:
            count = len(known)
        count = min(count, discards_in_deal(self.rules))
        if not count:
            return None
        return self._cards_line(W(self.lang, "discards") + ": ", known, count, "dim")

    def _draw_table(self, view: dict[str, Any]) -> None:
        lang = self.lang
        panel = self.query_one("#table", TablePanel)
        lines: list[Text] = self._talon_lines(view, panel)
        phase = view.get("phase")
        tricks = view.get("tricks") or []
        trick = view.get("trick") or []
        title = W(lang, "talon_choice") if phase == "talon choice" else W(lang, "on_table")
        if phase in ("dark choice", "auction") or (
            phase == "over" and not tricks and view.get("auction")
        ):
            title = W(lang, "auction")
            entries = list(view.get("auction") or [])[-6:]
            lines.extend(auction_text(self._who(a["seat"]), a["move"], lang) for a in entries)
        elif phase in ("talon choice", "exchange", "contract", "buy", "redeal offer") and (
                not tricks):
            discards = self._discard_line(view)
            if discards is not None:
                lines.append(discards)
            given = view.get("given") or []
            if given:
                lines.append(Text(W(lang, "given") + ":", style="dim"))
            for g in given:
                line = Text(f"→ {self._who(g['to'])[:12]:<12} ")
                if g.get("card"):
                    line.append_text(card_text(g["card"], lang))
                else:
                    line.append("░", style="dim")
                lines.append(line)
        else:
            showing_last = (self._show_last or not trick) and tricks
            if showing_last:
                last = tricks[-1]
                cards = [(c["seat"], c["card"]) for c in last["cards"]]
                title = W(lang, "last_trick", name=self._who(last["winner"]),
                          points=last["points"])
                winner = last["winner"]
            else:
                cards = [(t["seat"], t["card"]) for t in trick]
                winner = None
                title = W(lang, "trick_n", n=len(tricks) + 1, total=tricks_in_deal(self.rules))
            played = dict(cards)
            order = [s for s, _ in cards] + [s for s in self._lead_order(view, cards)
                                             if s not in played]
            for s in order:
                line = Text(f"{self._who(s)[:12]:<12} ",
                            style="bold" if s == winner else "")
                if s in played:
                    line.append_text(card_text(played[s], lang,
                                               "dim" if showing_last and s != winner else ""))
                else:
                    line.append("·", style="dim")
                lines.append(line)
        panel.border_title = title
        panel.update(Text("\n").join(lines))

    def _lead_order(self, view: dict[str, Any], cards: list[tuple[int, str]]) -> list[int]:
        active = list(view.get("active") or [])
        if not active:
            return []
        lead = cards[0][0] if cards else view.get("to_move", active[0])
        if lead not in active:
            return active
        i = active.index(lead)
        return active[i:] + active[:i]

    def _draw_status(self, view: dict[str, Any], my_turn: bool) -> None:
        lang = self.lang
        status = Text()
        if self.paused and self._scored is not None:
            status.append(plain(event_text(self._scored, lang, self.names)), style="bold")
        elif self.table.over:
            status.append(W(lang, "over_analysis" if self._can_analyse() else "over"),
                          style="bold green")
        elif self.busy == "bot" and self.thinking is not None:
            status.append(W(lang, "thinking", name=self._who(self.thinking)), style="italic")
        elif self.busy == "hint":
            status.append(W(lang, "hint_thinking"), style="italic")
        elif my_turn:
            line = phase_line(view, self.rules, self._nm, lang, open_hands=self.open_hands)
            status.append(W(lang, "you_move") + " ", style="bold green")
            without = [str(c.number) for c in self.choices
                       if c.where == "bar" and mv.is_card_play(mv.parse_move(c.move))]
            if line:
                status.append_text(Text.from_markup(line))
            elif without:
                status.append(W(lang, "declare_how", numbers=", ".join(without)))
            elif view.get("phase") == "play":
                status.append(W(lang, "how_to_play"), style="dim")
        self.query_one("#status", Static).update(status)

    def _draw_moves(self, view: dict[str, Any]) -> None:
        hand = self.query_one("#hand", HandView)
        bar = self.query_one("#bar", ChoiceBar)
        cards = view.get("hand")
        selected = self.choices[self.selected] if self.choices else None
        hand_choices = {c.card: c for c in self.choices if c.where == "hand" and c.card}
        if cards is None:
            sizes = view.get("hand_sizes") or []
            me = self.human
            count = sizes[me] if me is not None and me < len(sizes) else 0
            hand.show([], self.lang, face_down=count,
                      note=Text(W(self.lang, "hand_hidden"), style="dim"))
        else:
            hand.show(
                sort_hand(cards, self.rules.ten_strength), self.lang,
                numbers={c: ch.number for c, ch in hand_choices.items()},
                playable=set(hand_choices),
                selected=selected.card if selected is not None else None,
                dim_unplayable=bool(hand_choices),
                declares={c for c, ch in hand_choices.items() if ch.move.endswith("+")},
            )
        # Beside cards the row holds their other moves (a card without its marriage):
        # numbered like the cards over them.
        items = [(i, Text(f"{c.number} ").append_text(c.label) if hand_choices else c.label)
                 for i, c in enumerate(self.choices) if c.where == "bar"]
        title = None
        if self.paused:
            title = Text("▶ " + W(self.lang, "paused"), style="bold cyan")
        bar.show(items, self.selected if selected is not None and selected.where == "bar"
                 else None, title)
        shown = bool(items) or title is not None  # an empty row gives its room to the log
        if bar.display != shown:
            bar.display = shown
