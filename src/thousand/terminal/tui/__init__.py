"""The full-screen table of ``thousand play`` (Textual): :class:`ThousandApp`.

``thousand play`` opens it when its output is a terminal; ``--plain`` keeps the line
mode (:mod:`thousand.terminal.session`), which pipes and screen readers get too.  Both
are clients of the table protocol and share :class:`~thousand.terminal.session.Seats`
(who plays each seat, what the bots do and when) and the save that ``--resume``
continues.
"""

from .app import ThousandApp

__all__ = ["ThousandApp"]
