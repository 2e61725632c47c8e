#!/usr/bin/env bash
# A translated mesh program's doall phase costs what `hyperdo cost` says
# (issue 16, item 4; Chung and Ranka 1990, Section 2.3): mesh505.c (the
# 101 x 5 quad grid, NB neighbours) is translated with each mapping below
# in place of its mesh505.map, run on the sim back end under the
# store-and-forward models with the paper's T_setup = 1150 us and
# T_c = 10 us per 8-byte word, and every execution of its gathering doall
# after the first (the inspector's) must take exactly `hyperdo cost`'s
# C_bi / C_uni and move exactly sum c_kl words.  The two sides share only
# runtime/sim/saf.c's step engine: the program's messages come from its
# kept requests, `hyperdo cost`'s c_kl from the mesh read by its reader.
#
# usage: saf_phase.sh HYPERDO INCLUDE_DIR SIM_LIB SOURCE WORKDIR
set -u
hyperdo=$1 include=$2 lib=$3 source=$4 work=$5
cc=${CC:-cc}
rm -rf "$work" && mkdir -p "$work" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for case in "3 stripes" "3 greedy" "4 stripes" "4 greedy"; do
    set -- $case
    dim=$1 alg=$2 dir="$work/$alg-$dim"
    mkdir -p "$dir"
    cp "$source" "$dir/mesh505.c"
    "$hyperdo" map grid:101x5 --dim "$dim" --algorithm "$alg" -o "$dir/mesh505.map" \
        >/dev/null || { fail "$case: hyperdo map"; continue; }
    "$hyperdo" cost grid:101x5 "$dir/mesh505.map" --dim "$dim" --json >"$dir/cost.json" ||
        { fail "$case: hyperdo cost"; continue; }
    "$hyperdo" translate --dim "$dim" --mapping identity "$dir/mesh505.c" -o "$dir/m.spmd.c" ||
        { fail "$case: translate"; continue; }
    $cc -O1 -I"$include" "$dir/m.spmd.c" "$lib" -lm -lpthread -o "$dir/m" ||
        { fail "$case: cc"; continue; }
    seq=$($cc -O1 -w -o "$dir/seq" "$dir/mesh505.c" -lm && "$dir/seq")
    for model in bi uni; do
        out=$(HYPERDO_SIM_MODEL=saf-$model HYPERDO_SIM_BETA=1150 HYPERDO_SIM_TAU=1.25 \
              HYPERDO_SIM_WORD=8 HYPERDO_SIM_REPORT="$dir/$model.rep" "$dir/m") ||
            { fail "$case $model: run"; continue; }
        [ "$out" = "$seq" ] || fail "$case $model: prints '$out', the sequential program '$seq'"
        want=$(sed -n "s/.*\"c_${model}_us\": *\([0-9.]*\).*/\1/p" "$dir/cost.json")
        words=$(sed -n 's/.*"words": *\([0-9]*\).*/\1/p' "$dir/cost.json")
        [ -n "$want" ] && [ -n "$words" ] || { fail "$case: no c_${model}_us / words in cost.json"; continue; }
        # Phases of doall 0 after its first: columns phase doall messages bytes ... time_us.
        got=$(awk '!/^#/ && $2 == 0 { if (seen++) print $4, $9 }' "$dir/$model.rep" | sort -u)
        [ "$(echo "$got" | wc -l)" = 1 ] || { fail "$case $model: the kept phases differ: $got"; continue; }
        bytes=${got% *} time=${got#* }
        if awk -v a="$time" -v b="$want" 'BEGIN { exit !(a + 0 == b + 0) }' &&
           [ "$bytes" = $((words * 8)) ]; then
            echo "ok: $alg on the $dim-cube, saf-$model: C = $time us, $words words"
        else
            fail "$alg on the $dim-cube, saf-$model: phase $time us / $bytes bytes, hyperdo cost $want us / $words words"
        fi
    done
done
[ "$fails" = 0 ] && echo "saf_phase: all passed" || echo "saf_phase: $fails failed"
[ "$fails" = 0 ]
