#!/usr/bin/env bash
# A translated program must stop with a run-time error where the
# translation cannot keep the sequential program's meaning (overlapping
# pointer arguments, an extent that does not hold the loop's range; docs/
# annotations.md, "Pointers and the heap").  For PROG.c:
#   1. compile PROG.c with $CC as plain C11 and run it: it must finish
#      (status 0); its stdout is the reference;
#   2. hyperdo translate --dim N PROG.c, for each dimension of its range and
#      both mappings; the output compiles with -Wall -Wextra -Werror;
#   3. run it (threads: directly; mpi: $MPIEXEC -n 2^N): it must exit with
#      status 1, its stderr must hold a line "hyperdo: error: ..." that
#      contains the expected text, and its stdout must be the start of the
#      reference (what the program printed before the stop).
# PROG.c's first lines:
#   // e2e-error: dims A-B
#   // stderr: TEXT           (a fixed string; FILE:L:C of PROG.c may start it)
#
# Usage: expect_error.sh --hyperdo PATH --include DIR --lib ARCHIVE
#                        [--backend threads|mpi] [--dims A-B] [--workdir DIR] PROG.c
# Environment: CC, MPICC, MPIEXEC, MPIEXEC_FLAGS, HYPERDO_TEST_CFLAGS, E2E_TIMEOUT.
set -euo pipefail

hyperdo='' include='' lib='' backend=threads dims='' workdir=''
while [ $# -gt 0 ]; do
    case $1 in
    --hyperdo) hyperdo=$2; shift 2 ;;
    --include) include=$2; shift 2 ;;
    --lib) lib=$2; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    --dims) dims=$2; shift 2 ;;
    --workdir) workdir=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -eq 1 ] && [ -n "$hyperdo" ] && [ -n "$include" ] && [ -n "$lib" ] || {
    sed -n '/^# Usage:/,/^# Environment/p' "$0" >&2
    exit 2
}
prog=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
name=$(basename "$prog" .c)
CC=${CC:-cc}
MPICC=${MPICC:-mpicc}
MPIEXEC=${MPIEXEC:-mpiexec}
read -r -a mpiexec_flags <<<"${MPIEXEC_FLAGS:-}"
timeout_s=${E2E_TIMEOUT:-120}
workdir=${workdir:-$(mktemp -d "${TMPDIR:-/tmp}/hyperdo-error-$name.XXXXXX")}
mkdir -p "$workdir"

range=$(sed -n '1s|^// e2e-error: dims \([0-9][0-9]*\)-\([0-9][0-9]*\)[[:space:]]*$|\1 \2|p' "$prog")
expect=$(sed -n '2s|^// stderr: ||p' "$prog")
[ -n "$range" ] && [ -n "$expect" ] || {
    echo "expect_error.sh: $prog: the first lines must be '// e2e-error: dims A-B' and '// stderr: TEXT'" >&2
    exit 2
}
read -r lo hi <<<"$range"
if [ -n "$dims" ]; then
    [ "${dims%-*}" -gt "$lo" ] && lo=${dims%-*}
    [ "${dims#*-}" -lt "$hi" ] && hi=${dims#*-}
fi

cflags=(-std=c11 -Wall -Wextra -Werror -I"$include")
"$CC" "${cflags[@]}" -Wno-unknown-pragmas "$prog" -o "$workdir/$name.seq" -lm
status=0
timeout "$timeout_s" "$workdir/$name.seq" >"$workdir/$name.seq.out" </dev/null || status=$?
[ "$status" -eq 0 ] || { echo "FAIL: $name: the sequential program exits with $status"; exit 1; }

failures=0
for ((n = lo; n <= hi; n++)); do
    for m in identity optimal; do
        tag="$name: $backend, --dim $n, --mapping $m"
        base=$workdir/$name.$n.$m
        if ! "$hyperdo" translate --dim "$n" --mapping "$m" "$prog" -o "$base.spmd.c" -- -I"$include" \
                >"$base.log" 2>&1; then
            echo "FAIL: $tag: translate failed"; sed 's/^/    /' "$base.log"
            failures=$((failures + 1)); continue
        fi
        compiler=$CC
        [ "$backend" = mpi ] && compiler=$MPICC
        if ! "$compiler" "${cflags[@]}" "$base.spmd.c" "$lib" -lm -pthread ${HYPERDO_TEST_CFLAGS:-} \
                -o "$base.$backend" >"$base.log" 2>&1; then
            echo "FAIL: $tag: the translation does not build"; sed 's/^/    /' "$base.log" | head -20
            failures=$((failures + 1)); continue
        fi
        status=0
        if [ "$backend" = threads ]; then
            timeout "$timeout_s" "$base.$backend" >"$base.out" 2>"$base.err" </dev/null || status=$?
        else
            timeout "$timeout_s" "$MPIEXEC" "${mpiexec_flags[@]}" -n $((1 << n)) "$base.$backend" \
                >"$base.out" 2>"$base.err" </dev/null || status=$?
        fi
        ok=1
        [ "$status" -eq 1 ] || { echo "FAIL: $tag: exit status $status, 1 expected"; ok=0; }
        if ! grep '^hyperdo: error: ' "$base.err" | grep -qF -- "$expect"; then
            echo "FAIL: $tag: no 'hyperdo: error:' line with: $expect"; ok=0
        fi
        if ! cmp -s "$base.out" <(head -c "$(wc -c <"$base.out")" "$workdir/$name.seq.out"); then
            echo "FAIL: $tag: stdout is not the start of the sequential program's"; ok=0
        fi
        if [ $ok = 1 ]; then
            echo "ok: $tag"
        else
            sed 's/^/    stderr: /' "$base.err" | head -10
            failures=$((failures + 1))
        fi
    done
done
echo "$name ($backend): $failures failed (dims $lo-$hi)"
[ "$failures" -eq 0 ]
