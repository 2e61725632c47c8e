#!/bin/sh
# tools/robustness/halves.sh [-j N] [-p PASSES] [DIR...] — read every C file
# under the DIRs (default /usr/share /usr/include) whole and in two halves
# at once (frontend/halves.h) with `test_halves --compare`, built with
# AddressSanitizer and UndefinedBehaviorSanitizer, and count the outcomes:
#   halves   split in two, and the same errors, diagnostics and program;
#   whole    not split (no plan, or the halves were given up), the same;
#   differs  the two readings differ (a bug: the file is kept);
#   crash    a sanitizer report or a signal (a bug: the file is kept).
# Passes as in sweep.sh: plain, doall, canon (tools/robustness/mutate.awk),
# the mutated ones read with --dim 8.  Compiler arguments: -w -I the
# file's directory.  Exit status 1 when anything differs or crashed.
#
# Environment: TEST_HALVES, the test_halves to run (default: built here in
# build-robust with -DHYPERDO_SANITIZE=ON).
set -eu

if [ "${1:-}" = --one ]; then
    pass=$2 outdir=$3 file=$4
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
    rc=0
    # shellcheck disable=SC2086
    timeout -k 5 60 "$TEST_HALVES" --compare $dim "$input" -- -w \
        -I"$(dirname "$file")" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
    if grep -q -E 'ERROR: (Address|UndefinedBehavior|Leak)Sanitizer|runtime error:|Sanitizer:DEADLYSIGNAL' "$tmp/err" ||
       [ "$rc" -ge 2 ]; then
        class=crash
    else
        class=$(cut -d: -f1 "$tmp/out" | head -n 1)
        [ -n "$class" ] || class=crash
    fi
    if [ "$class" = crash ] || [ "$class" = differs ]; then
        id=$(printf '%s' "$pass:$file" | cksum | cut -d' ' -f1)
        { echo "pass: $pass"; echo "file: $file"; echo "status: $rc";
          cat "$tmp/out" "$tmp/err"; } >"$outdir/kept/$id.txt"
        cp "$input" "$outdir/kept/$id.c"
    fi
    printf '%s\t%s\n' "$class" "$file"
    rm -rf "$tmp"
    exit 0
fi

root=$(cd "$(dirname "$0")/../.." && pwd)
self="$root/tools/robustness/halves.sh"
jobs=$(nproc 2>/dev/null || echo 2)
passes=plain,doall,canon
while getopts j:p: opt; do
    case $opt in
        j) jobs=$OPTARG ;;
        p) passes=$OPTARG ;;
        *) echo "usage: tools/robustness/halves.sh [-j N] [-p plain,doall,canon] [DIR...]" >&2
           exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] && set -- /usr/share /usr/include

. "$root/tools/robustness/sanitized.sh"
if [ -z "${TEST_HALVES:-}" ]; then
    TEST_HALVES=$(sanitized_build "$root" test_halves)
fi
export TEST_HALVES
outdir="$root/build-robust/halves-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$outdir/kept"
list="$outdir/files.txt"
find "$@" -type f -name '*.c' 2>/dev/null | LC_ALL=C sort >"$list"
echo "halves: $(wc -l <"$list") files under $*; $TEST_HALVES; results in $outdir"
bad=0
for pass in $(echo "$passes" | tr ',' ' '); do
    tr '\n' '\0' <"$list" |
        xargs -0 -n 1 -P "$jobs" sh "$self" --one "$pass" "$outdir" >"$outdir/$pass.tsv"
    awk -F '\t' -v pass="$pass" '{ n[$1]++; total++ }
        END { printf "== pass %s: files %d: halves %d, whole %d, differs %d, crash %d\n",
                     pass, total, n["halves"], n["whole"], n["differs"], n["crash"] }' "$outdir/$pass.tsv"
    awk -F '\t' '$1 != "halves" && $1 != "whole" { print "   " $1 "  " $2 }' "$outdir/$pass.tsv"
    if grep -q -E '^(differs|crash)' "$outdir/$pass.tsv"; then bad=1; fi
done
exit $bad
