#!/bin/sh
# wu_align_tables.sh — the figures of docs/omega-align.md: Wu 1984's
# Table III rerun (tools/tables/wu_table3.c: Algorithm IV against the exact
# optimum on random programs of Table III's design, omega network and
# butterfly) and the budgets of the alignment algorithms
# (bench/bench_wu_align.c: CPU and wall time per n and tree size).
#
#     tools/tables/wu_align_tables.sh [BUILD_DIR] [PROGRAMS]
#
# BUILD_DIR defaults to build (hyperdo_analysis is built there first);
# PROGRAMS (default 300) random programs on the omega network, a third of
# them on the butterfly.  Both programs are compiled here against
# BUILD_DIR's static libraries (neither is a CMake target) and print
# Markdown on standard output.  The budgets are timings: run it on an
# idle machine.
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
programs=${2:-300}
cc=${CC:-cc}

cmake -S "$root" -B "$build" >/dev/null
cmake --build "$build" --target hyperdo_analysis >/dev/null
libs="-Wl,--start-group $build/analysis/libhyperdo_analysis.a $build/analysis/libhyperdo_gf2.a $build/frontend/libhyperdo_model.a -Wl,--end-group"
flags="-O2 -std=c11 -Wall -Wextra -I$root/analysis -I$root/frontend -I$root/runtime/include"
# shellcheck disable=SC2086
$cc $flags "$root/tools/tables/wu_table3.c" $libs -o "$build/wu_table3"
# shellcheck disable=SC2086
$cc $flags "$root/bench/bench_wu_align.c" $libs -o "$build/bench_wu_align"

"$build/wu_table3" --programs "$programs" --network omega
echo
"$build/wu_table3" --programs $((programs / 3)) --network butterfly --list 0
echo
"$build/bench_wu_align" --max-n 7 --reps 3 --budget 10
