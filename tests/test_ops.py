"""Operating a server (docs/server.md "Deployment"), against real ``thousand serve``
processes: ``/healthz`` and ``/readyz`` (503 with the reason when the store or the
rate limits' Redis does not answer), Prometheus' ``/metrics`` counting the moves played
(and gone with ``--no-metrics``), ``--log-format json`` lines that parse and name the
worker with secrets still cut, and a start that needs no Alembic when the database is
already current (what makes a restarted worker ready soon: benchmarks/startup.py times
it).
"""

from __future__ import annotations

import json
import logging
import shutil
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.sync.client import connect

import needs
from http_client import HTTP
from live_server import free_port, postgres_schema, serve
from thousand.server.ops.logs import JsonFormatter
from thousand.server.store.tables import head_revision
from waiting import until


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """One server for the module: JSON logs at debug level (the access log too, which
    prints every path with its query: the filter must cut it in JSON as in text)."""
    folder = tmp_path_factory.mktemp("ops")
    with serve(folder, "--bot-delay", "0", "--log-format", "json",
               "--log-level", "debug") as base:
        yield base, folder / "serve.log"


def metric(base: str, name: str, **labels: str) -> float:
    """A sample's value in ``/metrics`` (0 when the series is not there)."""
    text = HTTP.get(base + "/metrics", timeout=30).text
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v
                                           for k, v in labels.items()):
                return float(sample.value)
    return 0.0


# --------------------------------------------------------------------------- health


def test_healthz_and_readyz_answer_with_the_worker(server: tuple[str, Path]) -> None:
    base, _ = server
    alive = HTTP.get(base + "/healthz", timeout=30)
    assert alive.status_code == 200
    assert alive.json()["status"] == "ok"
    worker = alive.json()["worker"]
    assert worker
    ready = HTTP.get(base + "/readyz", timeout=30)
    assert ready.status_code == 200, ready.text
    assert ready.json() == {"status": "ok", "worker": worker}
    assert ready.headers["cache-control"] == "no-store"


def test_the_openapi_document_declares_them(server: tuple[str, Path]) -> None:
    base, _ = server
    doc = HTTP.get(base + "/api/openapi.json", timeout=30).json()
    assert set(doc["paths"]["/healthz"]["get"]["responses"]) == {"200"}
    ready = doc["paths"]["/readyz"]["get"]["responses"]
    assert set(ready) == {"200", "503"}
    assert "Retry-After" in ready["503"]["headers"]
    assert "/metrics" not in doc["paths"]  # not the API: for Prometheus only


def test_readyz_is_503_when_the_postgres_schema_is_dropped(tmp_path: Path) -> None:
    url, drop = postgres_schema()  # skips when PostgreSQL is not there
    dropped = False
    try:
        with serve(tmp_path, "--db", url) as base:
            assert HTTP.get(base + "/readyz", timeout=30).status_code == 200
            drop()
            dropped = True
            r = HTTP.get(base + "/readyz", timeout=30)
            assert r.status_code == 503, r.text
            assert r.json()["status"] == "unavailable"
            assert r.json()["reason"].startswith("store: ")
            assert r.headers["retry-after"] == "5"
            # alive all the same: a supervisor must not restart it for its database
            assert HTTP.get(base + "/healthz", timeout=30).status_code == 200
    finally:
        if not dropped:
            drop()


def test_readyz_checks_the_redis_of_the_rate_limits(tmp_path: Path) -> None:
    """Counted in a Redis that answers: ready; in one that is not there (a port nobody
    listens on): 503 naming it."""
    for name in ("up", "down"):
        (tmp_path / name).mkdir()
    with serve(tmp_path / "up", "--limits-storage", "redis://127.0.0.1:6379",
               limited=True) as base:
        r = HTTP.get(base + "/readyz", timeout=30)
        if r.status_code == 503 and "limits storage" in r.json().get("reason", ""):
            needs.require("redis")
            pytest.fail("the worker cannot reach its Redis limits storage: " + r.text)
        assert r.status_code == 200, r.text
    gone = f"redis://127.0.0.1:{free_port()}"
    with serve(tmp_path / "down", "--limits-storage", gone, limited=True) as base:
        r = HTTP.get(base + "/readyz", timeout=30)
        assert r.status_code == 503, r.text
        assert r.json()["reason"].startswith("limits storage: ")


def test_not_ready_before_the_hub_runs_and_the_first_failing_check_is_the_reason() -> None:
    import asyncio

    from thousand.server.ops.health import Readiness

    async def fails() -> None:
        raise ConnectionError("refused")

    async def hangs() -> None:
        await asyncio.sleep(60)

    async def passes() -> None:
        return None

    readiness = Readiness()
    readiness.add("first", passes)
    assert asyncio.run(readiness.reason()) == (
        "hub: not running (the live tables are being rebuilt, or it stops)")
    readiness.started = True
    assert asyncio.run(readiness.reason()) is None
    readiness.add("second", fails)
    readiness.add("third", hangs)
    assert asyncio.run(readiness.reason()) == "second: refused"
    hanging = Readiness()
    hanging.started = True
    hanging.add("slow", hangs)
    assert asyncio.run(hanging.reason()) == "slow: no answer within 2 s"


def test_the_cluster_redis_check_pings_and_fails_with_the_reason() -> None:
    """``health.redis_check`` (the cluster's ``--redis`` adds it to ``/readyz``): a Redis
    that answers passes, a port nobody listens on is the reason of a 503."""
    import asyncio

    from thousand.server.ops.health import Readiness, redis_check

    async def reasons() -> tuple[str | None, str | None]:
        up, down = Readiness(), Readiness()
        up.started = down.started = True
        up.add("redis", redis_check("redis://127.0.0.1:6379/0"))
        down.add("redis", redis_check(f"redis://127.0.0.1:{free_port()}/0"))
        return await up.reason(), await down.reason()

    up, down = asyncio.run(reasons())
    if up is not None and "6379" in up:
        needs.need("redis", up)
    assert up is None
    assert down is not None and down.startswith("redis: ")


# --------------------------------------------------------------------------- metrics


def _my_turn(ws: Any) -> dict[str, Any]:
    """The seat's snapshot once it is to move (the bots move at once: --bot-delay 0)."""
    for _ in range(400):
        ws.send(json.dumps({"type": "snapshot"}))
        while True:
            message = json.loads(ws.recv(timeout=30))
            if message.get("type") == "snapshot":
                break
        if message["view"]["legal"]:
            return message  # type: ignore[no-any-return]
        time.sleep(0.02)
    raise AssertionError("the seat never came to move")


def test_metrics_count_a_persons_move_and_the_bots(server: tuple[str, Path]) -> None:
    base, _ = server
    worker = HTTP.get(base + "/healthz", timeout=30).json()["worker"]
    before = metric(base, "thousand_moves_total", by="person", worker=worker)
    latency = metric(base, "thousand_move_seconds_count", by="person", worker=worker)
    created = HTTP.post(base + "/api/tables", json={
        "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]}, timeout=30)
    assert created.status_code == 201, created.text
    table, token = created.json()["table"], created.json()["token"]
    ws_url = base.replace("http", "ws", 1) + f"/ws/{table}"
    protocols: Any = ["thousand", f"token.{token}"]
    with connect(ws_url, subprotocols=protocols) as ws:
        snap = _my_turn(ws)
        assert metric(base, "thousand_connections", worker=worker) >= 1
        ws.send(json.dumps({"type": "move", "move": snap["view"]["legal"][0],
                            "version": snap["version"]}))
        while json.loads(ws.recv(timeout=30)).get("type") != "events":
            pass
    assert metric(base, "thousand_moves_total", by="person", worker=worker) == before + 1
    assert metric(base, "thousand_move_seconds_count", by="person",
                  worker=worker) == latency + 1
    for _ in range(200):  # the bots answer the person's move at once (--bot-delay 0)
        if metric(base, "thousand_moves_total", by="bot", worker=worker) >= 1:
            break
        time.sleep(0.05)
    assert metric(base, "thousand_moves_total", by="bot", worker=worker) >= 1
    assert metric(base, "thousand_store_write_seconds_count", worker=worker) >= 2
    assert metric(base, "thousand_live_tables", worker=worker) >= 1
    # defined for the cluster and the bots' queue: shown from zero
    text = HTTP.get(base + "/metrics", timeout=30).text
    assert f'thousand_lease_takeovers_total{{worker="{worker}"}} 0.0' in text
    assert f'thousand_bot_queue{{worker="{worker}"}}' in text
    assert f'thousand_bot_busy{{worker="{worker}"}}' in text


def test_metrics_are_not_given_to_another_sites_page(server: tuple[str, Path]) -> None:
    base, _ = server
    r = HTTP.get(base + "/metrics", headers={"Sec-Fetch-Site": "cross-site"}, timeout=30)
    assert r.status_code == 403
    assert "access-control-allow-origin" not in r.headers
    plain = HTTP.get(base + "/metrics", timeout=30)
    assert plain.status_code == 200
    assert plain.headers["content-type"].startswith("text/plain")


def test_no_metrics_turns_them_off(tmp_path: Path) -> None:
    with serve(tmp_path, "--no-metrics") as base:
        assert HTTP.get(base + "/metrics", timeout=30).status_code == 404
        assert HTTP.get(base + "/readyz", timeout=30).status_code == 200


def test_a_rate_limited_request_is_counted(tmp_path: Path) -> None:
    with serve(tmp_path, "--limit", "table=1/minute", limited=True) as base:
        worker = HTTP.get(base + "/healthz", timeout=30).json()["worker"]
        body = {"seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]}
        assert HTTP.post(base + "/api/tables", json=body, timeout=30).status_code == 201
        assert HTTP.post(base + "/api/tables", json=body, timeout=30).status_code == 429
        assert metric(base, "thousand_rate_limited_total", limit="table",
                      worker=worker) == 1


# --------------------------------------------------------------------------- logs


def test_json_log_lines_parse_name_the_worker_and_cut_secrets(
        server: tuple[str, Path]) -> None:
    base, log = server
    worker = HTTP.get(base + "/healthz", timeout=30).json()["worker"]
    secret = "s3cr3t-invite-value"
    HTTP.get(base + f"/api/tables?invite={secret}", timeout=30)

    def json_lines() -> list[dict[str, Any]]:
        return [json.loads(line) for line in log.read_text("utf-8").splitlines()
                if line.startswith("{")]

    # the access log line is written after the answer: wait for it
    lines = until(lambda: (found := json_lines()) and any(
        "/api/tables?" in line["message"] for line in found) and found,
        what="the access log line of the request")
    for line in lines:
        assert {"time", "level", "logger", "message", "worker"} <= set(line)
        assert line["worker"] == worker
        assert line["time"].endswith("Z")
    assert any(line["logger"] == "uvicorn.error" for line in lines)
    access = [line for line in lines if line["logger"] == "uvicorn.access"
              and "/api/tables?" in line["message"]]
    assert access, "no access log line for the request"
    assert secret not in log.read_text("utf-8")


def test_the_json_formatter_gives_a_table_and_a_traceback() -> None:
    given = logging.LogRecord("thousand.server", logging.INFO, __file__, 1,
                              "a seat is free", None, None)
    given.table = "T2"  # extra={"table": "T2"}
    assert json.loads(JsonFormatter().format(given))["table"] == "T2"
    untold = logging.LogRecord("thousand.server", logging.INFO, __file__, 1, "%d tables",
                               (3,), None)
    assert "table" not in json.loads(JsonFormatter().format(untold))
    # the hub's own lines name the table first: "table %s: ..."
    record = logging.LogRecord("thousand.server", logging.ERROR, __file__, 1,
                               "table %s: the hint failed", ("T1",), None)
    try:
        raise ValueError("boom")
    except ValueError:
        record.exc_info = sys.exc_info()
    line = json.loads(JsonFormatter().format(record))
    assert line["table"] == "T1"
    assert line["message"] == "table T1: the hint failed"
    assert line["level"] == "error"
    assert "ValueError: boom" in line["exc"]


def test_an_unknown_log_format_is_one_clear_line(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-c", "from thousand.cli import main; main()",
                        "serve", "--log-format", "xml", "--no-browser", "--lang", "en",
                        "--db", f"sqlite:///{tmp_path / 'x.db'}", "--port", "0"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    assert "--log-format: text or json" in r.stderr
    assert "Traceback" not in r.stderr


# --------------------------------------------------------------------------- startup


def test_the_migrations_head_is_alembics() -> None:
    """The head read from the migration modules' text (no Alembic import) is the one
    Alembic finds."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", "thousand.server.store:migrations")
    assert head_revision() == ScriptDirectory.from_config(cfg).get_current_head()


def test_a_current_database_opens_without_alembic(tmp_path: Path) -> None:
    """A restarted worker (its database current) imports neither Alembic nor the
    terminal's Textual; a database behind still migrates."""
    db = f"sqlite:///{tmp_path / 'a.db'}"
    code = ("import sys; from thousand.server import create_app; create_app(%r); "
            "print(sorted(m for m in ('alembic', 'textual', 'mako') if m in sys.modules))")
    first = subprocess.run([sys.executable, "-c", code % db], capture_output=True,
                           text=True, timeout=120, check=True)
    assert "'alembic'" in first.stdout  # an empty database: the migrations ran
    again = subprocess.run([sys.executable, "-c", code % db], capture_output=True,
                           text=True, timeout=120, check=True)
    assert again.stdout.strip() == "[]", again.stdout


def test_readyz_is_never_a_false_503_while_it_starts(tmp_path: Path) -> None:
    """From the process's start, every answer /readyz gives is 200 or a 503 that says the
    hub is not running yet, and 200 comes (the time it takes: benchmarks/startup.py)."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", "from thousand.cli import main; main()",
                             "serve", "--db", f"sqlite:///{tmp_path / 's.db'}", "--port",
                             str(port), "--no-browser", "--no-limits"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz",
                                            timeout=5) as r:
                    seen.append(r.status)
                    break
            except urllib.error.HTTPError as e:
                assert e.code == 503
                assert json.loads(e.read())["reason"].startswith("hub: not running")
                seen.append(503)
            except OSError:
                time.sleep(0.01)
        assert seen and seen[-1] == 200, seen
    finally:
        proc.terminate()
        proc.wait(10)


# --------------------------------------------------------------------------- the proxy


def _nginx_conf(folder: Path, worker_port: int, http_port: int, https_port: int) -> Path:
    """deploy/nginx.conf as it is, but for this machine: its upstreams the worker's
    port, its listening ports free ones on loopback, a self-signed certificate, its logs
    in ``folder``."""
    tls = folder / "tls"
    tls.mkdir()
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days",
                    "1", "-subj", "/CN=thousand.example.org", "-keyout",
                    str(tls / "privkey.pem"), "-out", str(tls / "fullchain.pem")],
                   check=True, capture_output=True, timeout=60)
    text = (Path(__file__).parent.parent / "deploy" / "nginx.conf").read_text("utf-8")
    for address in ("10.40.0.11:8000", "10.40.0.12:8000"):
        assert address in text
        text = text.replace(address, f"127.0.0.1:{worker_port}")
    text = text.replace("listen [::]:80;", "").replace("listen [::]:443 ssl http2;", "")
    text = text.replace("listen 80;", f"listen 127.0.0.1:{http_port};")
    text = text.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;")
    text = text.replace("/etc/nginx/tls/", f"{tls}/")
    text = text.replace("/var/log/nginx/access.log", str(folder / "access.log"))
    conf = folder / "nginx.conf"
    conf.write_text(text, "utf-8")
    return conf


def test_deploy_nginx_conf_proxies_the_site_and_its_sockets(tmp_path: Path) -> None:
    """deploy/nginx.conf in front of a real worker: HTTP goes to HTTPS, the API and a
    table's WebSocket work through it (TLS, the upgrade), /metrics is not served to the
    internet while the worker serves it on the private side."""
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists()
                                      else None)
    if nginx is None or shutil.which("openssl") is None:
        needs.need("nginx", "no nginx or no openssl (Debian: apt-get install nginx-light "
                   "openssl)")
    (tmp_path / "worker").mkdir()
    (tmp_path / "proxy").mkdir()
    with serve(tmp_path / "worker", "--trusted-proxy", "127.0.0.1") as worker:
        worker_port = int(worker.rsplit(":", 1)[1])
        http_port, https_port = free_port(), free_port()
        conf = _nginx_conf(tmp_path / "proxy", worker_port, http_port, https_port)
        folder = tmp_path / "proxy"
        globals_ = f"daemon off; pid {folder / 'nginx.pid'}; error_log {folder / 'error.log'};"
        checked = subprocess.run([nginx, "-t", "-c", str(conf), "-g", globals_],
                                 capture_output=True, text=True, timeout=60)
        assert checked.returncode == 0, checked.stderr
        proc = subprocess.Popen([nginx, "-c", str(conf), "-g", globals_],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            site = f"https://127.0.0.1:{https_port}"
            host = {"Host": "thousand.example.org"}
            with httpx.Client(verify=False, timeout=30, headers=host) as client:
                for _ in range(100):
                    try:
                        ready = client.get(site + "/readyz")
                        break
                    except httpx.TransportError:
                        time.sleep(0.05)
                assert ready.status_code == 200, ready.text
                plain = HTTP.get(f"http://127.0.0.1:{http_port}/", headers=host, timeout=30)
                assert plain.status_code == 301
                assert plain.headers["location"] == "https://thousand.example.org/"
                assert client.get(site + "/metrics").status_code == 404
                assert HTTP.get(worker + "/metrics", timeout=30).status_code == 200
                created = client.post(site + "/api/tables", json={
                    "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]})
                assert created.status_code == 201, created.text
                table, token = created.json()["table"], created.json()["token"]
            context = ssl.create_default_context()
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
            protocols: Any = ["thousand", f"token.{token}"]
            with connect(f"wss://127.0.0.1:{https_port}/ws/{table}", ssl=context,
                         subprotocols=protocols) as ws:
                assert ws.subprotocol == "thousand"
                first = json.loads(ws.recv(timeout=30))
                assert first["type"] == "snapshot"
                assert first["id"] == table
            log = (folder / "access.log").read_text("utf-8")
            assert f"/ws/{table}" in log and token not in log
        finally:
            proc.terminate()
            proc.wait(10)
