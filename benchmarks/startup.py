"""How soon a started ``thousand serve`` is ready: the time from the process's start to
its first 200 of ``GET /readyz`` (docs/server.md "Deployment": a worker restarted in a
rolling restart must be back within 1.5 s on the project's machine).

Run by hand (about half a minute):

    .venv/bin/python benchmarks/startup.py [--runs 5] [--src DIR] [--path /readyz]
        [--note TEXT] [--out benchmarks/results/startup.txt]

Each run starts a real ``thousand serve --no-browser --db sqlite:///<tmp>/bench.db`` on
a free port and asks ``--path`` every 5 ms until it answers 200.  ``restart`` is a
database the server has opened before (a worker restarted: its migrations are done),
``fresh`` an empty database each run (a first start: the migrations run); each with
``-cpu``, the CPU seconds the server had used when it was ready, which a busy
machine changes much less than the wall-clock figure.  Beside them,
``import`` is ``python -c "import thousand.server"`` and ``--help``/``play --help`` are
the CLI's own start, which must not get slower.  Every figure is the median of ``--runs``
runs, in seconds; one line is appended to ``--out`` with the machine's load average, as
other work on a shared machine makes every figure larger.

``--src DIR`` runs another checkout's sources (its ``src``), and ``--path /api/rules``
measures a checkout that has no ``/readyz`` yet: how the "before" line was made.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _env(src: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(src)
    return env


def _cpu_seconds(pid: int) -> float:
    """The CPU time (user and system, every thread) a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def time_to_ready(src: Path, db: str, path: str) -> tuple[float, float]:
    """Seconds from starting ``thousand serve`` to its first 200 of ``path``, and the
    CPU seconds it had used by then (what the start costs, whatever else runs)."""
    port = _free_port()
    cmd = [sys.executable, "-c", "from thousand.cli import main; main()", "serve",
           "--db", db, "--port", str(port), "--no-browser", "--no-limits"]
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, env=_env(src), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"thousand serve stopped with {proc.returncode}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}",
                                            timeout=5) as r:
                    if r.status == 200:
                        return time.perf_counter() - started, _cpu_seconds(proc.pid)
            except urllib.error.HTTPError:
                pass  # 503: up, not ready yet
            except OSError:
                pass  # not listening yet
            if time.perf_counter() - started > 60:
                raise SystemExit("thousand serve was not ready within 60 s")
            time.sleep(0.005)
    finally:
        proc.terminate()
        proc.wait(10)


def time_command(src: Path, code: str, *args: str) -> float:
    """Seconds a ``python -c code args`` takes, start to exit."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code, *args], env=_env(src), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--path", default="/readyz")
    parser.add_argument("--note", default="")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "startup.txt")
    args = parser.parse_args()
    src = args.src.resolve()
    cli = "from thousand.cli import main; main()"
    with tempfile.TemporaryDirectory(prefix="thousand-startup-") as tmp:
        kept = f"sqlite:///{tmp}/bench.db"
        time_to_ready(src, kept, args.path)  # the migrations, once: not counted
        restarts = [time_to_ready(src, kept, args.path) for _ in range(args.runs)]
        fresh = [time_to_ready(src, f"sqlite:///{tmp}/fresh{i}.db", args.path)
                 for i in range(args.runs)]
        figures = {
            "restart": [wall for wall, _ in restarts],
            "restart-cpu": [cpu for _, cpu in restarts],
            "fresh": [wall for wall, _ in fresh],
            "fresh-cpu": [cpu for _, cpu in fresh],
            "import": [time_command(src, "import thousand.server")
                       for _ in range(args.runs)],
            "--help": [time_command(src, cli, "--help") for _ in range(args.runs)],
            "play --help": [time_command(src, cli, "play", "--help")
                            for _ in range(args.runs)],
        }
    load = os.getloadavg()[0]
    cells = "  ".join(f"{name} {statistics.median(values):.3f}"
                      for name, values in figures.items())
    line = (f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())}  median of {args.runs}, "
            f"s: {cells}  (path {args.path}, load {load:.2f})"
            + (f"  {args.note}" if args.note else ""))
    print(line)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("a", encoding="utf-8") as f:
        f.write(line + "\n")


if __name__ == "__main__":
    main()
