#!/usr/bin/env bash
# The README's main job, after the build: translate samples/bitrev.c (seed
# 000, Fig. 1) for the 8-cube, run it on the threads back end, check that it
# prints what the sequential program prints, and show the contention report
# (T = 8 before the mapping, 1 after).
#
# usage: tools/main-job.sh [BUILD_DIR]      (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-build}" && pwd)
work="$build/main-job"
mkdir -p "$work"
hyperdo="$build/bin/hyperdo"
cc=${CC:-cc}

echo "== hyperdo translate --dim 8 samples/bitrev.c"
"$hyperdo" translate --dim 8 "$root/samples/bitrev.c" -o "$work/bitrev.spmd.c"
sed -n '/^ \* Channel contention/,/^ \*\//p' "$work/bitrev.spmd.c"

echo "== build: sequential (cc) and SPMD (threads back end, 256 processors)"
"$cc" -std=c11 -O2 -Wno-unknown-pragmas -I"$root/runtime/include" \
    "$root/samples/bitrev.c" -lm -o "$work/bitrev.seq"
"$cc" -std=c11 -O2 -Wall -Wextra -Werror -I"$root/runtime/include" \
    "$work/bitrev.spmd.c" "$build/runtime/libhyperdo.a" -lm -pthread \
    -o "$work/bitrev.spmd"

echo "== run both and compare"
set +e
"$work/bitrev.seq" > "$work/seq.out"; seq_rc=$?
"$work/bitrev.spmd" > "$work/spmd.out"; spmd_rc=$?
set -e
if ! cmp -s "$work/seq.out" "$work/spmd.out" || [ "$seq_rc" != "$spmd_rc" ]; then
    echo "MISMATCH: exit status $seq_rc (sequential) vs $spmd_rc (SPMD)" >&2
    diff "$work/seq.out" "$work/spmd.out" | head -20 >&2
    exit 1
fi
echo "same output ($(wc -l < "$work/seq.out") lines) and exit status ($seq_rc)"
head -5 "$work/spmd.out"

echo "== contention report: hyperdo analyze --dim 8 samples/bitrev.c"
"$hyperdo" analyze --dim 8 "$root/samples/bitrev.c"
