"""The package as a user installs it: the wheel, in a fresh virtual environment, with its
runtime dependencies alone (none of the test tools this suite runs with).

- without extras (``pip install thousand``) it plays in the terminal and serves the site in
  one process on SQLite;
- with the ``cluster`` extra (``pip install 'thousand[cluster]'``) two workers on PostgreSQL
  and Redis serve one table: through the worker that does not hold it, a seat is taken,
  moves are played to the end of a deal and the record is read — the forwarding client
  (httpx), the PostgreSQL driver (psycopg) and the shared limits must all be in the extra.

The versions are uv.lock's (``uv export``), installed from uv's cache; the wheel is built
once for the module, and installed into one virtual environment (bare first, then with the
extra).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

import needs
from cluster_live import REDIS_URL, drop_redis_keys, free_port, postgres_schema, running
from http_client import HTTP
from thousand.engine.table import Table

ROOT = Path(__file__).resolve().parent.parent



def _uv() -> str:
    """uv: the lock's own copy in the test environment, else ./run's or the PATH's."""
    for candidate in (Path(sys.executable).parent / "uv", ROOT / ".tools" / "uv" / "bin" / "uv"):
        if candidate.exists():
            return str(candidate)
    found = shutil.which("uv")
    if found is None:
        needs.need("uv", "uv is not installed (./run brings it)")
    return found


def _run(*args: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, capture_output=True, text=True, timeout=600, **kwargs)
    assert done.returncode == 0, f"{' '.join(args)}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package's wheel, built from this checkout (its C cores compiled)."""
    out = tmp_path_factory.mktemp("dist")
    _run(_uv(), "build", "--wheel", "--out-dir", str(out), str(ROOT))
    (found,) = out.glob("thousand-*.whl")
    return found


def _install(folder: Path, wheel: Path, extra: str | None) -> Path:
    """The wheel and its runtime dependencies (with the extra ``extra``) at uv.lock's
    versions, into the virtual environment ``folder/venv`` (made fresh the first time):
    its ``bin`` folder."""
    venv = folder / "venv"
    uv = _uv()
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never"}
    if not venv.exists():
        _run(uv, "venv", "--python", sys.executable, str(venv), env=env)
    pins = folder / f"pins-{extra or 'bare'}.txt"
    export = [uv, "export", "--frozen", "--no-dev", "--no-emit-project", "--no-hashes",
              "--directory", str(ROOT), "--output-file", str(pins)]
    if extra:
        export += ["--extra", extra]
    _run(*export, env=env)
    spec = f"thousand{f'[{extra}]' if extra else ''} @ {wheel.as_uri()}"
    _run(uv, "pip", "install", "--python", str(venv / "bin" / "python"),
         "--constraint", str(pins), spec, env=env)
    return venv / "bin"


#: What neither the bare wheel nor its runtime dependencies may bring: the tests' tools and
#: the ``cluster`` extra's.
NOT_BARE = ("pytest", "httpx", "psycopg")


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> SimpleNamespace:
    """One virtual environment for the module (making one and installing into it is most
    of what these tests cost): the bare wheel, and what of :data:`NOT_BARE` it could import
    then — before the cluster test adds the extra to the same environment."""
    folder = tmp_path_factory.mktemp("venv")
    bin_dir = _install(folder, wheel, None)
    return SimpleNamespace(folder=folder, bin=bin_dir,
                           bare={tool: _importable(bin_dir, tool) for tool in NOT_BARE})


def _importable(bin_dir: Path, module: str) -> bool:
    return subprocess.run([str(bin_dir / "python"), "-c", f"import {module}"],
                          capture_output=True, timeout=120).returncode == 0


def test_the_wheel_alone_plays_in_the_terminal_and_serves_on_sqlite(
        venv: SimpleNamespace, tmp_path: Path) -> None:
    """README: `pip install thousand` runs the terminal game and the one-process site.
    (The module's first test: the environment has nothing but the bare wheel yet.)"""
    bin_dir = venv.bin
    for tool in NOT_BARE:  # nothing of the tests' or the extra's
        assert not venv.bare[tool], f"{tool} came with the bare wheel"
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    game = _run(str(bin_dir / "thousand"), "arena", "--bots", "random,random,random",
                "-n", "1", "--seed", "3", env=env)
    assert "random" in game.stdout
    port = free_port()
    log = (tmp_path / "serve.log").open("wb")
    server = subprocess.Popen(
        [str(bin_dir / "thousand"), "serve", "--no-browser", "--port", str(port),
         "--db", f"sqlite:///{tmp_path / 'site.db'}", "--bot-delay", "0", "--no-limits"],
        stdout=log, stderr=subprocess.STDOUT, env=env, cwd=tmp_path)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        while True:
            assert server.poll() is None, (tmp_path / "serve.log").read_text()[-3000:]
            try:
                if HTTP.get(base + "/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not become ready"
            time.sleep(0.1)
        # the pages' shell and words are package data (server/templates, web/page_words.js)
        lobby = HTTP.get(base + "/", timeout=30)
        assert lobby.status_code == 200 and "/static/lobby.js" in lobby.text, lobby.text
        assert HTTP.get(base + "/static/page_words.js", timeout=30).status_code == 200
        # and the app's: the worker, the offline page, the icons (server/routes/web_app.py)
        for path in ("/sw.js", "/offline", "/manifest.webmanifest", "/static/icons/icon-512.png"):
            assert HTTP.get(base + path, timeout=30).status_code == 200, path
        missing = HTTP.get(base + "/t/no-such-table", timeout=30)
        assert missing.status_code == 404 and 'data-error="table"' in missing.text
        laid = HTTP.post(base + "/api/tables", timeout=30, json={
            "preset": "classic", "options": {"max_deals": 1},
            "seats": [{"kind": "human", "name": "Аня"}, {"kind": "bot"}, {"kind": "bot"}]})
        assert laid.status_code == 201, laid.text
        body = laid.json()
        with connect(_ws(base, body["table"], body["token"]), open_timeout=30) as ws:
            made = _play_to_the_end({body["seat"]: ws}, random.Random(1))
        assert made > 0
    finally:
        server.terminate()
        server.wait(30)
        log.close()


def _ws(base: str, table: str, token: str) -> str:
    return base.replace("http", "ws", 1) + f"/ws/{table}?token={token}"


def _recv(ws: ClientConnection, *types: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, f"no {types} from the table"
        msg: dict[str, Any] = json.loads(ws.recv(timeout=60))
        if msg["type"] in types:
            return msg


def _play_to_the_end(seats: dict[int, ClientConnection], rng: random.Random) -> int:
    """Random legal moves for the people's seats (the bots play theirs) until the game is
    over: the number of moves made."""
    made = 0
    watch = next(iter(seats.values()))
    deadline = time.monotonic() + 180
    while True:
        assert time.monotonic() < deadline, "the game did not end"
        watch.send(json.dumps({"type": "snapshot"}))
        snap = _recv(watch, "snapshot")
        if snap["over"]:
            return made
        mover = snap["view"]["to_move"]
        if mover not in seats:  # a bot's turn: wait for what it did
            _recv(watch, "events")
            continue
        ws = seats[mover]
        ws.send(json.dumps({"type": "snapshot"}))
        mine = _recv(ws, "snapshot")
        if mine["version"] != snap["version"]:
            continue
        ws.send(json.dumps({"type": "move", "version": mine["version"],
                            "move": rng.choice(mine["view"]["legal"])}))
        answer = _recv(ws, "events", "error")
        assert answer["type"] == "events", answer
        made += 1


@pytest.mark.cluster
@pytest.mark.needs("postgres", "redis")
def test_the_wheel_with_the_cluster_extra_serves_two_workers(
        wheel: Path, venv: SimpleNamespace, tmp_path: Path) -> None:
    """docs/server.md "Many workers" with `pip install 'thousand[cluster]'` and nothing else
    (the extra added to the bare wheel's environment, as a user adds it): a table laid on
    one worker is joined, played and read through the other."""
    bin_dir = _install(venv.folder, wheel, "cluster")
    assert not _importable(bin_dir, "pytest")
    db_url, drop = postgres_schema()
    prefix = f"thousand-wheel-{uuid.uuid4().hex[:10]}"
    try:
        with running(tmp_path / "workers", db_url, REDIS_URL, prefix, 2,
                     cli=[str(bin_dir / "thousand")]) as cluster:
            first = cluster["w1"]
            laid = first.post("/api/tables", {
                "preset": "classic", "options": {"max_deals": 1},
                "seats": [{"kind": "human", "name": "Аня"}, {"kind": "human"},
                          {"kind": "bot"}]})
            assert laid.status_code == 201, laid.text
            body = laid.json()
            table = body["table"]
            owner = cluster.owner(table)
            other = next(w for name, w in cluster.workers.items() if name != owner)
            free = 1 - body["seat"] if body["seat"] in (0, 1) else 0
            taken = other.post(f"/api/tables/{table}/seats/{free}", {"name": "Боря"})
            assert taken.status_code == 200, taken.text + other.log()[-3000:]
            tokens = {body["seat"]: body["token"], free: taken.json()["token"]}
            with contextlib.ExitStack() as stack:
                conns = {s: stack.enter_context(connect(_ws(other.base, table, t),
                                                        open_timeout=30))
                         for s, t in tokens.items()}
                made = _play_to_the_end(conns, random.Random(2))
            assert made > 0
            record = other.get(f"/api/games/{table}/record")
            assert record.status_code == 200, record.text + other.log()[-3000:]
            replayed = Table.from_record(json.loads(record.text))
            assert replayed.over
            assert len(cluster.move_log(table)) == replayed.version
            for w in cluster.workers.values():
                assert "Traceback" not in w.log(), w.log()[-3000:]
    finally:
        drop_redis_keys(REDIS_URL, prefix)
        drop()
