#!/bin/sh
# wu_align_tables.sh — the figures of docs/omega-align.md: Wu 1984's
# Table III rerun (tools/tables/wu_table3.c: Algorithm IV against the exact
# optimum on random programs of Table III's design, omega network and
# butterfly) and the budgets of the alignment algorithms
# (bench/bench_wu_align.c: CPU and wall time per n and tree size).
#
#     tools/tables/wu_align_tables.sh [BUILD_DIR] [PROGRAMS]
#
# BUILD_DIR defaults to build (the targets wu_table3 and bench_wu_align
# are built there first); PROGRAMS (default 300) random programs on the
# omega network, a third of them on the butterfly.  Both print Markdown on
# standard output.  The budgets are timings: run it on an idle machine.
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
programs=${2:-300}

cmake -S "$root" -B "$build" >/dev/null
cmake --build "$build" --target wu_table3 bench_wu_align >/dev/null
table3=$build/bin/wu_table3
bench=$build/bin/bench_wu_align
[ -x "$table3" ] || table3=$(find "$build" -name wu_table3 -type f -perm -u+x | head -1)
[ -x "$bench" ] || bench=$(find "$build" -name bench_wu_align -type f -perm -u+x | head -1)

"$table3" --programs "$programs" --network omega
echo
"$table3" --programs $((programs / 3)) --network butterfly --list 0
echo
"$bench" --max-n 7 --reps 3 --budget 10
