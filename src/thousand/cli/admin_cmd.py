"""``thousand admin``: the operator's commands on a server's database (docs/server.md
"Moderation"): ``grant-moderator NAME``, ``revoke-moderator NAME``, ``list-moderators``.

Each works on the database ``thousand serve`` uses (the same ``--db`` URL and default),
running or not: a role given here counts at the moderator's next request.  Exit status 0
done, 1 no such account, 2 a database that cannot be opened.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated

import typer

from thousand.cli import app

from .common import fail

if TYPE_CHECKING:
    from thousand.server.store.tables import Store

admin = typer.Typer(help="The operator's commands on a server's database: moderators.  "
                    "Справка по-русски: thousand admin --help --lang ru.",
                    no_args_is_help=True)
app.add_typer(admin, name="admin")

#: The command's own lines: key -> (English, Russian).
LINES: dict[str, tuple[str, str]] = {
    "granted": ("{name} is a moderator", "{name} — модератор"),
    "revoked": ("{name} is no longer a moderator", "{name} больше не модератор"),
    "no_account": ("no account named {name!r}", "учётной записи {name!r} нет"),
    "none": ("no moderators", "модераторов нет"),
}

_Db = Annotated[str | None, typer.Option(
    "--db", help="The server's database: any SQLAlchemy URL (default: thousand serve's, "
    "SQLite in ~/.local/share/thousand/thousand.db).")]
_Lang = Annotated[str, typer.Option("--lang", help="ru or en")]
_Name = Annotated[str, typer.Argument(metavar="NAME", help="An account's name.")]


def _line(key: str, lang: str, **params: object) -> str:
    en, ru = LINES[key]
    return (ru if lang == "ru" else en).format(**params)


@contextmanager
def _store(db: str | None, lang: str) -> Iterator[Store]:
    """The server's database (``--db``, else ``thousand serve``'s default), closed after;
    one clear line (exit 2) when it cannot be opened."""
    from thousand.server import default_db_url
    from thousand.server.store.tables import Store, StoreError

    try:
        store = Store(db or default_db_url())
    except StoreError as e:
        raise fail(e.text(lang), lang=lang) from None
    try:
        yield store
    finally:
        store.close()


def _set_role(db: str | None, name: str, role: str | None, lang: str) -> str:
    from thousand.server.names import name_key
    from thousand.server.store import moderation

    with _store(db, lang) as store:
        shown = moderation.set_role(store, name_key(name), role)
    if shown is None:
        raise fail(_line("no_account", lang, name=name), code=1, lang=lang)
    return shown


@admin.command("grant-moderator")
def grant_moderator(name: _Name, db: _Db = None, lang: _Lang = "en") -> None:
    """Make the account NAME a moderator (the /moderation page)."""
    from thousand.server.store.moderation import MODERATOR

    typer.echo(_line("granted", lang, name=_set_role(db, name, MODERATOR, lang)))


@admin.command("revoke-moderator")
def revoke_moderator(name: _Name, db: _Db = None, lang: _Lang = "en") -> None:
    """The account NAME is no longer a moderator."""
    typer.echo(_line("revoked", lang, name=_set_role(db, name, None, lang)))


@admin.command("list-moderators")
def list_moderators(db: _Db = None, lang: _Lang = "en") -> None:
    """The moderators' names, one a line."""
    from thousand.server.store import moderation

    with _store(db, lang) as store:
        names = moderation.moderators(store)
    typer.echo("\n".join(names) if names else _line("none", lang))
