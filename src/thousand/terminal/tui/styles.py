"""The look of the full-screen table (Textual CSS): made to fit 80×24 and to grow.

No line of words is cut: the header, the status, the message (a hint with its reason)
and the keys wrap onto a second line where they must (``height: auto``), and the middle
of the table gives up the rows they take.  Below the smallest size the table needs the
screen holds only ``#too-small``, which says so (``ThousandApp._fit``).

It is a Python string, not a ``.tcss`` file, so that it travels with the package however
it is installed."""

from __future__ import annotations

TABLE_CSS = """
Screen {
    layout: vertical;
    background: $background;
}

#too-small {
    height: 1fr;
    padding: 1 2;
}

#top {
    height: auto;
    max-height: 2;
    background: $primary 30%;
    padding: 0 1;
}

#seats {
    height: auto;
}

.seat {
    width: 1fr;
    height: 5;
    border: round $secondary;
    border-title-color: $text;
    border-subtitle-color: $text-muted;
    padding: 0 1;
    text-wrap: nowrap;
    text-overflow: ellipsis;
}

.seat.-you {
    border: round $success;
}

.seat.-to-move {
    border: heavy $warning;
    border-title-style: bold;
}

#middle {
    width: 100%;
    height: 1fr;
    min-height: 6;
}

#table {
    width: 30;
    height: 100%;
    border: round $primary;
    padding: 0 1;
}

#log {
    width: 1fr;
    height: 100%;
    background: $background;
    border: round $primary-darken-2;
    scrollbar-size-vertical: 1;
    padding: 0 1;
}

#status, #message {
    height: auto;
    max-height: 3;
    padding: 0 1;
}

#bar {
    height: 1;
    padding: 0 1;
}

#hand {
    height: 4;
}

#command {
    height: 1;
    margin: 0 1;
}

#keys {
    height: auto;
    max-height: 2;
    padding: 0 1;
    background: $primary 20%;
}

/* the screens over the table */

SheetScreen, HelpScreen {
    align: center middle;
}

#panel-box {
    width: 100%;
    max-width: 124;
    height: 100%;
    border: round $accent;
    border-title-style: bold;
    padding: 0 1;
    background: $surface;
}

#panel-body {
    height: 1fr;
}

LeaveScreen {
    align: center middle;
}

#leave-box {
    width: 60;
    max-width: 100%;
    height: auto;
    border: round $warning;
    padding: 1 2;
    background: $surface;
}

#leave-buttons {
    height: 1;
    margin-top: 1;
}

#leave-buttons Button {
    margin-right: 2;
}

#panel-text {
    width: auto;
    text-wrap: nowrap;
}

/* the sheet is a table drawn to the width (it must not wrap); the help is prose */
HelpScreen #panel-text {
    width: 1fr;
    text-wrap: wrap;
}

/* the analysis screen (F7): the position above, what the analysis says below */
#analysis-title {
    height: 1;
    background: $primary 30%;
    padding: 0 1;
}

#analysis-progress, #analysis-where, #analysis-keys {
    height: auto;
    padding: 0 1;
}

#analysis-table {
    width: 40;
    height: auto;
    min-height: 3;
    max-height: 8;
    border: round $primary;
    padding: 0 1;
}

#analysis-hand {
    height: 4;
}

#analysis-text {
    height: 1fr;
    padding: 0 1;
}

#analysis-summary {
    height: auto;
    padding: 0 1;
}
"""
