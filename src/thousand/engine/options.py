"""What a house-rule option is, besides its words: the shape of its one declaration.

Every option of RULES §4 is declared once, as a field of :class:`thousand.engine.rules.Rules`
made by :func:`option`: its name (the field's), its type (the field's annotation), its default
(the ``classic`` value), the values it takes (:class:`Spec`), its group on the rules pages
and the site's option picker (:data:`GROUPS`), how far into the game it reaches
(:data:`Reach`) and the C field that carries it, or :data:`NOT_IN_C`.
:data:`thousand.engine.rules.OPTIONS` reads these declarations off the fields, and everything
else is made from that table: the validation, the record's and the command line's
spellings, the rules pages' and the picker's groups, and what the C paths refuse.

Why the C field is declared here: the solver's C core plays the card play and the fast path
of :mod:`thousand.envs.fastsim` plays whole deals, each reading a struct of C fields
(:mod:`thousand.solver.native_options`).  An option a path does not read would be silently
ignored there; so each path plays a ruleset only when every option within its reach is at
its default or declared as read by it (an allow-list), and refuses otherwise.  A new option
is refused by both until its declaration says otherwise.

The words for people (titles, explanations, group titles) are not here: the engine imports
no words; they are keyed by option and group name in the words module, and a test requires
words for exactly the declared options.  This module imports nothing of the project.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

__all__ = [
    "GROUPS", "IN_C", "NOT_IN_C", "REACHES", "Group", "InC", "Option", "Reach", "Spec",
    "declarations", "option",
]

#: The groups of the options, in the order of the rules pages' sections ("Every agreement"):
#: the players and the deal, the auction, the dark bid, the talon and the exchange, redeals,
#: the card play, marriages and bonuses, scoring, conceding, bolts / samosval / the penalty,
#: the barrel, golden deals, the end of the game.
Group = Literal["players", "auction", "dark", "talon", "redeals", "play", "marriages",
                "scoring", "conceding", "bolts", "barrel", "golden", "end"]
GROUPS: tuple[Group, ...] = get_args(Group)

#: How far into the game an option reaches, which says which C path must read it:
#:
#: * ``play``: it changes the card play (who may play what, who takes a trick, what a
#:   declaration is worth): the solver's C core and the fast path must both read it;
#: * ``deal``: it changes a deal around the card play (the deal, the auction, the talon, the
#:   exchange, the deal's score): the fast path must read it, which plays whole deals;
#: * ``game``: it is read between deals only (:mod:`thousand.engine.game`: the barrel, bolts,
#:   penalties, the end): no C path plays more than one deal, so none needs it.
Reach = Literal["play", "deal", "game"]
REACHES: tuple[Reach, ...] = get_args(Reach)


@dataclass(frozen=True, slots=True)
class InC:
    """The C field that carries an option: a member of ``PlayOpts`` for a ``play`` option,
    of ``DealOpts`` for a ``deal`` one (:mod:`thousand.solver.native_options` says how the
    value is encoded); ``""`` is the option's own name.  ``fast_path=False``: the fast
    path refuses a value other than the default even so (its deal code is not written for
    it)."""

    field: str = ""
    fast_path: bool = True


#: The declaration of an option that C reads under its own name.
IN_C = InC()
#: The declaration of an option that no C code reads: each C path within its reach refuses
#: a value other than the default.
NOT_IN_C: InC | None = None


@dataclass(frozen=True, slots=True)
class Spec:
    """How one option's value is checked, read from JSON or CLI text, and written.

    ``kind`` is one of ``bool``, ``int``, ``choice`` (a word), ``marriages``,
    ``ints`` (samosval), ``int_or_word`` (concede_opponents_get) or ``bool_or_word``
    (concede_declarer_loses).
    """

    kind: str
    choices: tuple[Any, ...] = ()
    optional: bool = False
    minimum: int | None = None
    maximum: int | None = None
    multiple: int = 1
    words: tuple[str, ...] = ()
    allowed_text: str = ""

    def allowed(self, none_word: str = "none") -> str:
        """The allowed values in words, for error messages."""
        if self.allowed_text:
            text = self.allowed_text
        elif self.kind == "bool":
            text = "true or false"
        elif self.kind == "bool_or_word":
            text = _or_list(["true", "false", *self.words])
        elif self.choices:
            text = _or_list([str(c) for c in self.choices])
        elif self.kind == "int_or_word":
            text = (
                f"a whole number from {self.minimum} to {self.maximum}, "
                f"or {_or_list(list(self.words))}"
            )
        elif self.minimum is not None and self.maximum is not None:
            text = f"a whole number from {self.minimum} to {self.maximum}"
        elif self.minimum == 1:
            text = "a positive whole number"
        elif self.minimum is not None:
            text = f"a whole number, {self.minimum} or more"
        else:
            text = "a whole number"
        if self.optional:
            text = f"{none_word}, {text}" if self.choices else f"{text}, or {none_word}"
        return text


def _or_list(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


@dataclass(frozen=True, slots=True)
class Option:
    """One option's declaration, as :data:`thousand.engine.rules.OPTIONS` holds it."""

    name: str
    default: Any
    spec: Spec
    group: Group
    reach: Reach
    c: InC | None

    @property
    def c_field(self) -> str | None:
        """The name of the C field that carries the option, or None."""
        if self.c is None:
            return None
        return self.c.field or self.name

    def off_default(self, rules: object) -> bool:
        """Whether ``rules`` (anything with the option as an attribute) sets another value."""
        return bool(getattr(rules, self.name) != self.default)


def option(default: Any, spec: Spec, group: Group, reach: Reach, c: InC | None) -> Any:
    """A field of :class:`~thousand.engine.rules.Rules` that declares its option.

    Every part is required (``c=NOT_IN_C`` too), so that a new option says where the C
    paths stand on it.  Typed ``Any`` so that the field keeps the type of its annotation.
    """
    if group not in GROUPS or reach not in REACHES:
        raise ValueError(f"option: group {group!r} or reach {reach!r} is not declared")
    return dataclasses.field(
        default=default, metadata={"spec": spec, "group": group, "reach": reach, "c": c}
    )


def declarations(cls: type) -> dict[str, Option]:
    """The declared options of the dataclass ``cls``, in field order: every field made by
    :func:`option` (a field without a declaration, like ``Rules.preset``, is not an option)."""
    return {
        f.name: Option(f.name, f.default, **f.metadata)
        for f in dataclasses.fields(cls)
        if "spec" in f.metadata
    }
