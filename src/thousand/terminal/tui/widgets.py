"""The pieces of the full-screen table: the seats around it, the middle of the table, the
log, the hand as cards, the row of moves (the bid ladder), the command line, the screens
that open over the table (the score sheet, the help, the question before leaving), and the
notice that stands in for the table while the terminal is too small for it.

Nothing a player must read is cut: a seat grows to hold its lines, the log wraps again at
a new width, and a hand too wide for its row overlaps its cards.

Every widget draws what it is handed — the seat's wire view (docs/protocol.md) and
plain values — as :class:`rich.text.Text`, never as markup, so a player called ``[/]`` is
written as such.  The hand and the row of moves are drawn as one line of text each and
map a mouse click back to the card or the move under it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Button, Input, RichLog, Static

from thousand.engine.cards import STRENGTH, SUIT_SYMBOLS, card_label, parse_card

from .words import W

__all__ = [
    "BIG_STEP",
    "Choice",
    "ChoiceBar",
    "CommandLine",
    "HandView",
    "HelpScreen",
    "LeaveScreen",
    "SeatPanel",
    "SheetScreen",
    "TableLog",
    "TablePanel",
    "TooSmallScreen",
    "card_text",
    "compact_hand",
    "sort_hand",
    "trump_text",
]

SUIT_STYLE = ("bold", "bold", "bold red", "bold red")
#: A move across the whole row of moves, whatever its length (Home, End).
BIG_STEP = 10_000


def sort_hand(cards: Sequence[str], ten_strength: str = "high") -> list[str]:
    """Cards by suit (♠ ♣ ♦ ♥), the strongest of a suit first (the line mode's order)."""
    strength = STRENGTH[ten_strength]
    return sorted(cards, key=lambda c: (parse_card(c) // 6, -strength[parse_card(c)]))


def card_text(card: str, lang: str, style: str = "") -> Text:
    """One card, its suit in colour: ``К♥``."""
    c = parse_card(card)
    return Text(card_label(c, lang), style=f"{SUIT_STYLE[c // 6]} {style}".strip())


def trump_text(trump: str | None, lang: str) -> Text:
    """«козырь ♥» (the suit in colour), or «козыря нет»: from a wire view's ``trump``."""
    if trump is None:
        return Text(W(lang, "no_trump"))
    suit = "SCDH".index(trump)
    return Text.assemble(W(lang, "trump", suit=""), ("♠♣♦♥"[suit], SUIT_STYLE[suit]))


def auction_text(name: str, move: str, lang: str) -> Text:
    """One line of an auction: the bidder and his bid in ``lang`` («пас», «темню»), the
    same on the table and on the analysis screen."""
    line = Text(f"{name[:12]:<12} ")
    word = (W(lang, "pass") if move == "pass" else
            W(lang, "dark_bid") if move == "dark" else move)
    line.append(word, style="dim" if move == "pass" else "bold")
    return line


def compact_hand(cards: Sequence[str], lang: str, ten_strength: str = "high",
                 width: int | None = None) -> list[Text]:
    """A hand written short, a suit after its symbol, its ranks apart so that a ten and a
    nine stay two cards: ``♠Т К 10 9 ♥Д 10``.  With ``width`` the suits are laid out
    on as many lines of at most ``width`` columns as they need (a suit is never split
    unless it alone is wider)."""
    by_suit: dict[int, list[str]] = {}
    for card in sort_hand(cards, ten_strength):
        by_suit.setdefault(parse_card(card) // 6, []).append(card)
    lines: list[Text] = []
    for suit, group in by_suit.items():
        ranks = " ".join(card_label(parse_card(card), lang)[:-1] for card in group)
        text = Text(SUIT_SYMBOLS[suit] + ranks, style=SUIT_STYLE[suit])
        if lines and (width is None or lines[-1].cell_len + 1 + text.cell_len <= width):
            lines[-1].append(" ")
            lines[-1].append_text(text)
        else:
            lines.append(text)
    return lines


@dataclass(frozen=True)
class Choice:
    """A move the person may pick: its notation, where it is shown (a card of the hand,
    or the row of moves), its label there and its number in the view's ``legal``."""

    move: str
    where: str
    label: Text
    number: int
    card: str | None = None


class SeatPanel(Static):
    """A player at the table: the name on the frame, the score with the barrel and bolt
    marks, how the deal goes for him, his cards (face up in the open-hands mode).

    The lines are laid out to the panel's width whenever that changes: the score's marks
    (two spaces apart) go on a second line when they do not fit beside it, and a hand
    face up takes as many lines as it needs; the seats of a row all grow to the tallest
    (three lines at least), so that nothing is cut.  ``mark`` (the dealer) is on the lower
    frame."""

    LINES = 3

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._score = Text()
        self._state = Text()
        self._hand: list[str] = []
        self._count = Text()
        self._mark = ""
        self._lang = "ru"
        self._ten = "high"
        self.needed = self.LINES  # the lines this seat needs at its width

    def show(self, score: Text, state: Text, *, hand: Sequence[str] = (),
             count: Text | None = None,
             mark: str = "", lang: str = "ru", ten_strength: str = "high") -> None:
        """The seat's lines: ``hand`` face up, or ``count`` (how many cards he holds)."""
        self._score, self._state, self._hand = score, state, list(hand)
        self._count, self._mark = count or Text(), mark
        self._lang, self._ten = lang, ten_strength
        self._lay_out()

    def on_resize(self, event: events.Resize) -> None:
        self._lay_out()

    def _lay_out(self) -> None:
        width = self.content_size.width or None
        cards = (compact_hand(self._hand, self._lang, self._ten, width) if self._hand
                 else [self._count] if self._count else [])
        score: list[Text] = []
        for piece in self._score.split("  "):
            if score and (width is None or score[-1].cell_len + 2 + piece.cell_len <= width):
                score[-1].append("  ")
                score[-1].append_text(piece)
            else:
                score.append(piece)
        lines = [*score, self._state, *cards]
        self.border_subtitle = self._mark
        self.update(Text("\n").join(lines))
        self.needed = max(self.LINES, len(lines))
        if self.parent is not None:
            panels = list(self.parent.query(SeatPanel))
            height = 2 + max(p.needed for p in panels)  # and the frame
            for panel in panels:
                if panel.styles.height is None or panel.styles.height.value != height:
                    panel.styles.height = height


class TablePanel(Static):
    """The middle of the table: the talon, the auction so far or the trick.  With two
    players the two talons lie side by side on its first rows; while the person chooses
    one, a click on a talon's column posts :class:`TablePanel.TalonPicked` with its
    move."""

    #: the rows of the content the talons take
    TALON_ROWS = 3

    class TalonPicked(Message):
        def __init__(self, move: str) -> None:
            self.move = move
            super().__init__()

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: the columns (first, past the last) of the content where a click on the talons'
        #: rows picks a move: ``talon 1``, ``talon 2``
        self.talon_columns: list[tuple[int, int, str]] = []

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or not 0 <= offset.y < self.TALON_ROWS:
            return
        for start, end, move in self.talon_columns:
            if start <= offset.x < end:
                event.stop()
                self.post_message(self.TalonPicked(move))
                return


class TableLog(RichLog):
    """The log of the table.  A rich log keeps each line wrapped at the width it was
    written in, so a narrower terminal would cut them: when its width changes, the log
    writes its last :attr:`KEEP` lines again at the new width."""

    KEEP = 2000

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.texts: list[Text] = []
        self._width = 0

    def add(self, line: Text) -> None:
        self.texts.append(line)
        self.write(line)

    def on_resize(self, event: events.Resize) -> None:
        width = self.scrollable_content_region.width
        if width and self._width and width != self._width:
            self.clear()
            for line in self.texts[-self.KEEP:]:
                self.write(line, scroll_end=True)
        if width:
            self._width = width


class HandView(Widget):
    """The person's hand as cards, the one picked raised a line; over each card that may
    be played, its number in the list of moves, and a ``+`` beside a card whose move
    declares its marriage.  When the cards do not fit the width side by side they
    overlap, each still showing its number and its face (:meth:`step`).  A click on a
    card posts :class:`HandView.Clicked`."""

    CARD_W = 5
    GAP = 1
    #: The narrowest a card may be squeezed to: its left edge, rank and suit.
    MIN_STEP = 4

    class Clicked(Message):
        def __init__(self, card: str) -> None:
            self.card = card
            super().__init__()

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.lang = "ru"
        self.cards: list[str] = []
        self.face_down = 0
        self.numbers: dict[str, int] = {}
        self.playable: set[str] = set()
        self.selected: str | None = None
        self.dim_unplayable = False
        self.declares: set[str] = set()
        self.note: Text | None = None

    def show(self, cards: Sequence[str], lang: str, *, face_down: int = 0,
             numbers: Mapping[str, int] | None = None, playable: set[str] | None = None,
             selected: str | None = None, dim_unplayable: bool = False,
             declares: set[str] | None = None, note: Text | None = None) -> None:
        self.lang = lang
        self.cards = list(cards)
        self.face_down = face_down
        self.numbers = dict(numbers or {})
        self.playable = set(playable or ())
        self.selected = selected
        self.dim_unplayable = dim_unplayable
        self.declares = set(declares or ())
        self.note = note
        self.refresh()

    def step(self) -> int:
        """The columns from one card to the next: a card and a gap when the hand fits the
        width so, less (the cards overlap) when it does not, never under
        :attr:`MIN_STEP`."""
        count = len(self.cards) or self.face_down
        full = self.CARD_W + self.GAP
        width = self.size.width
        if count < 2 or width <= 0 or 1 + count * full <= width:
            return full
        return max(self.MIN_STEP, min(full, (width - 1 - self.CARD_W) // (count - 1)))

    def card_x(self, card: str) -> int:
        """The column where ``card`` begins (for a click)."""
        return 1 + self.cards.index(card) * self.step()

    def render(self) -> RenderableType:
        # Four rows leave room to raise the picked card; in three (a short terminal) it
        # stands out by its colour alone.
        height = 4 if self.size.height == 0 or self.size.height >= 4 else 3
        rows = [Text(" ") for _ in range(height)]
        count = len(self.cards) or self.face_down
        step = self.step()
        for i in range(count):
            card = self.cards[i] if self.cards else None
            raised = card is not None and card == self.selected
            edge = "bold yellow" if raised else ("dim" if self._dim(card) else "")
            number = str(self.numbers[card]) if card in self.numbers else ""
            top = "┌" + number + "─" * (self.CARD_W - 2 - len(number)) + "┐"
            mid = Text("│", style=edge)
            if card is None:
                mid.append("░" * (self.CARD_W - 2), style="dim")
            else:
                label = card_text(card, self.lang, "dim" if self._dim(card) else "")
                if card in self.declares:
                    label.append("+", style="bold magenta")
                label.pad_right(self.CARD_W - 2 - label.cell_len)
                if raised:
                    label.stylize("reverse")
                mid.append_text(label)
            mid.append("│", style=edge)
            bottom = "└" + "─" * (self.CARD_W - 2) + "┘"
            first = 0 if raised or height == 3 else 1
            last = i == count - 1
            for r in range(height):
                if r == first:
                    piece = Text(top, style=edge)
                elif r == first + 1:
                    piece = mid
                elif r == first + 2:
                    piece = Text(bottom, style=edge)
                else:
                    piece = Text(" " * self.CARD_W)
                piece.append(" " * self.GAP)
                if not last and step < piece.cell_len:  # the next card covers the rest
                    piece.truncate(step)
                rows[r].append_text(piece)
        if self.note is not None:
            rows[height - 2].append(" ")
            rows[height - 2].append_text(self.note)
        return Text("\n").join(rows)

    def _dim(self, card: str | None) -> bool:
        return self.dim_unplayable and card is not None and card not in self.playable

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or not self.cards:
            return
        step = self.step()
        index, within = divmod(offset.x - 1, step)
        if index >= len(self.cards) and offset.x - 1 < (len(self.cards) - 1) * step + self.CARD_W:
            index, within = len(self.cards) - 1, 0  # the uncovered right part of the last card
        if 0 <= index < len(self.cards) and within < self.CARD_W:
            event.stop()
            self.post_message(self.Clicked(self.cards[index]))


class ChoiceBar(Widget):
    """The moves that are not cards of the hand, in one row: the bid ladder (legal bids
    only) with pass, dark, look, buy, redeal and concede as the rules allow.  When the
    ladder is longer than the row, the part around the picked move is shown between
    ``‹`` and ``›``.  A click posts :class:`ChoiceBar.Picked` (a move) or
    :class:`ChoiceBar.Scrolled` (an arrow)."""

    class Picked(Message):
        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    class Scrolled(Message):
        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.items: list[tuple[int, Text]] = []  # (choice index, label)
        self.selected: int | None = None
        self.title: Text | None = None
        #: (first column, past the last, what a click there does, choice index)
        self.spans: list[tuple[int, int, str, int]] = []

    def show(self, items: Sequence[tuple[int, Text]], selected: int | None,
             title: Text | None = None) -> None:
        self.items = list(items)
        self.selected = selected
        self.title = title
        self.refresh()

    def _window(self, width: int) -> tuple[int, int]:
        """The items shown: ``[first, last)`` around the selected one."""
        widths = [label.cell_len + 3 for _, label in self.items]
        if sum(widths) <= width:
            return 0, len(self.items)
        pos = next((i for i, (c, _) in enumerate(self.items) if c == self.selected), 0)
        room = width - 4  # the arrows
        first, last, used = pos, pos + 1, widths[pos]
        while True:
            grew = False
            if last < len(widths) and used + widths[last] <= room:
                used += widths[last]
                last += 1
                grew = True
            if first > 0 and used + widths[first - 1] <= room:
                first -= 1
                used += widths[first]
                grew = True
            if not grew:
                return first, last

    def render(self) -> RenderableType:
        out = Text()
        self.spans = []
        if self.title is not None and self.title.cell_len:
            out.append_text(self.title)
            out.append(" ")
        width = max(10, self.size.width - out.cell_len)
        first, last = self._window(width)
        if first > 0:
            self.spans.append((out.cell_len, out.cell_len + 2, "scroll", self.items[first - 1][0]))
            out.append("‹ ", style="bold cyan")
        for index, label in self.items[first:last]:
            start = out.cell_len
            chip = Text(" ")
            chip.append_text(label)
            chip.append(" ")
            chip.stylize("reverse bold" if index == self.selected else "on grey23")
            out.append_text(chip)
            self.spans.append((start, out.cell_len, "pick", index))
            out.append(" ")
        if last < len(self.items):
            self.spans.append((out.cell_len, out.cell_len + 2, "scroll", self.items[last][0]))
            out.append(" ›", style="bold cyan")
        return out

    def x_of(self, index: int) -> int | None:
        """The column of the chip of choice ``index``, when it is shown."""
        for start, _end, what, i in self.spans:
            if what == "pick" and i == index:
                return start + 1
        return None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for start, end, what, index in self.spans:
            if start <= offset.x < end:
                event.stop()
                if what == "pick":
                    self.post_message(self.Picked(index))
                else:
                    self.post_message(self.Scrolled(index))
                return


class CommandLine(Input):
    """The line where a move is typed (a card, a number, a bid, a command).  While it is
    empty, the arrow keys pick among the moves instead of moving the cursor."""

    def __init__(self, mover: Callable[[int], None],
                 quick: Callable[[str], bool] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._mover = mover
        self._quick = quick

    async def _on_key(self, event: events.Key) -> None:
        """A key that is a move by itself now (``quick``: the two-player talon choice
        takes 1 and 2 without Enter) is that move while the line is empty; every other
        key is typed as usual (the input's own handler runs after this one)."""
        if (not self.value and event.character and self._quick is not None
                and self._quick(event.character)):
            event.stop()
            event.prevent_default()

    def action_cursor_left(self, select: bool = False) -> None:
        if not self.value:
            self._mover(-1)
        else:
            super().action_cursor_left(select)

    def action_cursor_right(self, select: bool = False) -> None:
        if not self.value:
            self._mover(1)
        else:
            super().action_cursor_right(select)

    def action_home(self, select: bool = False) -> None:
        """Home: to the first move (the start of the bid ladder) while the line is empty."""
        if not self.value:
            self._mover(-BIG_STEP)
        else:
            super().action_home(select)

    def action_end(self, select: bool = False) -> None:
        """End: to the last move (the top of the ladder, concede) while the line is empty."""
        if not self.value:
            self._mover(BIG_STEP)
        else:
            super().action_end(select)


class _Panel(ModalScreen[None]):
    """A screen over the table with a title and a body; Esc (or its own key) closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,enter,f1,f4", "close", show=False),
    ]

    def __init__(self, title: str, body: RenderableType, footer: str) -> None:
        super().__init__()
        self._title = title
        self._body = body
        self._footer = footer

    def compose(self) -> ComposeResult:
        with Vertical(id="panel-box") as box:
            box.border_title = self._title
            box.border_subtitle = self._footer
            with VerticalScroll(id="panel-body"):
                yield Static(self._body, id="panel-text")

    def on_mount(self) -> None:
        self.query_one("#panel-body", VerticalScroll).scroll_end(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


class SheetScreen(_Panel):
    """The score sheet (:func:`~thousand.terminal.tui.sheet_panel.sheet_panel`)."""


class HelpScreen(_Panel):
    """How to move and the keys."""

    def on_mount(self) -> None:
        pass  # the help is read from its top


class TooSmallScreen(Screen[None]):
    """The whole terminal, while it is smaller than the table needs: how big it must be.
    A screen of its own (not one over the table), so nothing of a table squeezed beyond
    reading shows; the app takes it away when the terminal grows."""

    def __init__(self, text: Text) -> None:
        super().__init__()
        self._text = text

    def compose(self) -> ComposeResult:
        yield Static(self._text, id="too-small")

    def show(self, text: Text) -> None:
        """Another size: the notice says it."""
        self._text = text
        if self.is_mounted:
            self.query_one("#too-small", Static).update(text)


class LeaveScreen(ModalScreen[str | None]):
    """Before leaving: save the game?  ``"save"``, ``"leave"`` or ``None`` (stay)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,д,l", "answer('save')", show=False),
        Binding("n,н", "answer('leave')", show=False),
        Binding("escape", "answer('')", show=False),
    ]

    def __init__(self, question: str, where: str, yes: str, no: str, cancel: str) -> None:
        super().__init__()
        self._question, self._where = question, where
        self._labels = (yes, no, cancel)

    def compose(self) -> ComposeResult:
        with Vertical(id="leave-box"):
            yield Static(Text(self._question, style="bold"))
            yield Static(Text(self._where))
            with Horizontal(id="leave-buttons"):
                yield Button(self._labels[0], id="save", variant="primary", compact=True)
                yield Button(self._labels[1], id="leave", compact=True)
                yield Button(self._labels[2], id="stay", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss({"save": "save", "leave": "leave"}.get(event.button.id or ""))

    def action_answer(self, what: str) -> None:
        self.dismiss(what or None)
