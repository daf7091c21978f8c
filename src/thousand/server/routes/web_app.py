"""The site as an app on a phone (docs/server.md "The app"): the web app manifest, the
service worker and the offline page it shows.

- ``GET /manifest.webmanifest``: the name, icons (``web/icons/``), colours and start page
  that make the site installable on Android's and iOS's home screens, in the reader's
  language (:func:`thousand.server.pages.page_lang`).
- ``GET /sw.js``: the service worker, at the site's root so that its scope is the whole
  site.  Its text is ``web/sw.js`` under three constants written here: the files it keeps
  (every static file of the pages), the offline page's address, and the cache's name,
  which carries the package's version and a hash of those files and of the offline page,
  so that a release that changes any of them is a new worker that replaces the cache.
- ``GET /offline``: the page the worker answers with when a page cannot be loaded: that the
  game needs the connection, and how to play it in the terminal instead, in both
  languages (the page is kept for whoever opens the site offline next, in either).

All three come from this server's own origin, which the CSP's ``'self'`` already allows
(server/web_security.py): no policy is loosened for them.
"""

from __future__ import annotations

import functools
import hashlib
import json
from importlib import metadata
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from thousand.words.pages import PAGE_WORDS

from ..pages import page_lang, page_words, render_template
from ..reader import StrictRoute

__all__ = ["OFFLINE", "manifest", "offline_html", "router", "worker_script"]

router = APIRouter(route_class=StrictRoute)

#: The offline page's address (the worker keeps it with the static files).
OFFLINE = "/offline"
#: The static files the worker keeps: what the pages load (not the sounds' maker, nor a
#: README), by their names' endings.
KEPT = (".js", ".css", ".svg", ".png", ".wav")
#: The colours of the installed app: its title bar (the pages' header) and its splash.
THEME_COLOR = "#2b2620"
BACKGROUND_COLOR = "#f4f1ea"
#: The icons the manifest names (web/icons/README.md says how they are made).
ICON_SIZES = (192, 512)
_NO_CACHE = {"Cache-Control": "no-cache"}


def _web(request: Request) -> Path:
    web = request.app.state.web
    assert isinstance(web, Path)
    return web


@functools.cache
def offline_html() -> str:
    """The offline page (``templates/offline.html``): both languages, Russian first."""
    return render_template(
        "offline.html", lang="ru", page="offline", ru=PAGE_WORDS["ru"], en=PAGE_WORDS["en"])


def _kept_files(web: Path) -> list[Path]:
    return sorted(p for p in web.rglob("*")
                  if p.is_file() and p.suffix in KEPT and p.name != "sw.js")


def _version() -> str:
    try:
        return metadata.version("thousand")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "0"


@functools.cache
def worker_script(web: Path) -> str:
    """The text of ``/sw.js`` for the pages in ``web`` (read once: a release is a restart)."""
    files = _kept_files(web)
    digest = hashlib.sha256(offline_html().encode())
    for path in [*files, web / "sw.js"]:
        digest.update(path.relative_to(web).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    urls = [f"/static/{p.relative_to(web).as_posix()}" for p in files]
    head = (f"// written by thousand.server.routes.web_app from web/sw.js\n"
            f"const CACHE = {json.dumps(f'thousand-{_version()}-{digest.hexdigest()[:16]}')};\n"
            f"const OFFLINE = {json.dumps(OFFLINE)};\n"
            f"const FILES = {json.dumps(urls, indent=0)};\n")
    return head + (web / "sw.js").read_text("utf-8")


def manifest(lang: str) -> dict[str, Any]:
    """The web app manifest in ``lang``."""
    words = page_words(lang)
    icons: list[dict[str, str]] = [
        {"src": f"/static/icons/icon-{size}.png", "sizes": f"{size}x{size}",
         "type": "image/png", "purpose": purpose}
        for purpose in ("any", "maskable") for size in ICON_SIZES]
    icons.append({"src": "/static/icons/icon.svg", "sizes": "any", "type": "image/svg+xml",
                  "purpose": "any"})
    return {
        "id": "/", "name": words["manifest_name"], "short_name": words["app_name"],
        "description": words["manifest_description"], "lang": lang, "dir": "ltr",
        "start_url": "/", "scope": "/", "display": "standalone",
        "theme_color": THEME_COLOR, "background_color": BACKGROUND_COLOR,
        "categories": ["games"], "icons": icons,
    }


@router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest_file(request: Request) -> Response:
    """The manifest, in the reader's language."""
    return JSONResponse(manifest(page_lang(request)), media_type="application/manifest+json",
                        headers={**_NO_CACHE, "Vary": "Accept-Language, Cookie"})


@router.get("/sw.js", include_in_schema=False)
async def service_worker(request: Request) -> Response:
    """The service worker; ``no-cache``: the browser asks for it again on every visit, so
    that a release is seen at once."""
    web = _web(request)
    if not (web / "sw.js").is_file():  # the web client is not installed
        return Response(status_code=404)
    return Response(worker_script(web), media_type="text/javascript; charset=utf-8",
                    headers=_NO_CACHE)


@router.api_route(OFFLINE, methods=["GET", "HEAD"], include_in_schema=False)
async def offline_page() -> Response:
    """The offline page (the worker keeps it; anyone may read it)."""
    return HTMLResponse(offline_html(), headers=_NO_CACHE)
