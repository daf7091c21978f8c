"""The score sheet as a Rich table: :mod:`thousand.words.sheet`'s rows, drawn to fit 80 columns.

The words' :mod:`thousand.words.sheet` says what the sheet holds (rows, marks, the lines
under it, the legend of its short notes); this module only draws it, for ``thousand
replay`` and the terminal game.  A row is one line as long as it can be: the deal's
number, who played, the contract with its flags (``120тз``), the result as a sign (✓ ✗ Р
П), and for each player the total, the change and the marks as short notes (``б3``,
``Б↓``); a note that does not fit beside the score goes under it.  Under the sheet: the
winner or that the game goes on, the settlement, and a legend of the signs and notes the
sheet uses.

Every text comes from a record or the command line (the names above all), so none is
read as Rich markup (a player called ``[/]`` is written as such), and what a terminal
cannot show (a lone surrogate, a control character) is written as an escape instead
of breaking the output.
"""

from __future__ import annotations

import unicodedata

from rich import box
from rich.cells import cell_len
from rich.table import Table
from rich.text import Text

from thousand.engine.game import Game
from thousand.words.sheet import Sheet, SheetCell, SheetRow, score_sheet

__all__ = ["SHEET_WIDTH", "plain", "render_score_sheet", "render_sheet"]

#: The width the sheet is drawn to fit (a terminal's usual width).
SHEET_WIDTH = 80

_RESULT_STYLE = {"made": "green", "failed": "red", "conceded": "yellow", "redeal": "cyan"}
#: Columns between two columns of the table (padding, the box's blank rule, padding).
_GAP = 3
#: The longest a name may be in the declarer column and in a player's header.
_NAME = 8


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


def _cut(text: str, width: int) -> str:
    """``text`` (made plain) in at most ``width`` columns, cut with "…"."""
    text = plain(text)
    if cell_len(text) <= width:
        return text
    out = ""
    for ch in text:
        if cell_len(out + ch) > width - 1:
            break
        out += ch
    return out + "…"


def _score(cell: SheetCell) -> str:
    return f"{cell.score} {cell.change:+d}" if cell.change else str(cell.score)


def _notes(cell: SheetCell) -> str:
    return " ".join(plain(m.code or m.text) for m in cell.marks)


def _player_cell(cell: SheetCell, width: int) -> Text:
    text = Text(_score(cell), style="bold")
    notes = _notes(cell)
    if notes:
        inline = cell_len(text.plain) + 1 + cell_len(notes) <= width
        text.append(" " if inline else "\n")
        loud = any(m.loud for m in cell.marks)
        text.append(notes, style="bold red" if loud else "yellow")
    return text


def _who(row: SheetRow) -> str:
    """The declarer, or for a redeal whoever demanded it."""
    if row.outcome == "redeal":
        return row.redeal_by or "—"
    return row.declarer


def render_score_sheet(sheet: Sheet, width: int = SHEET_WIDTH) -> Table:
    """Draw a :class:`~thousand.words.sheet.Sheet` no wider than ``width`` columns (its names
    shortened if they must be)."""
    rows = sheet.rows
    n = max(1, len(sheet.names))
    restart = "*"
    numbers = [str(r.number) + (restart if r.golden_restart else "") for r in rows]
    number_w = max([cell_len(sheet.headers[0])] + [len(x) for x in numbers])
    who_w = max([4] + [min(_NAME, cell_len(plain(_who(r)))) for r in rows])
    who_w = max(who_w, min(_NAME, cell_len(sheet.headers[2])))
    shorts = [cell_len(r.short) for r in rows]
    sign_w = 1
    score_w = max([5] + [cell_len(_score(c)) for r in rows for c in r.cells])

    def room_with(contract_w: int) -> int:
        fixed = number_w + who_w + contract_w + sign_w + (3 + n) * _GAP
        return (width - fixed) // n

    # The contract's header whole ("contract", «заказ») while the players' columns still
    # hold their scores; cut to six columns only when they would not.
    contract_w = max([cell_len(sheet.headers[3]), *shorts])
    if room_with(contract_w) < score_w:
        contract_w = max([min(6, cell_len(sheet.headers[3])), *shorts])
    room = max(6, room_with(contract_w))
    widest = max([score_w] + [cell_len(_score(c)) + 1 + cell_len(_notes(c))
                              for r in rows for c in r.cells if c.marks])
    names_w = max(min(room, cell_len(plain(nm))) for nm in sheet.names) if sheet.names else 0
    player_w = max(min(room, max(score_w, 1)), min(room, max(widest, names_w)))

    caption_lines = list(sheet.footer)
    if sheet.legend:
        legend = ", ".join(f"{note} {meaning}" for note, meaning in sheet.legend)
        caption_lines.append(f"{sheet.legend_title}: {legend}")
    if any(r.golden_restart for r in rows):
        note = next(r.golden_restart for r in rows if r.golden_restart)
        caption_lines.append(f"{restart} {note}")
    table = Table(
        title=Text(plain(sheet.title), style="bold"),
        box=box.SIMPLE, padding=(0, 1), pad_edge=False, show_edge=False,
        caption=Text(plain("\n".join(caption_lines))),
        caption_justify="left",
        caption_style="",
    )
    table.add_column(Text(plain(sheet.headers[0])), justify="right", no_wrap=True,
                     width=number_w)
    table.add_column(Text(_cut(sheet.headers[2], who_w)), no_wrap=True, width=who_w)
    table.add_column(Text(_cut(sheet.headers[3], contract_w)), no_wrap=True, width=contract_w)
    table.add_column(Text(" "), no_wrap=True, width=sign_w)
    for name in sheet.names:
        table.add_column(Text(_cut(name, player_w), style="bold"), justify="right",
                         no_wrap=True, width=player_w)
    for row, number in zip(rows, numbers, strict=True):
        style = _RESULT_STYLE.get(row.outcome, "")
        cells = [
            Text(number),
            Text(_cut(_who(row), who_w)),
            Text(plain(row.short or row.contract)),
            Text(plain(row.sign or row.result[:1]), style=style),
        ]
        cells += [_player_cell(c, player_w) for c in row.cells]
        table.add_row(*cells)
    return table


def render_sheet(game: Game, lang: str = "ru", width: int = SHEET_WIDTH) -> Table:
    """The score sheet of ``game`` so far: a row per finished deal (redeals included),
    and under it the winner, or that the game goes on, the settlement and the legend."""
    return render_score_sheet(score_sheet(game, lang), width)
