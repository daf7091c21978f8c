"""Saving and leaving the full-screen table (:class:`TableSaving`): the save after every
move (:mod:`~thousand.terminal.autosave`), a signal that ends the game saved, Ctrl+S, and
the question on leaving."""

from __future__ import annotations

import contextlib

from rich.text import Text

from ..autosave import exit_status, write_save
from ..i18n import T
from ..narration import _clip
from ..session import default_save_path
from ..sheet_view import plain
from .screens import TableScreens
from .widgets import LeaveScreen
from .words import W


class TableSaving(TableScreens):
    """The game saved (after every move, on a signal, on Ctrl+S) and left."""

    def _start_autosave(self) -> None:
        """Say where the game is saved after every move, save it, and take SIGTERM and
        SIGHUP (a closed window) as the end of the game, saved (:meth:`_stop`); a real
        SIGINT is Ctrl+C.  Handled in the event loop, so never inside a move."""
        import asyncio
        import signal

        if self.autosave is None:
            return
        self._write(Text(self.autosave.where(), style="dim"))
        self._autosaved()
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            for sig in (signal.SIGTERM, signal.SIGHUP):
                loop.add_signal_handler(sig, self._stop, int(sig))
            loop.add_signal_handler(signal.SIGINT, self.action_leave)

    def _stop(self, signum: int) -> None:
        """The game ends by a signal: saved, a line says where and how to go on."""
        import signal

        assert self.autosave is not None
        self._autosaved()
        self.exit_status = exit_status(signum)
        self.leaving = True
        self.farewell = [T(self.lang, "stopped", signal=signal.Signals(signum).name) + " "
                         + self.autosave.resume_line()]
        self.exit()

    def _autosaved(self) -> None:
        """Save after a move (autosave.py); a failure is said once."""
        if self.autosave is not None:
            problem = self.autosave.write(self.table)
            if problem:
                self._say(problem, "red")

    def _save(self, path: str) -> bool:
        why = write_save(path, self.table, self.human, self.seats.levels, self.lang,
                         self.open_hands)
        if why is not None:
            self._say(T(self.lang, "save_failed", path=_clip(path, 100), why=_clip(why, 80)),
                      "red")
            return False
        self.saved = path
        self._say(T(self.lang, "saved", path=plain(path)), "green")
        return True

    def action_save(self) -> None:
        self._save(self.save_path or self.saved or default_save_path())

    def action_leave(self) -> None:
        if self.table.over or self.leaving:
            self._leave()
            return
        saver = self.autosave
        auto = saver.path if saver is not None and saver.failed is None else None
        if auto is not None:  # saved after every move: what is offered is a copy
            path = default_save_path()
            question = W(self.lang, "save_copy_q")
            where = W(self.lang, "copy_file", auto=plain(auto), path=plain(path))
        else:
            path = self.save_path or self.saved or default_save_path()
            question = W(self.lang, "save_q")
            where = W(self.lang, "save_file", path=plain(path))

        def answered(what: str | None) -> None:
            if what == "save" and not self._save(path):
                return
            if what in ("save", "leave"):
                self._leave()
            else:  # staying: the terminal may have grown meanwhile
                self._fit(self.size)

        self.push_screen(LeaveScreen(question, where, W(self.lang, "yes"), W(self.lang, "no"),
                                     W(self.lang, "cancel")), answered)

    def _leave(self) -> None:
        self.leaving = True
        if self.saved:
            self.farewell.append(T(self.lang, "saved", path=plain(self.saved)))
        if self.autosave is not None and not self.table.over:
            self.farewell.append(self.autosave.resume_line())
        self.farewell.append(T(self.lang, "bye"))
        self.exit()
