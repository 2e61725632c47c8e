#!/usr/bin/env bash
# random.sh — random programs of LCC reads (random_lcc.c), each validated
# like every e2e program: translated for every cube of 1 .. DIMS dimensions
# and both mappings, its output compared byte for byte with the sequential
# program's (tests/e2e/validate.sh).
#
#   random.sh GENERATOR VALIDATE HYPERDO INCLUDE LIB WORKDIR FIRST_SEED COUNT [DIMS]
set -u
gen=$1 validate=$2 hyperdo=$3 include=$4 lib=$5 work=$6 first=$7 count=$8 dims=${9:-5}
mkdir -p "$work" || exit 1
failed=0
for ((seed = first; seed < first + count; seed++)); do
    prog="$work/random_$seed.c"
    "$gen" "$seed" >"$prog" || { echo "FAIL: random_lcc $seed"; exit 1; }
    if ! bash "$validate" --hyperdo "$hyperdo" --include "$include" --lib "$lib" \
        --backend "${BACKEND:-threads}" --dims "1-$dims" --workdir "$work/$seed" "$prog" \
        >"$work/$seed.log" 2>&1; then
        echo "FAIL: seed $seed ($prog):"
        grep -v '^ok:' "$work/$seed.log" | head -40
        failed=$((failed + 1))
    else
        tail -1 "$work/$seed.log"
    fi
done
echo "random.sh: $count programs, $failed failed"
[ "$failed" -eq 0 ]
