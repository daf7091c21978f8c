"""``thousand verify RECORD``: check that every deal of a record was dealt as committed.

A server table publishes, when a deal starts, a hash of the cards dealt with a secret salt,
and reveals the salt when the deal ends (:mod:`thousand.fairness`, docs/record.md).  This
command replays the record (every move checked, as ``thousand replay``) and recomputes each
deal's hash from its recorded cards and salt.

Exit status: 0 every deal is legal and matches its commitment; 1 a move breaks the rules, a
deal does not match, or a deal has no commitment to check (or no salt yet); 2 the file is
not a record.  One line per deal on stdout; a failure also says why on stderr.
"""

from __future__ import annotations

from typing import Annotated

import typer

from thousand.cli import app
from thousand.fairness import verify_commitment
from thousand.record import RecordError, ReplayError, load_record, replay

from .replay_cmd import _fail, _read, _shown


@app.command("verify")
def verify_command(
    file: Annotated[
        str, typer.Argument(metavar="RECORD", help="The game record (JSON); - for stdin.")
    ],
) -> None:
    """Check a record's deals against the commitments the table published."""
    data = _read(file)
    shown = _shown(file)
    try:
        record = load_record(data)
        replay(record)
    except ReplayError as e:
        raise _fail(str(e), 1) from None
    except RecordError as e:
        raise _fail(f"error: {shown}: {e}", 2) from None
    problems = 0
    for number, deal in enumerate(record.deals, 1):
        if deal.commitment is None:
            line, ok = f"deal {number}: no commitment to check", False
        else:
            digest, salt = deal.commitment
            if salt is None:
                line, ok = f"deal {number}: committed, salt not revealed yet (in play)", False
            elif verify_commitment(deal.hands, deal.talon, digest, salt):
                line, ok = f"deal {number}: the cards match the commitment {digest[:12]}…", True
            else:
                line, ok = f"deal {number}: the cards do NOT match the commitment", False
        typer.echo(line)
        problems += not ok
    if problems:
        raise _fail(f"{shown}: {problems} of {len(record.deals)} deals not verified", 1)
    typer.echo(f"{shown}: all {len(record.deals)} deals verified")
