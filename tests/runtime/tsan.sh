#!/usr/bin/env bash
# tsan.sh — the threads back end under ThreadSanitizer: the run-time
# library's sources and the programs that use it compiled with
# -fsanitize=thread, run, and any report is a failure.  The threads share
# the host's copies of block arrays (HD_ARRAY_HOST_STATIC), one copy of a
# doall's environment, the mailboxes and the message buffers: races there
# would print right answers most of the time.  tests/e2e/maps.c's and
# maps4.c's remaps change the shared layouts and move aliased slices
# between doalls.
#
#   tsan.sh HYPERDO SOURCE_DIR WORKDIR
#
# Runs tests/runtime/rt_prog.c's scenarios (n = 3, both mappings),
# table_prog.c and tabarray_prog.c (n = 3, mapped), and
# tests/e2e/{guards,streams,indirect_levels,maps}.c translated for the 3-cube
# and tests/e2e/maps4.c for the 4-cube.
set -u
hyperdo=$1 src=$2 work=$3
cc=${CC:-cc}
mkdir -p "$work" || exit 1
rt="$src/runtime/src/common.c $src/runtime/src/layout.c $src/runtime/src/exchange.c
    $src/runtime/src/relayout.c $src/runtime/src/requests.c
    $src/runtime/src/stats.c $src/runtime/src/buffers.c $src/runtime/src/transport_threads.c
    $src/runtime/src/coll.c $src/runtime/coll/schedule.c $src/runtime/src/table.c"
flags=(-std=c11 -O1 -g -fsanitize=thread -I"$src/runtime/include" -I"$src/runtime/src"
       -I"$src/runtime/coll")
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 report_signal_unsafe=0"
fail() { echo "FAIL: $*"; exit 1; }

# shellcheck disable=SC2086
"$cc" "${flags[@]}" "$src/tests/runtime/rt_prog.c" $rt -pthread -o "$work/rt_prog" \
    || fail "build rt_prog with -fsanitize=thread"
# The collectives (hyperdo/coll.h): every algorithm over the threads, whose
# shared schedule cache and per-node indexes must be race-free.
# shellcheck disable=SC2086
"$cc" "${flags[@]}" "$src/tests/coll/coll_prog.c" $rt -pthread -lm -o "$work/coll_prog" \
    || fail "build coll_prog with -fsanitize=thread"
"$work/coll_prog" 3 1 light > "$work/coll.out" 2> "$work/coll.err" \
    || fail "coll_prog 3 1 light under ThreadSanitizer: $(head -c 2000 "$work/coll.err")"
grep -q "^coll ok" "$work/coll.out" || fail "coll_prog 3 1 light: $(cat "$work/coll.out")"
# Table distributions and the gather plan (Chung and Ranka 1990's
# inspector/executor): the plan's exchanges and its collective reuse test.
# shellcheck disable=SC2086
"$cc" "${flags[@]}" "$src/tests/runtime/table_prog.c" $rt -pthread -lm -o "$work/table_prog" \
    || fail "build table_prog with -fsanitize=thread"
"$work/table_prog" 3 map > "$work/table.out" 2> "$work/table.err" \
    || fail "table_prog 3 map under ThreadSanitizer: $(head -c 2000 "$work/table.err")"
grep -q "table ok" "$work/table.out" || fail "table_prog 3 map: $(cat "$work/table.out")"
# Arrays distributed by a table and request sets kept across a doall's
# executions (tabarray_prog.c): slices of unequal sizes, kept sets per
# processor.
# shellcheck disable=SC2086
"$cc" "${flags[@]}" "$src/tests/runtime/tabarray_prog.c" $rt -pthread -lm \
    -o "$work/tabarray_prog" || fail "build tabarray_prog with -fsanitize=thread"
"$work/tabarray_prog" 3 map "$work/tabarray" > "$work/tabarray.out" 2> "$work/tabarray.err" \
    || fail "tabarray_prog 3 map under ThreadSanitizer: $(head -c 2000 "$work/tabarray.err")"
grep -q "tabarray ok" "$work/tabarray.out" \
    || fail "tabarray_prog 3 map: $(cat "$work/tabarray.out")"
for scenario in permute scatter exchange groups requests alias relayout; do
    for map in 0 1; do
        "$work/rt_prog" $scenario 3 $map >"$work/out" 2>"$work/err" ||
            { cat "$work/out" "$work/err"; fail "rt_prog $scenario 3 $map"; }
        grep -q "ThreadSanitizer" "$work/err" && { cat "$work/err"; fail "rt_prog $scenario: a race"; }
    done
done
echo "ok: rt_prog scenarios under ThreadSanitizer"

for entry in guards:3 streams:3 indirect_levels:3 maps:3 maps4:4; do
    prog=${entry%:*} dim=${entry#*:}
    "$cc" -std=c11 -O1 -Wno-unknown-pragmas -I"$src/runtime/include" "$src/tests/e2e/$prog.c" \
        -lm -o "$work/$prog.seq" || fail "sequential $prog"
    "$work/$prog.seq" >"$work/$prog.seq.out"
    "$hyperdo" translate --dim "$dim" "$src/tests/e2e/$prog.c" -o "$work/$prog.spmd.c" \
        -- -I"$src/runtime/include" || fail "translate $prog"
    # shellcheck disable=SC2086
    "$cc" "${flags[@]}" "$work/$prog.spmd.c" $rt -pthread -lm -o "$work/$prog" \
        || fail "build $prog with -fsanitize=thread"
    "$work/$prog" >"$work/$prog.out" 2>"$work/$prog.err" ||
        { cat "$work/$prog.err"; fail "$prog under ThreadSanitizer"; }
    grep -q "ThreadSanitizer" "$work/$prog.err" && { cat "$work/$prog.err"; fail "$prog: a race"; }
    cmp -s "$work/$prog.seq.out" "$work/$prog.out" || fail "$prog prints something else"
done
echo "ok: translated programs under ThreadSanitizer"
