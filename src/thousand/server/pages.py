"""The server's own pages: the error pages, in the page's language.

Every other page is a shell of ``src/thousand/web/`` that its script fills in; an error
page is written here instead, so that it says what is wrong without a script and with
the right HTTP status (404 for an unknown address, table or game; 410 for a table its
creator closed).  Its words are the pages' own (:data:`thousand.words.pages.PAGE_WORDS`,
which the browser gets as ``web/page_words.js``), so the browser and the server never word
the same thing twice.  No user data goes into these pages (not even the id asked for).

The language (:func:`page_lang`): ``?lang=ru|en``, else the cookie the pages' language
switch sets (:data:`LANG_COOKIE`), else the first of Russian or English in the
browser's ``Accept-Language``, else Russian.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse

from thousand.words.pages import PAGE_WORDS

__all__ = ["LANG_COOKIE", "error_page", "page_lang", "page_words"]

#: The cookie the pages' language switch sets (web/i18n.js writes it too).
LANG_COOKIE = "thousand_lang"
LANGS = ("ru", "en")

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


def error_page(request: Request, web: Path, status: int, kind: str = "page") -> HTMLResponse:
    """An error page: what is wrong in the page's language, a way on (the lobby, and the
    history for a game), a link to the other language; ``status`` its HTTP status."""
    lang = page_lang(request)
    words = page_words(lang)
    title_key, text_key = KINDS.get(kind, KINDS["other"])

    def say(key: str) -> str:
        return html.escape(words.get(key, "").replace("{status}", str(status)))

    title = say(title_key)
    other = "en" if lang == "ru" else "ru"
    links = [f'<a class="button primary" href="/">{say("err_page_to_lobby")}</a>']
    if kind == "game":
        links.append(f'<a class="button" href="/history">{say("err_page_to_history")}</a>')
    body = (
        "<!doctype html>\n"
        f'<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light">\n'
        f"<title>{title} — {say('app_name')}</title>\n"
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">\n'
        '<link rel="stylesheet" href="/static/style.css">\n</head>\n'
        f'<body class="page-error" data-error="{html.escape(kind)}">\n'
        '<header class="top">'
        f'<a class="brand" href="/"><span aria-hidden="true">♠♥ </span>{say("app_name")}</a>'
        f'<a class="lang" lang="{other}" hreflang="{other}" href="?lang={other}">'
        f'{say("err_page_other_lang")}</a></header>\n'
        f'<main id="main" class="error-page">\n<h1>{title}</h1>\n'
        f'<p class="lead">{say(text_key)}</p>\n'
        f'<p class="error-actions">{" ".join(links)}</p>\n</main>\n</body>\n</html>\n'
    )
    return HTMLResponse(body, status_code=status,
                        headers={"Cache-Control": "no-store", "Content-Language": lang,
                                 "Vary": "Accept-Language, Cookie"})
