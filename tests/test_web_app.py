"""The app's files as the server writes them (server/routes/web_app.py; docs/server.md "The
app"): the service worker keeps every static file the pages load and nothing else, and its
cache's name changes exactly when one of them (or the worker, or the offline page) does,
so that a release replaces the cache; the manifest in both languages.  (In a browser:
tests/test_browser_app.py.)"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from thousand.server.routes.web_app import manifest, offline_html, worker_script

WEB = Path(__file__).resolve().parent.parent / "src" / "thousand" / "web"


def _copy(folder: Path) -> Path:
    shutil.copytree(WEB, folder)
    return folder


def _worker(web: Path) -> tuple[str, list[str]]:
    text = worker_script(web)
    cache = re.search(r'^const CACHE = "([^"]+)";$', text, re.M)
    files = re.search(r"^const FILES = (\[.*?\]);$", text, re.M | re.S)
    assert cache and files, text[:300]
    return cache.group(1), json.loads(files.group(1))


def test_the_worker_keeps_the_pages_files_and_only_them(tmp_path: Path) -> None:
    cache, files = _worker(_copy(tmp_path / "web"))
    assert cache.startswith("thousand-")
    for url in ("/static/style.css", "/static/table.js", "/static/theme.js",
                "/static/page_words.js", "/static/favicon-turn.svg",
                "/static/icons/icon-192.png", "/static/sounds/deal.wav"):
        assert url in files, url
    assert not [f for f in files if f.endswith((".py", ".md", "/sw.js"))], files
    assert len(files) == len({f for f in files if f.startswith("/static/")})


def test_a_changed_file_is_a_new_cache(tmp_path: Path) -> None:
    same, _ = _worker(_copy(tmp_path / "a"))
    again, _ = _worker(_copy(tmp_path / "b"))
    assert same == again  # the same files: the same cache, nothing fetched again
    changed = _copy(tmp_path / "c")
    with (changed / "style.css").open("a") as css:
        css.write("\n/* a release */\n")
    assert _worker(changed)[0] != same
    worker = _copy(tmp_path / "d")
    with (worker / "sw.js").open("a") as js:
        js.write("\n// a release\n")
    assert _worker(worker)[0] != same
    # a file the worker does not keep changes nothing
    readme = _copy(tmp_path / "e")
    (readme / "icons" / "README.md").write_text("another text")
    assert _worker(readme)[0] == same


def test_the_manifest_and_the_offline_page_in_both_languages() -> None:
    ru, en = manifest("ru"), manifest("en")
    assert (ru["short_name"], en["short_name"]) == ("Тысяча", "Thousand")
    assert ru["icons"] == en["icons"] and ru["start_url"] == "/" == en["start_url"]
    page = offline_html()
    assert page.index('<section lang="ru"') < page.index('<section lang="en"')  # Russian first
    assert page.count("thousand play") == 2 and page.count("pipx install thousand") == 2
    assert "<script type=\"module\"" not in page
