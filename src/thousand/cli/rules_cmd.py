"""``thousand rules``: show a way of playing, explain a rule, list what is not supported.

People agree on house rules before a game; this command lets them see exactly what a
preset plus their ``--set`` changes means, in the words they use at the table: every rule
by its title and its value in words, by theme, marking what differs from the classic game.
``--explain OPTION`` says what one rule does and how each family plays it.  The
identifiers (``bid_step=10``, what ``--set`` and the game records use) are shown with
``--ids``; ``--json`` prints the resolved ruleset as the records store it.

The one thing not supported is the two-player game; the players' rules page
(docs/rules.ru.md, docs/rules.en.md) is named at the end of the listing.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from thousand.cli import app
from thousand.engine.rules import OPTION_NAMES, Rules, RulesError
from thousand.words.rules import (
    GROUPS,
    LANGS,
    check_lang,
    explain,
    preset_description,
    preset_title,
    rules_error_text,
    title,
    unsupported,
    value_words,
)

from .common import PresetArgument, SetOption, fail

_LABELS = {
    "ru": {
        "heading": "Тысяча: {title}",
        "ids_heading": "Правила: {preset} ({title})",
        "option": "правило",
        "id": "опция",
        "value": "здесь",
        "classic": "в классике",
        "changed": "Изменено: {items}",
        "differs": "* — не так, как в классике",
        "unsupported": "Не поддерживается (договорённости без точных правил):",
        "more": "Что значит правило: thousand rules --ids (названия для --set), "
                "thousand rules --explain НАЗВАНИЕ.",
        "rules_page": "Правила игры и все договорённости: docs/rules.ru.md",
    },
    "en": {
        "heading": "Thousand: {title}",
        "ids_heading": "Preset: {preset} ({title})",
        "option": "rule",
        "id": "option",
        "value": "here",
        "classic": "classic",
        "changed": "Changed: {items}",
        "differs": "* differs from classic",
        "unsupported": "Not supported (agreements the sources do not define):",
        "more": "What a rule means: thousand rules --ids (the names for --set), "
                "thousand rules --explain NAME.",
        "rules_page": "The rules of the game and every house rule: docs/rules.en.md",
    },
}


def _plain_table(rules: Rules, lang: str) -> Table:
    """Every rule by theme: its title, its value in words and, where it differs, the
    classic value."""
    labels = _LABELS[lang]
    classic = Rules()
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("", no_wrap=True)
    table.add_column(labels["option"], overflow="fold", ratio=2)
    table.add_column(labels["value"], overflow="fold", ratio=2)
    table.add_column(labels["classic"], overflow="fold", style="dim", ratio=2)
    # every option is in one group: the groups are made from the options' declarations
    for ru, en, names in GROUPS:
        table.add_row("", f"[bold]{escape(ru if lang == 'ru' else en)}[/bold]", "", "")
        for name in names:
            table.add_row(*_plain_row(rules, classic, name, lang))
        table.add_section()
    return table


def _plain_row(rules: Rules, classic: Rules, name: str, lang: str) -> list[str]:
    value, base = getattr(rules, name), getattr(classic, name)
    differs = value != base
    shown = escape(value_words(name, value, lang))
    return [
        "*" if differs else "",
        escape(title(name, lang)),
        f"[bold]{shown}[/bold]" if differs else shown,
        escape(value_words(name, base, lang)) if differs else "",
    ]


def _ids_table(rules: Rules, lang: str, with_meaning: bool) -> Table:
    """Every option by its identifier, with its value as ``--set`` writes it."""
    labels = _LABELS[lang]
    classic = Rules()
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("", no_wrap=True)
    table.add_column(labels["id"], no_wrap=True)
    table.add_column(labels["value"], overflow="fold")
    table.add_column(labels["classic"], overflow="fold", style="dim")
    if with_meaning:
        table.add_column(labels["option"])
    for name in OPTION_NAMES:
        differs = getattr(rules, name) != getattr(classic, name)
        value = rules.value_text(name)
        cells = [
            "*" if differs else "",
            name,
            f"[bold]{escape(value)}[/bold]" if differs else escape(value),
            escape(classic.value_text(name)) if differs else "",
        ]
        if with_meaning:
            cells.append(escape(title(name, lang)))
        table.add_row(*cells)
    return table


_WIDE = 110


@app.command("rules")
def rules_command(
    preset: PresetArgument = "classic",
    sets: SetOption = None,
    lang: Annotated[str, typer.Option("--lang", help="ru or en")] = "ru",
    explain_option: Annotated[
        str | None, typer.Option("--explain", help="Explain one rule (by its --set name).")
    ] = None,
    ids: Annotated[
        bool, typer.Option("--ids", help="Name the options as --set and the records do.")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the resolved ruleset as JSON.")
    ] = False,
) -> None:
    """Show a way of playing (a preset plus --set changes), or explain one rule."""
    said = lang if lang in LANGS else "ru"  # a wrong --lang is refused in Russian
    try:
        lang = check_lang(lang)
        if explain_option is not None:
            typer.echo(explain(explain_option, lang, ids=ids))
            return
        rules = Rules.from_cli(preset, sets or [])
    except RulesError as e:
        raise fail(rules_error_text(e, said), lang=said) from None

    if as_json:
        typer.echo(json.dumps(rules.to_json(), ensure_ascii=False, indent=2))
        return

    labels = _LABELS[lang]
    console = Console(highlight=False)
    name = preset_title(rules.preset, lang)
    if ids:
        heading = labels["ids_heading"].format(preset=rules.preset, title=name)
        console.print(f"[bold]{escape(heading)}[/bold]")
    else:
        console.print(f"[bold]{escape(labels['heading'].format(title=name))}[/bold]")
    console.print(preset_description(rules.preset, lang), markup=False)
    changed = rules.overrides()
    if changed:
        if ids:
            items = " ".join(f"{k}={rules.value_text(k)}" for k in changed)
            console.print("--set " + items, markup=False)
        else:
            items = "; ".join(f"{title(k, lang)} — {value_words(k, getattr(rules, k), lang)}"
                              for k in changed)
            console.print(labels["changed"].format(items=items), markup=False)
    if ids:
        # The short meanings need room; on a narrow terminal the names and values matter
        # more (``--explain`` gives the meaning of any one option).
        console.print(_ids_table(rules, lang, with_meaning=console.width >= _WIDE))
    else:
        console.print(_plain_table(rules, lang))
    console.print(labels["differs"], markup=False)
    console.print()
    lines = unsupported(lang)
    if lines:  # every seed rule is supported now; the list stays for what comes
        console.print(labels["unsupported"], markup=False)
        for line in lines:
            console.print(f"  - {line}", markup=False)
        console.print()
    console.print(labels["more"], markup=False)
    console.print(labels["rules_page"], markup=False)
