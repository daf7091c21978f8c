"""The pages the server writes: every page from one Jinja2 shell (``templates/shell.html``)
in the page's language.

A page of the site is the shell and its script (``web/<page>.js``), which fills it in; the
shell is Russian (``<html lang="ru">``) until the script words it in the reader's language.
An error page (``templates/error.html``, the shell with a body of its own) is written here
whole instead, so that it says what is wrong without a script and with the right HTTP status
(404 for an unknown address, table or game; 410 for a table its creator closed).  Its
words are the pages' own (:data:`thousand.words.pages.PAGE_WORDS`, which the browser gets as
``web/page_words.js``), so the browser and the server never word the same thing twice.  No
user data goes into these pages (not even the id asked for).

The language (:func:`page_lang`): ``?lang=ru|en``, else the cookie the pages' language
switch sets (:data:`LANG_COOKIE`), else the first of Russian or English in the
browser's ``Accept-Language``, else Russian.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import jinja2
from starlette.requests import Request
from starlette.responses import HTMLResponse

from thousand.words.grammar import LANGS
from thousand.words.pages import PAGE_WORDS, SHELL_TITLES, SHELL_WORDS

__all__ = ["LANG_COOKIE", "error_page", "page_lang", "page_words", "render_template",
           "shell_page"]

#: The cookie the pages' language switch sets (web/i18n.js writes it too).
LANG_COOKIE = "thousand_lang"

#: The shells: HTML escaped, a missing value an error, no blank lines from the tags.
_TEMPLATES = jinja2.Environment(
    loader=jinja2.PackageLoader("thousand.server", "templates"),
    autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
    keep_trailing_newline=True,
)

#: What each error page says: its title's key and its text's key in the pages' words.
KINDS = {
    "page": ("err_page_title_404", "err_page_text_404"),
    "table": ("err_page_title_table", "err_page_text_table"),
    "closed": ("err_page_title_closed", "err_page_text_closed"),
    "game": ("err_page_title_game", "err_page_text_game"),
    "other": ("err_page_title_other", "err_page_text_other"),
}


def _accepted(header: str) -> str | None:
    """The first of ``ru``/``en`` an ``Accept-Language`` header prefers, by its q-values."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        m = re.fullmatch(r"\s*q=([0-9.]{1,5})\s*", params) if params else None
        if m:
            try:
                q = float(m.group(1))
            except ValueError:
                q = 0.0
        primary = tag.strip().lower().split("-")[0]
        if primary in LANGS and q > 0:
            ranked.append((-q, i, primary))
    return min(ranked)[2] if ranked else None


def page_lang(request: Request) -> str:
    """The language of a page for this request (the module's docstring says how)."""
    asked = request.query_params.get("lang")
    if asked in LANGS:
        return asked
    cookie = request.cookies.get(LANG_COOKIE)
    if cookie in LANGS:
        return cookie
    return _accepted(request.headers.get("accept-language", "")) or "ru"


def page_words(lang: str) -> dict[str, str]:
    """The pages' words in ``lang`` (Russian for a language the pages do not speak)."""
    return PAGE_WORDS.get(lang, PAGE_WORDS["ru"])


def render_template(name: str, **values: object) -> str:
    """The template ``name`` of ``templates/`` with ``values`` (another module's page: the
    offline page of server/routes/web_app.py)."""
    return _TEMPLATES.get_template(name).render(**values)


@functools.cache
def shell_html(page: str) -> str:
    """The shell of ``page`` (a page of :data:`thousand.words.pages.SHELL_TITLES`, whose
    script is ``web/<page>.js``), the same for every request."""
    return _TEMPLATES.get_template("shell.html").render(
        lang="ru", page=page, title=SHELL_TITLES[page], words=PAGE_WORDS["ru"],
        shell=SHELL_WORDS)


def shell_page(web: Path, page: str) -> HTMLResponse:
    """The response for ``page``: its shell, or a line saying where the API is when the
    web client (its script in ``web``) is not installed."""
    if not (web / f"{page}.js").is_file():
        return HTMLResponse(
            "<!doctype html><meta charset=utf-8><title>Тысяча</title>"
            "<p>The web client is not installed; the API is at <a href=/api/docs>"
            "/api/docs</a>.</p>")
    return HTMLResponse(shell_html(page), headers={"Cache-Control": "no-cache"})


def error_page(request: Request, status: int, kind: str = "page") -> HTMLResponse:
    """An error page: what is wrong in the page's language, a way on (the lobby, and the
    history for a game), a link to the other language; ``status`` its HTTP status."""
    lang = page_lang(request)
    words = page_words(lang)
    title_key, text_key = KINDS.get(kind, KINDS["other"])
    body = _TEMPLATES.get_template("error.html").render(
        lang=lang, page="error", kind=kind, words=words,
        other="en" if lang == "ru" else "ru",
        title=words[title_key].replace("{status}", str(status)),
        text=words[text_key].replace("{status}", str(status)))
    return HTMLResponse(body, status_code=status,
                        headers={"Cache-Control": "no-store", "Content-Language": lang,
                                 "Vary": "Accept-Language, Cookie"})
