#!/bin/sh
# tools/robustness/valgrind.sh [FILE...] — run `hyperdo analyze --json` (an
# ordinary build: no sanitizers) under valgrind's memcheck over annotated C
# files and count the runs with memory errors or definite leaks.
#
# The libFuzzer harness runs with LeakSanitizer on, but libclang is not
# instrumented; this is the second opinion on leaks of our own code along
# the whole command (front end, analysis, JSON output).
#
# Default FILEs: tools/fuzz/seeds/*.c, tests/frontend/*.c and
# tests/frontend/*/*.c (the reader's test corpus, its rejects included).
# Environment: HYPERDO (default build/bin/hyperdo, built if missing).
# Exit status 0 when every run is clean, 1 otherwise; each unclean run's
# valgrind log is kept in build-robust/valgrind/.
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -z "${HYPERDO:-}" ]; then
    HYPERDO="$root/build/bin/hyperdo"
    if [ ! -x "$HYPERDO" ]; then
        cmake -S "$root" -B "$root/build" >/dev/null
        cmake --build "$root/build" -j2 --target hyperdo >/dev/null
    fi
fi
command -v valgrind >/dev/null || { echo "valgrind.sh: valgrind is not installed" >&2; exit 2; }
if [ $# -eq 0 ]; then
    set -- "$root"/tools/fuzz/seeds/*.c
    for f in "$root"/tests/frontend/*.c "$root"/tests/frontend/*/*.c; do
        [ -e "$f" ] && set -- "$@" "$f"
    done
fi
logs="$root/build-robust/valgrind"
mkdir -p "$logs"

n=0 clean=0 bad=0 ok=0 diagnosed=0
for f in "$@"; do
    n=$((n + 1))
    log="$logs/$(basename "$f").log"
    rc=0
    valgrind -q --error-exitcode=99 --leak-check=full \
        --show-leak-kinds=definite --errors-for-leak-kinds=definite \
        --log-file="$log" "$HYPERDO" analyze --json "$f" -- \
        -I"$root/runtime/include" >/dev/null 2>&1 || rc=$?
    case $rc in
        0) ok=$((ok + 1)) ;;
        1) diagnosed=$((diagnosed + 1)) ;;
    esac
    if [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ]; then
        clean=$((clean + 1))
        rm -f "$log"
    else
        bad=$((bad + 1))
        echo "UNCLEAN (exit $rc): $f  (log: $log)"
    fi
done
echo "valgrind: $n runs: $clean clean ($ok analysed, $diagnosed diagnosed), $bad with memory errors or definite leaks"
[ "$bad" -eq 0 ]
