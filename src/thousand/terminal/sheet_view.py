"""The score sheet as a Rich table: :mod:`thousand.sheet`'s rows, drawn.

The engine's :mod:`thousand.sheet` says what the sheet holds (rows, marks, the lines
under it); this module only draws it, for ``thousand replay`` and the terminal game.

Every text comes from a record or the command line (the names above all), so none is
read as Rich markup (a player called ``[/]`` is written as such), and what a terminal
cannot show (a lone surrogate, a control character) is written as an escape instead
of breaking the output.
"""

from __future__ import annotations

import unicodedata

from rich import box
from rich.table import Table
from rich.text import Text

from thousand.game import Game
from thousand.sheet import Sheet, SheetRow, score_sheet

__all__ = ["plain", "render_score_sheet", "render_sheet"]

_RESULT_STYLE = {"made": "green", "failed": "red", "conceded": "yellow", "redeal": "cyan"}


def plain(text: str) -> str:
    """``text`` made safe to print: lone surrogates and control characters (other than
    the line breaks the sheet itself puts in) become visible ``\\x..``/``\\u....``
    escapes."""
    if text.isascii() and text.isprintable():
        return text
    out = []
    for ch in text:
        code = ord(ch)
        if 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04x}")
        elif ch != "\n" and unicodedata.category(ch) == "Cc":
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


def _text(text: str, style: str = "") -> Text:
    return Text(plain(text), style=style)


def _result(row: SheetRow) -> Text:
    text = _text(row.result, _RESULT_STYLE.get(row.outcome, ""))
    if row.redeal_by is not None:
        text.append(f" ({plain(row.redeal_by)})")
    if row.golden_restart:
        text.append("\n" + plain(row.golden_restart), style="bold magenta")
    return text


def render_score_sheet(sheet: Sheet) -> Table:
    """Draw a :class:`~thousand.sheet.Sheet`."""
    table = Table(
        title=_text(sheet.title),
        box=box.SIMPLE_HEAVY,
        caption=_text("\n".join(sheet.footer)),
        caption_justify="left",
        caption_style="",
        show_lines=False,
    )
    number, dealer, declarer, contract, result = sheet.headers
    table.add_column(_text(number), justify="right", no_wrap=True)
    for header in (dealer, declarer, contract, result):
        table.add_column(_text(header), no_wrap=True)
    for name in sheet.names:
        # "-1355 (+120)" on one line; the marks under it may wrap.
        table.add_column(_text(name), justify="right", min_width=12)
    for row in sheet.rows:
        cells: list[Text] = [
            Text(str(row.number)),
            _text(row.dealer),
            _text(row.declarer),
            _text(row.contract),
            _result(row),
        ]
        for entry in row.cells:
            cell = Text(str(entry.score), style="bold")
            if entry.change:
                cell.append(f" ({entry.change:+d})", style="dim")
            for mark in entry.marks:
                cell.append("\n")
                cell.append(plain(mark.text), style="bold red" if mark.loud else "yellow")
            cells.append(cell)
        table.add_row(*cells)
    return table


def render_sheet(game: Game, lang: str = "ru") -> Table:
    """The score sheet of ``game`` so far: a row per finished deal (redeals included),
    and under it the winner, or that the game goes on, and the settlement."""
    return render_score_sheet(score_sheet(game, lang))
