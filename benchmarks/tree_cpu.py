"""The CPU-seconds a command's whole process tree used, Chromium's renderers included.

``/usr/bin/time`` and ``getrusage(RUSAGE_CHILDREN)`` count a child's CPU only when its
parent waits for it, and Chromium's zygote double-forks its renderers: they are orphans,
reaped by the init process, and their CPU (most of a browser test's) is counted by
nobody in the tree.  On a machine shared with other work, ``/proc/stat`` counts everyone's.
So this runs the command as a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``): every
orphan of the tree is re-parented here and reaped here, and the children's rusage is then
the whole tree's.  For comparing the CPU of a test file before and after a change
(docs/testing.md "How long it takes"), e.g.

    python3 benchmarks/tree_cpu.py .venv/bin/python -m pytest -n 2 --dist loadfile \\
        -q -m "not slow" tests/test_a11y.py

One line on stderr at the end: the wall time and the tree's user + system CPU-seconds.
The exit status is the command's.  Linux only.
"""

from __future__ import annotations

import ctypes
import os
import resource
import subprocess
import sys
import time

#: prctl's option (linux/prctl.h) that makes a process the reaper of its tree's orphans.
PR_SET_CHILD_SUBREAPER = 36


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")
    start = time.monotonic()
    command = subprocess.Popen(argv)
    status = 0
    while True:  # every child, the command's orphans too, until none is left
        try:
            pid, wait_status = os.wait()
        except ChildProcessError:
            break
        if pid == command.pid:
            status = os.waitstatus_to_exitcode(wait_status)
            command.returncode = status  # reaped here: Popen must not wait for it again
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = used.ru_utime + used.ru_stime
    print(f"tree_cpu: wall {time.monotonic() - start:.1f} s, CPU {cpu:.1f} s (user "
          f"{used.ru_utime:.1f}, system {used.ru_stime:.1f}), exit {status}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
