#!/bin/sh
# Out of memory is never a dropped item (issue 12): for every N, a run in
# which the N-th allocation fails (HYPERDO_FAIL_ALLOC=N, analysis/hd_alloc.h)
# either ends with status 1, "hyperdo: error: out of memory" and the old
# output file untouched, or — once N is past the run's last allocation —
# writes exactly what a run without failures writes.  Tried for translate
# (to a file) and analyze --json (to standard output).
#
# usage: alloc_failures.sh HYPERDO SOURCE_DIR WORK_DIR
set -u
hyperdo=$1 src=$2 work=$3
mkdir -p "$work" && cd "$work" || exit 1
rm -f ./*.c ./*.json ./*.err ./.*.tmp* 2>/dev/null
prog=$src/tests/tools/alloc_small.c
fail=0

"$hyperdo" translate "$prog" -o out.c -- -I"$src/runtime/include" 2>ref.err && mv out.c ref.c ||
    { echo "translate without failures failed:"; cat ref.err; exit 1; }
"$hyperdo" analyze --json "$prog" -- -I"$src/runtime/include" >ref.json 2>ref.err ||
    { echo "analyze without failures failed:"; cat ref.err; exit 1; }

# try CMD...: runs CMD with the N-th allocation failing for N = 1, 2, ...
# until it succeeds; $out is the file it writes, $ref what it must hold.
try() {
    n=1
    while :; do
        printf 'old contents\n' >"$out"
        HYPERDO_FAIL_ALLOC=$n "$@" >stdout.txt 2>stderr.txt
        rc=$?
        if [ $rc -eq 0 ]; then
            if ! cmp -s "$out" "$ref"; then
                echo "N=$n: $1 $2 succeeded but wrote something else"; fail=1
            fi
            echo "$2: $((n - 1)) allocations, each failed in turn"
            return
        fi
        if [ $rc -ne 1 ] || ! grep -q '^hyperdo: error: out of memory$' stderr.txt; then
            echo "N=$n: $2 exited $rc without saying out of memory:"; cat stderr.txt; fail=1
        fi
        if [ "$out" != stdout.txt ] && [ "$(cat "$out")" != "old contents" ]; then
            echo "N=$n: $2 clobbered its output file"; fail=1
        fi
        if ls -a | grep -q 'tmp'; then
            echo "N=$n: $2 left a temporary file:"; ls -a; fail=1
            rm -f ./.*tmp* ./*tmp*
        fi
        n=$((n + 1))
        if [ $n -gt 100000 ]; then
            echo "$2 never succeeded"; exit 1
        fi
    done
}

out=out.c ref=ref.c
try "$hyperdo" translate "$prog" -o out.c -- -I"$src/runtime/include"
out=stdout.txt ref=ref.json
try "$hyperdo" analyze --json "$prog" -- -I"$src/runtime/include"
exit $fail
