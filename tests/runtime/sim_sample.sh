#!/bin/bash
# sim_sample.sh — a translated sample under the simulation back end
# (libhyperdo-sim.a): its stdout and exit status must be the sequential
# program's, and the report (HYPERDO_SIM_REPORT, never stdout) must show
# the expected busiest channel for its one communication phase.
#
#   sim_sample.sh HYPERDO INCLUDE LIB WORKDIR SOURCE MAPPING MAX_LOAD [-- CFLAGS...]
#
# MAX_LOAD: headers on the busiest channel of every phase with messages
# (samples/bitrev.c on the 8-cube: 8 with --mapping identity, Theorem 1's
# T = (1,2,4,8,8,4,2,1); 1 with --mapping optimal, Corollary 1), or "any".
# With MAX_SENDS set in the environment, a list with a number for each
# phase with messages, in order, each such phase's busiest sender must
# have sent exactly that many (a column gather under Lee and Aboelaze's
# skew: 1; under cyclic: 2^n - 1).
set -u
hyperdo=$1 include=$2 lib=$3 work=$4 src=$5 mapping=$6 max_load=$7
shift 7
[ "${1-}" = -- ] && shift
cc=${CC:-cc}
mkdir -p "$work" || exit 1
name=$(basename "$src" .c)
fail() { echo "FAIL: $*"; exit 1; }

"$cc" -std=c11 -O1 -Wno-unknown-pragmas -I"$include" "$@" "$src" -o "$work/$name.seq" -lm \
    || fail "sequential build"
"$work/$name.seq" >"$work/seq.out"
seq_rc=$?

# TRANSLATE_FLAGS: more options for translate (--collectives off where a
# test counts the direct messages of Hou et al. 2001's Fig. 1d).
# shellcheck disable=SC2086
"$hyperdo" translate ${TRANSLATE_FLAGS:-} --mapping "$mapping" "$src" -o "$work/$name.$mapping.c" -- "$@" \
    || fail "hyperdo translate"
"$cc" -std=c11 -O1 -I"$include" "$@" "$work/$name.$mapping.c" "$lib" -pthread -lm ${HYPERDO_TEST_CFLAGS:-} \
    -o "$work/$name.$mapping" || fail "build with libhyperdo-sim.a"
HYPERDO_SIM_REPORT="$work/report.$mapping" "$work/$name.$mapping" \
    >"$work/sim.out" 2>"$work/sim.err"
sim_rc=$?

[ "$sim_rc" = "$seq_rc" ] || fail "exit status $sim_rc, sequential $seq_rc"
cmp -s "$work/seq.out" "$work/sim.out" || {
    diff "$work/seq.out" "$work/sim.out" | head -20
    fail "stdout differs from the sequential program's"
}
[ -s "$work/sim.err" ] && { cat "$work/sim.err"; fail "stderr not empty (the report goes to the file)"; }
# phase doall messages bytes max_bytes max_hops max_load cycles time_us max_sends
awk -v want="$max_load" -v sends="${MAX_SENDS-}" '
    /^#/ { next }
    { n++
      if ($3 > 0) {
          comm++
          if (want != "any" && $7 != want) bad = bad " phase " $1 ": busiest channel " $7
          if (sends != "") {
              split(sends, want_sends, " ")
              if ($10 != want_sends[comm]) bad = bad " phase " $1 ": busiest sender " $10
          }
      } }
    END {
        if (!n) { print "no phases in the report"; exit 1 }
        if (!comm) { print "no phase with messages"; exit 1 }
        if (bad != "") { print "expected busiest channel " want ", busiest sender " sends ":" bad; exit 1 }
    }' "$work/report.$mapping" || { cat "$work/report.$mapping"; fail "report"; }
echo "ok: $name --mapping $mapping: stdout as sequential, busiest channel $max_load${MAX_SENDS:+, busiest sender $MAX_SENDS}"
