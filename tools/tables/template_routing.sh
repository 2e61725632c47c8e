#!/bin/sh
# template_routing.sh — Lee and Aboelaze's claim that a template reaches
# its proper destination in O(log N) steps, put to Hyperdo's e-cube model:
# samples/layouts.c (the eight routings of Table 1, every template number
# known only at run time) on the 4-, 6- and 8-cube, and for each routing
# the largest number of paths sharing one channel (Hou et al. 2001,
# Definition 6) over every template number (the LCC family's worst case,
# docs/layouts.md), before the mapping, after the one mapping for all
# eight, and for the routing alone after its own best mapping.
#
#     tools/tables/template_routing.sh [BUILD_DIR]
#
# Prints a Markdown table (docs/layouts.md has its output).
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
hyperdo=$build/bin/hyperdo
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "| routing | n = 4: before | after | n = 6: before | after | n = 8: before | after |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for n in 4 6 8; do
    N=$((1 << n)) R=$((1 << (n / 2))) H=$((n / 2))
    sed -e "s/^#pragma hyperdo cube(4)/#pragma hyperdo cube($n)/" \
        -e "s/^#define N 16 .*/#define N $N/" -e "s/^#define R 4 .*/#define R $R/" \
        -e "s/^#define H 2 .*/#define H $H/" "$root/samples/layouts.c" > "$work/layouts$n.c"
    grep -q "^#pragma hyperdo cube($n)" "$work/layouts$n.c" || { echo "sed did not set the cube" >&2; exit 1; }
    # The report's "Contention before and after the mapping" rows end in T.
    "$hyperdo" analyze "$work/layouts$n.c" |
        awk '/^== Contention before and after/ { on = 1; next } /^== / { on = 0 }
             on && / before / { b = $NF } on && / after / { print b, $NF }' > "$work/t$n"
    [ "$(wc -l < "$work/t$n")" -eq 8 ] || { echo "n = $n: not eight routings" >&2; exit 1; }
done
i=1
echo "row|column|contiguous block|distributed block|row (Gray)|column (Gray)|contiguous block (Gray)|distributed block (Gray)" |
    tr '|' '\n' | while IFS= read -r name; do
        printf '| %s' "$name"
        for n in 4 6 8; do
            set -- $(sed -n "${i}p" "$work/t$n")
            printf ' | %s | %s' "$1" "$2"
        done
        printf ' |\n'
        i=$((i + 1))
    done
