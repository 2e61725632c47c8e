#!/bin/bash
# no_scan.sh HYPERDO SOURCE WORK — issue 13's "address generation without
# communication": every doall of Lee and Aboelaze's templates under skew
# (samples/layouts.c: all eight routings of Table 1 with template numbers
# known only at run time; tests/e2e/skew.c; tests/e2e/skew_rot.c but for
# its transpose, which exchanges with several partners under skew_rot on
# an odd cube) is a permutation
# of the processors, whose node code finds its one partner each way from
# its own number: it must have no loop over the processors (the packing
# loop `for (int hd_q = 0; ...` and the exchange loops
# `for (int hd_k = 1; ...`), no read that compares its element's owner
# with its own number (`hd_from0 == hd_me ? ...`), and send to hd_to
# alone.  The control: a doall
# that is no permutation (tests/codegen/node/counts.c's a[i >> 3], an LCG)
# must still have those loops and that comparison, so that the patterns
# are the ones codegen writes.
set -u
hyperdo=$1 source=$2 work=$3
mkdir -p "$work"
fail=0

# Prints "function loops compares sends" for each node function of file $1.
node_stats() {
    awk '/^static void hd_node_[0-9]+\(/ { if (name) print name, loops, compares, sends;
                                            name = $3; loops = 0; compares = 0; sends = 0 }
         /for \(int hd_(q = 0|k = 1);/ { loops++ }
         /hd_from[0-9]+ == hd_me \?/ { compares++ }
         /send\(hd_to, / { sends++ }
         END { if (name) print name, loops, compares, sends }' "$1"
}

for case in samples/layouts.c:8 tests/e2e/skew.c:9 tests/e2e/skew_rot.c:6; do
    prog=${case%:*} want=${case#*:}
    out=$work/$(basename "$prog" .c).spmd.c
    if ! "$hyperdo" translate "$source/$prog" -o "$out" 2>"$work/err"; then
        echo "no_scan: $prog: translate failed:"; cat "$work/err"; fail=1; continue
    fi
    nodes=0 direct=0
    while read -r name loops compares sends; do
        nodes=$((nodes + 1))
        if [ "$loops" -eq 0 ] && [ "$compares" -eq 0 ] && [ "$sends" -eq 1 ]; then
            direct=$((direct + 1))
        else
            echo "no_scan: $prog: ${name%(*} has $loops loops over the processors, $compares owner comparisons and $sends sends to hd_to"
        fi
    done < <(node_stats "$out")
    if [ "$direct" -ne "$want" ]; then
        echo "no_scan: $prog: $direct of $nodes doalls without a loop over the processors or an owner comparison, want $want"
        fail=1
    else
        echo "no_scan: $prog: $direct of $nodes doalls one message out and one in, no loop over the processors, no owner comparison"
    fi
done

# The control.
out=$work/counts.spmd.c
# (Direct messages: a collective would carry this LCG on the default cost
# model, with no loop over the processors either.)
if "$hyperdo" translate --collectives off --dim 3 "$source/tests/codegen/node/counts.c" -o "$out" 2>"$work/err"; then
    set -- $(node_stats "$out" | awk '$1 == "hd_node_3(const" { print $2, $3 }')
    if [ "${1:-0}" -lt 2 ] || [ "${2:-0}" -lt 1 ]; then
        echo "no_scan: control: counts.c's doall 3 (a[i >> 3], an LCG) has ${1:-no} loops over the processors and ${2:-no} owner comparisons; the patterns no longer match what codegen writes"
        fail=1
    else
        echo "no_scan: control: counts.c's doall 3, no permutation, has $1 loops over the processors and $2 owner comparisons"
    fi
else
    echo "no_scan: control: translate failed:"; cat "$work/err"; fail=1
fi
exit $fail
