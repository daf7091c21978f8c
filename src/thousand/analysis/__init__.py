"""The analysis of a finished game: every decision valued with what its player knew and
with every card open, marked by what it cost, summed up per player (docs/analysis.md).

>>> from thousand.analysis import analyse_record                       # doctest: +SKIP
>>> analyse_record(record, seats=[0], samples=48)["players"][0]["accuracy"]  # doctest: +SKIP
"""

from .marks import THRESHOLDS, accuracy, mark_of
from .report import analyse_record, count_decisions
from .walk import Decision, decisions

__all__ = ["THRESHOLDS", "Decision", "accuracy", "analyse_record", "count_decisions",
           "decisions", "mark_of"]
