#!/usr/bin/env bash
# bench/bench_mesh.sh — issue 16, item 6: the mesh mappings against their
# peers, in one run.  For each mesh (the stand-ins of Chung and Ranka
# 1990's samples, and quad grids of 10^4 and 10^6 nodes) and cube
# (n = 3, 4, 5, 8, 10), `hyperdo map --json` with each algorithm (the
# paper's stripes and greedy, Scotch, METIS, and best under each cost
# model), and a table of: max load and the load-balance criterion, NB
# edges cut, sum c_kl, sum c_kl H, C and speedup under both channel
# models, and run time (wall, and CPU = user + sys: the machine is
# shared).  Then the targets, each as a ratio against a baseline measured
# in this run:
#   best's T_par / the better of Scotch's and METIS's T_par (Eq. 2, so
#     speedup against speedup), per case and model (target <= 1);
#   greedy on 10^6 nodes and 2^10 processors: seconds (its CPU time and
#     the ratio to METIS's on the same case);
#   stripes on 10^5 nodes (316 x 316) and 2^10 processors: CPU time
#     against the target of 60 s (ratio <= 1).
#
# usage: bench/bench_mesh.sh [--quick] [--repeat R] HYPERDO
#   --quick     leave out the 10^6-node grid except greedy and METIS on
#               the 10-cube (the full run takes about half an hour)
#   --repeat R  time each run R times (default 1) and keep the least CPU
set -u
quick=0 repeat=1
while [ $# -gt 1 ]; do
    case $1 in
    --quick) quick=1; shift ;;
    --repeat) repeat=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# = 1 ] || { echo "usage: bench/bench_mesh.sh [--quick] [--repeat R] HYPERDO" >&2; exit 2; }
hyperdo=$1
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

key() { sed -n "s/.*\"$2\": *\\(true\\|false\\|[-0-9.eE+][-0-9.eE+]*\\).*/\\1/p" "$1"; }

# One run, R times: prints "wall cpu" of the fastest (by CPU) and leaves
# the report in $work/out.json; "fail" when hyperdo fails.
run() {
    local best_cpu='' best_wall=''
    for ((r = 0; r < repeat; r++)); do
        if ! /usr/bin/time -f "%e %U %S" -o "$work/time" "$hyperdo" map "$@" --json \
             >"$work/out.json" 2>"$work/err"; then
            echo fail
            return
        fi
        read -r wall user sys <"$work/time"
        cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
        if [ -z "$best_cpu" ] || awk -v a="$cpu" -v b="$best_cpu" 'BEGIN { exit !(a < b) }'; then
            best_cpu=$cpu best_wall=$wall
        fi
    done
    echo "$best_wall $best_cpu"
}

meshes="grid:8x8 grid:8x5 grid:16x10 grid:101x5 torus:16x10 cylinder:20x17 cylinder:18x11 grid:100x100 grid:1000x1000"
echo "| mesh | N | n | algorithm | max load | LBC | edges cut | sum c_kl | sum c_kl H | C_bi us | C_uni us | speedup bi | speedup uni | wall s | CPU s |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
: >"$work/rows"
for mesh in $meshes; do
    for n in 3 4 5 8 10; do
        for alg in stripes greedy scotch metis best-bi best-uni; do
            if [ $quick = 1 ] && [ "$mesh" = grid:1000x1000 ] &&
               ! { [ $n = 10 ] && { [ $alg = greedy ] || [ $alg = metis ]; }; }; then
                continue
            fi
            case $alg in
            best-bi) args=(--algorithm best --cost bi) ;;
            best-uni) args=(--algorithm best --cost uni) ;;
            *) args=(--algorithm "$alg") ;;
            esac
            echo "bench_mesh: $mesh n=$n $alg" >&2
            t=$(run "$mesh" --dim "$n" "${args[@]}")
            if [ "$t" = fail ]; then
                echo "| $mesh | | $n | $alg | failed: $(head -c 120 "$work/err" | tr '\n|' '  ') |"
                continue
            fi
            f=$work/out.json
            N=$(key "$f" nodes) cbi=$(key "$f" c_bi_us) cuni=$(key "$f" c_uni_us)
            printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %.0f | %.0f | %.2f | %.2f | %s | %s |\n' \
                "$mesh" "$N" "$n" "$alg" "$(key "$f" max_load)" "$(key "$f" lbc)" \
                "$(key "$f" edge_cut)" "$(key "$f" words)" "$(key "$f" word_hops)" \
                "$cbi" "$cuni" "$(key "$f" speedup_bi)" "$(key "$f" speedup_uni)" $t
            echo "$mesh $n $alg $(key "$f" tpar_bi_us) $(key "$f" tpar_uni_us) $t" >>"$work/rows"
        done
    done
done

echo
echo "Targets (ratios against baselines of this run):"
fails=0
# best under model m against min(Scotch, METIS) under m, in T_par (Eq. 2:
# what best minimises, the speedup's denominator).
while read -r mesh n; do
    for m in bi uni; do
        col=$([ $m = bi ] && echo 4 || echo 5)
        best=$(awk -v a="$mesh" -v b="$n" -v c="best-$m" -v k=$col '$1 == a && $2 == b && $3 == c { print $k }' "$work/rows")
        peer=$(awk -v a="$mesh" -v b="$n" -v k=$col '$1 == a && $2 == b && ($3 == "scotch" || $3 == "metis") { if (m == "" || $k < m) m = $k } END { print m }' "$work/rows")
        [ -n "$best" ] && [ -n "$peer" ] || continue
        ratio=$(awk -v a="$best" -v b="$peer" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 1) }')
        ok=$(awk -v r="$ratio" 'BEGIN { print r <= 1 ? "ok" : "MISSED" }')
        [ "$ok" = ok ] || fails=$((fails + 1))
        echo "  best/min(Scotch, METIS), T_par $m, $mesh on the $n-cube: $ratio ($ok)"
    done
done < <(awk '{ print $1, $2 }' "$work/rows" | sort -u)

g=$(awk '$1 == "grid:1000x1000" && $2 == 10 && $3 == "greedy" { print $7 }' "$work/rows")
mt=$(awk '$1 == "grid:1000x1000" && $2 == 10 && $3 == "metis" { print $7 }' "$work/rows")
if [ -n "$g" ]; then
    echo "  greedy, 10^6 nodes on the 10-cube: $g s CPU (METIS on the same: ${mt:-?} s; ratio $(awk -v a="$g" -v b="${mt:-0}" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'))"
fi
echo "bench_mesh: stripes on grid:316x316 n=10" >&2
t=$(run grid:316x316 --dim 10 --algorithm stripes)
if [ "$t" != fail ]; then
    cpu=${t#* }
    ratio=$(awk -v a="$cpu" 'BEGIN { printf "%.2f", a / 60 }')
    ok=$(awk -v r="$ratio" 'BEGIN { print r <= 1 ? "ok" : "MISSED" }')
    [ "$ok" = ok ] || fails=$((fails + 1))
    echo "  stripes, 99856 nodes on the 10-cube: ${t% *} s wall, $cpu s CPU; / 60 s = $ratio ($ok)"
else
    fails=$((fails + 1))
    echo "  stripes, 99856 nodes on the 10-cube: failed"
fi
echo "targets missed: $fails"
