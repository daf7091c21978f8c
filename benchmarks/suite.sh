#!/usr/bin/env bash
# How long the default test run takes, and what it costs the machine: the wall time of a
# command (by default `./run test`, what CI runs) and the whole machine's busy CPU-seconds
# over it (from /proc/stat: the servers, workers and Chromium the tests start count too,
# which the suite's own accounting of its child processes misses).  Run by hand on an idle
# machine (docs/testing.md "How long it takes"):
#
#     bash benchmarks/suite.sh                      # ./run test
#     bash benchmarks/suite.sh taskset -c 0 ./run test
#
# One line is appended to benchmarks/results/suite.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- ./run test
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat; }
b0=$(busy); t0=$(date +%s.%N)
"$@"; rc=$?
b1=$(busy); t1=$(date +%s.%N)
hz=$(getconf CLK_TCK)
line="$(date -u +%F) $(git rev-parse --short HEAD) | $* | exit $rc | wall $(echo "$t1 - $t0" | bc | xargs printf '%.0f') s | machine CPU $(( (b1 - b0) / hz )) s | $(nproc) cores"
echo "$line"
mkdir -p benchmarks/results && echo "$line" >> benchmarks/results/suite.txt
exit $rc
