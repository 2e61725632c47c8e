#!/bin/sh
# tools/robustness/sweep.sh [OPTIONS] [DIR...] — run `hyperdo analyze
# --json` (built with AddressSanitizer and UndefinedBehaviorSanitizer) over
# every C file under the DIRs (default /usr/share /usr/include) and count
# how it ends.  The analyzer must never crash: every file must end in exit
# 0 (analysed) or 1 (diagnosed: most files here lack their project's
# headers or have no doall loops worth the name) within the time limit.
#
# Three passes over the same files:
#   plain  the files as they are: the parsing path;
#   doall  copies with `#pragma hyperdo doall` inserted before every line
#          that starts with `for (`, read with --dim 8: the doall path
#          (loop checks, index expressions, communications);
#   canon  the same, and each of those for headers (when on one line)
#          replaced by `for (int i = 0; i < 256; i++)`, so that real loop
#          bodies (pointers, structs, calls, ...) get past the loop checks
#          into the analysis of their references.
# Compiler arguments: -w (no warnings noise) and -I the file's directory
# (so a copy in the doall pass finds its neighbours' headers).
#
# Options:
#   -j N        files at a time (default: the number of processors)
#   -t SECONDS  time limit per file (default 10)
#   -H          also take *.h files as C inputs
#   -p PASSES   which passes, comma-separated (default plain,doall,canon)
#   -o DIR      where results go (default build-robust/sweep-DATE)
# Environment:
#   HYPERDO     the hyperdo to run; by default build-robust/bin/hyperdo,
#               configured and built here with -DHYPERDO_SANITIZE=ON
#   CC          the compiler for that build (default: CMake's choice)
#
# Output: one line per file in DIR/PASS.tsv (class, exit status, seconds,
# file), the stderr of every crash in DIR/crashes/, a summary on stdout.
# Exit status 0 when nothing crashed, 1 otherwise.
#
# Classes: ok (exit 0 and a JSON object on stdout), diagnosed (exit 1, empty
# stdout), timeout, crash (an ASan or UBSan report, or death by a signal),
# leak (a LeakSanitizer report only), other (any other exit status, e.g. 2
# for a command line hyperdo does not accept), contract (ok or
# diagnosed by its status but stdout says otherwise: output on failure, or
# no valid JSON on success).  Every class but ok and diagnosed leaves a
# report in DIR/crashes/ and makes the exit status 1.
set -eu

# ------------------------------------------------------------ one file
# Internal: sweep.sh --one PASS OUTDIR TIMEOUT FILE
if [ "${1:-}" = --one ]; then
    pass=$2 outdir=$3 limit=$4 file=$5
    tmp=$(mktemp -d)
    input=$file
    dim=
    if [ "$pass" != plain ]; then
        input="$tmp/$(basename "$file")"
        case $input in *.c) ;; *) input="$input.c" ;; esac
        awk -v canon="$([ "$pass" = canon ] && echo 1 || echo 0)" \
            -f "$(dirname "$0")/mutate.awk" "$file" >"$input"
        dim="--dim 8"
    fi
    start=$(date +%s.%N)
    rc=0
    # shellcheck disable=SC2086
    timeout -k 5 "$limit" "$HYPERDO" analyze --json $dim "$input" -- -w \
        -I"$(dirname "$file")" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
    end=$(date +%s.%N)
    secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
    if grep -q -E 'ERROR: (Address|UndefinedBehavior)Sanitizer|runtime error:|Sanitizer:DEADLYSIGNAL' "$tmp/err"; then
        class=crash
    elif grep -q 'ERROR: LeakSanitizer' "$tmp/err"; then
        class=leak
    elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        class=timeout
    elif [ "$rc" -eq 0 ]; then
        class=ok
        if ! grep -q '^[[:space:]]*{' "$tmp/out"; then
            class=contract
        elif command -v python3 >/dev/null 2>&1 &&
             ! python3 -c 'import json,sys; json.load(sys.stdin)' <"$tmp/out" 2>/dev/null; then
            class=contract
        fi
    elif [ "$rc" -eq 1 ]; then
        class=diagnosed
        [ -s "$tmp/out" ] && class=contract
    elif [ "$rc" -ge 128 ]; then
        class=crash
    else
        class=other
    fi
    if [ "$class" != ok ] && [ "$class" != diagnosed ]; then
        id=$(printf '%s' "$pass:$file" | cksum | cut -d' ' -f1)
        {
            echo "pass: $pass"
            echo "file: $file"
            [ "$input" != "$file" ] && echo "mutated input kept as: $outdir/crashes/$id.c"
            echo "command: $HYPERDO analyze --json $dim $input -- -w -I$(dirname "$file")"
            echo "exit status: $rc"
            echo "--- stdout (first 20 lines)"
            head -n 20 "$tmp/out"
            echo "--- stderr"
            cat "$tmp/err"
        } >"$outdir/crashes/$id.txt"
        [ "$input" != "$file" ] && cp "$input" "$outdir/crashes/$id.c"
    fi
    printf '%s\t%s\t%s\t%s\n' "$class" "$rc" "$secs" "$file"
    rm -rf "$tmp"
    exit 0
fi

# ------------------------------------------------------------ driver
root=$(cd "$(dirname "$0")/../.." && pwd)
self="$root/tools/robustness/sweep.sh"
jobs=$(nproc 2>/dev/null || echo 2)
limit=10
headers=0
passes=plain,doall,canon
outdir=
usage() {
    echo "usage: tools/robustness/sweep.sh [-j N] [-t SECONDS] [-H] [-p plain,doall,canon] [-o DIR] [DIR...]" >&2
    exit 2
}
while getopts j:t:Hp:o: opt; do
    case $opt in
        j) jobs=$OPTARG ;;
        t) limit=$OPTARG ;;
        H) headers=1 ;;
        p) passes=$OPTARG ;;
        o) outdir=$OPTARG ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] && set -- /usr/share /usr/include

. "$root/tools/robustness/sanitized.sh"
if [ -z "${HYPERDO:-}" ]; then
    HYPERDO=$(sanitized_build "$root" hyperdo)
fi
export HYPERDO
[ -x "$HYPERDO" ] || { echo "sweep: no hyperdo at $HYPERDO" >&2; exit 2; }
[ -n "$outdir" ] || outdir="$root/build-robust/sweep-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$outdir/crashes"


list="$outdir/files.txt"
if [ "$headers" = 1 ]; then
    find "$@" -type f \( -name '*.c' -o -name '*.h' \) 2>/dev/null | LC_ALL=C sort >"$list"
else
    find "$@" -type f -name '*.c' 2>/dev/null | LC_ALL=C sort >"$list"
fi
nfiles=$(wc -l <"$list")
echo "sweep: $nfiles files under $*; $HYPERDO; $jobs at a time, ${limit}s each; results in $outdir"

crashed=0
for pass in $(echo "$passes" | tr ',' ' '); do
    case $pass in plain|doall|canon) ;; *) usage ;; esac
    t0=$(date +%s)
    tr '\n' '\0' <"$list" |
        xargs -0 -n 1 -P "$jobs" sh "$self" --one "$pass" "$outdir" "$limit" \
        >"$outdir/$pass.tsv.tmp"
    LC_ALL=C sort -t "$(printf '\t')" -k 4 "$outdir/$pass.tsv.tmp" >"$outdir/$pass.tsv"
    rm -f "$outdir/$pass.tsv.tmp"
    t1=$(date +%s)
    if [ "$pass" != plain ]; then
        pragmas=$(tr '\n' '\0' <"$list" | xargs -0 cat 2>/dev/null |
                  grep -c -E '^[[:space:]]*for[[:space:]]*\(' || true)
        echo "== pass $pass ($pragmas pragmas inserted), $((t1 - t0)) s"
    else
        echo "== pass plain, $((t1 - t0)) s"
    fi
    awk -F '\t' '{ n[$1]++; total++ }
        END {
            printf "   files %d: ok %d, diagnosed %d, timeout %d, crash %d, leak %d, other %d, contract %d\n",
                total, n["ok"], n["diagnosed"], n["timeout"], n["crash"], n["leak"], n["other"], n["contract"]
        }' "$outdir/$pass.tsv"
    awk -F '\t' '$1 != "ok" && $1 != "diagnosed" {
            printf "   %-8s exit %-3s %6ss  %s\n", $1, $2, $3, $4 }' "$outdir/$pass.tsv"
    if grep -q -v -E '^(ok|diagnosed)' "$outdir/$pass.tsv"; then
        crashed=1
    fi
done
[ "$crashed" = 0 ] || echo "reports: $outdir/crashes/"
exit "$crashed"
