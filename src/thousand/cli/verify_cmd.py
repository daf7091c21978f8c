"""``thousand verify RECORD``: check that every deal of a record was dealt as committed.

A server table publishes, when a deal starts, a hash of the cards dealt with a secret salt,
and reveals the salt when the deal ends (:mod:`thousand.engine.fairness`, docs/record.md).  This
command replays the record (every move checked, as ``thousand replay``) and recomputes each
deal's hash from its recorded cards and salt.

Exit status: 0 every deal is legal and matches its commitment; 1 a move breaks the rules, a
deal does not match, or a deal has no commitment to check (or no salt yet); 2 the file is
not a record.  One line per deal on stdout; a failure also says why on stderr.  The lines
are in English unless ``--lang`` chooses (``--lang ru``: Russian).
"""

from __future__ import annotations

from typing import Annotated

import typer

from thousand.cli import app
from thousand.engine.fairness import verify_commitment
from thousand.engine.record import RecordError, ReplayError, replay
from thousand.words.grammar import render

from .replay_cmd import _fail, _shown, not_a_record, read_record, replay_failure, said_lang

#: The lines of the command: key -> (English, Russian) (:func:`thousand.words.grammar.render`).
LINES: dict[str, tuple[str, str]] = {
    "none": ("deal {n}: no commitment to check", "раздача {n}: проверять нечего — хеша нет"),
    "no_salt": ("deal {n}: committed, salt not revealed yet (in play)",
                "раздача {n}: хеш есть, соль ещё не открыта (раздача идёт)"),
    "match": ("deal {n}: the cards match the commitment {digest}…",
              "раздача {n}: карты совпадают с обещанными, хеш {digest}…"),
    "mismatch": ("deal {n}: the cards do NOT match the commitment",
                 "раздача {n}: карты НЕ совпадают с обещанными"),
    "failed": ("{file}: {k} of {total:#deal|deals} not verified",
               "{file}: не подтверждено {k} из {total:#раздачи|раздач|раздач}"),
    "verified": ("{file}: all {total:#deal|deals} verified",
                 "{file}: все раздачи подтверждены ({total})"),
}


def _line(key: str, lang: str, **params: object) -> str:
    en, ru = LINES[key]
    return render(ru if lang == "ru" else en, lang, params)


@app.command("verify")
def verify_command(
    file: Annotated[
        str, typer.Argument(metavar="RECORD", help="The game record (JSON); - for stdin.")
    ],
    lang: Annotated[str, typer.Option("--lang", help="ru or en")] = "en",
) -> None:
    """Check a record's deals against the commitments the table published.  Справка
    по-русски: thousand verify --help --lang ru."""
    lang = said_lang(lang)
    record = read_record(file, lang)
    shown = _shown(file)
    try:
        replay(record)
    except ReplayError as e:
        raise replay_failure(e, record, lang) from None
    except RecordError as e:
        raise not_a_record(shown, e, lang) from None
    problems = 0
    for number, deal in enumerate(record.deals, 1):
        if deal.commitment is None:
            line, ok = _line("none", lang, n=number), False
        else:
            digest, salt = deal.commitment
            if salt is None:
                line, ok = _line("no_salt", lang, n=number), False
            elif verify_commitment(deal.hands, deal.talon, digest, salt, deal.talons):
                line, ok = _line("match", lang, n=number, digest=digest[:12]), True
            else:
                line, ok = _line("mismatch", lang, n=number), False
        typer.echo(line)
        problems += not ok
    if problems:
        raise _fail(_line("failed", lang, file=shown, k=problems, total=len(record.deals)), 1)
    typer.echo(_line("verified", lang, file=shown, total=len(record.deals)))
