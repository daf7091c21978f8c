"""``thousand rules``: show a ruleset, explain an option, list what is not supported.

The one thing not supported is the two-player game; the players' rules page,
docs/rules.md, is named at the end of the listing.

People agree on house rules before a game; this command lets them see exactly what a
preset plus their ``--set`` changes means, in the words they use at the table.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from thousand.cli import app
from thousand.rules import OPTION_NAMES, Rules, RulesError
from thousand.rules_text import check_lang, explain, preset_description, title, unsupported

from .common import PresetArgument, SetOption, fail

_LABELS = {
    "ru": {
        "preset": "Пресет",
        "option": "опция",
        "value": "значение",
        "classic": "в classic",
        "meaning": "что это",
        "differs": "* — отличается от classic",
        "unsupported": "Не поддерживается (договорённости без точных правил):",
        "rules_page": "Правила игры и все опции по-человечески: docs/rules.md",
    },
    "en": {
        "preset": "Preset",
        "option": "option",
        "value": "value",
        "classic": "classic",
        "meaning": "meaning",
        "differs": "* differs from classic",
        "unsupported": "Not supported (agreements the sources do not define):",
        "rules_page": "The rules of the game and every option in plain words: docs/rules.md",
    },
}


_WIDE = 110


def _table(rules: Rules, lang: str, with_meaning: bool) -> Table:
    labels = _LABELS[lang]
    classic = Rules()
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("", no_wrap=True)
    table.add_column(labels["option"], no_wrap=True)
    table.add_column(labels["value"], overflow="fold")
    table.add_column(labels["classic"], overflow="fold", style="dim")
    if with_meaning:
        table.add_column(labels["meaning"])
    for name in OPTION_NAMES:
        differs = getattr(rules, name) != getattr(classic, name)
        value = rules.value_text(name)
        cells = [
            "*" if differs else "",
            name,
            f"[bold]{value}[/bold]" if differs else value,
            classic.value_text(name) if differs else "",
        ]
        if with_meaning:
            cells.append(title(name, lang))
        table.add_row(*cells)
    return table


@app.command("rules")
def rules_command(
    preset: PresetArgument = "classic",
    sets: SetOption = None,
    lang: Annotated[str, typer.Option("--lang", help="ru or en")] = "ru",
    explain_option: Annotated[
        str | None, typer.Option("--explain", help="Explain one option.")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the resolved ruleset as JSON.")
    ] = False,
) -> None:
    """Show a ruleset (a preset plus --set changes), or explain one option."""
    try:
        lang = check_lang(lang)
        if explain_option is not None:
            typer.echo(explain(explain_option, lang))
            return
        rules = Rules.from_cli(preset, sets or [])
    except RulesError as e:
        raise fail(str(e)) from None

    if as_json:
        typer.echo(json.dumps(rules.to_json(), ensure_ascii=False, indent=2))
        return

    labels = _LABELS[lang]
    console = Console(highlight=False)
    console.print(f"[bold]{labels['preset']}: {rules.preset}[/bold]", markup=True)
    console.print(preset_description(rules.preset, lang), markup=False)
    changed = rules.overrides()
    if changed:
        console.print(
            "--set " + " ".join(f"{k}={rules.value_text(k)}" for k in changed), markup=False
        )
    # The short meanings need room; on a narrow terminal the names and values matter
    # more (``--explain`` gives the meaning of any one option).
    console.print(_table(rules, lang, with_meaning=console.width >= _WIDE))
    console.print(labels["differs"], markup=False)
    console.print()
    console.print(labels["unsupported"], markup=False)
    for line in unsupported(lang):
        console.print(f"  - {line}", markup=False)
    console.print()
    console.print(labels["rules_page"], markup=False)
