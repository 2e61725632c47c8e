#!/bin/sh
# make_figures.sh — Hou et al. 2001, Figs. 5-7 on Hyperdo's simulator: latency
# against accepted throughput for matrix transpose (Fig. 5), bit reverse
# (Fig. 6) and reverse-flip (Fig. 7) on the 8-cube, with e-cube routing
# and no mapping, each pattern's own optimal mapping (M-S), the dynamic
# program's mapping for the three together (M-G), and P-cube routing
# without mapping for comparison.
#
#     tools/figures/make_figures.sh [BUILD_DIR] [CYCLES]
#
# BUILD_DIR defaults to build (built first if hyperdo is missing), CYCLES
# (per run, after CYCLES/4 of warm-up) to 20000.  Writes into
# docs/figures/: figN_PATTERN.csv (every run of every sweep), saturation.csv
# (one line per curve) and figN_PATTERN.png / .svg.  Needs jq and gnuplot
# (apt-get install -y jq gnuplot-nox).
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
cycles=${2:-20000}
out=$root/docs/figures
spec=$root/samples/lcc/paper.lcc
hyperdo=$build/bin/hyperdo

for tool in jq gnuplot; do
    command -v $tool >/dev/null 2>&1 || {
        echo "make_figures.sh: $tool is needed (apt-get install -y jq gnuplot-nox)" >&2
        exit 1
    }
done
if [ ! -x "$hyperdo" ]; then
    cmake -S "$root" -B "$build" >/dev/null
    cmake --build "$build" --target hyperdo >/dev/null
fi
mkdir -p "$out"
start=$(date +%s)

# curve name, hyperdo sim options
curves='ecube|--mapping identity
M-S|--mapping optimal
M-G|--mapping set
pcube|--mapping identity --routing pcube'

echo "pattern,curve,saturation,max_channel_load,zero_load_latency" > "$out/saturation.csv"
fig=5
for pattern in transpose bitrev revflip; do
    csv=$out/fig${fig}_$pattern.csv
    echo "curve,offered,accepted,latency_mean,latency_p99,saturated" > "$csv"
    echo "$curves" | while IFS='|' read -r curve opts; do
        # shellcheck disable=SC2086  # opts is a list of options
        json=$("$hyperdo" sim --json "$spec" --lcc "$pattern" $opts --sweep \
               --seed 1 --cycles "$cycles")
        echo "$json" | jq -r --arg c "$curve" '.points[] |
            [$c, .offered, .accepted, .latency_mean, .latency_p99,
             (if .saturated then 1 else 0 end)] | @csv' | tr -d '"' >> "$csv"
        echo "$json" | jq -r --arg p "$pattern" --arg c "$curve" '
            [$p, $c, .saturation, .max_channel_load, .zero_load_latency] | @csv' |
            tr -d '"' >> "$out/saturation.csv"
        echo "  fig. $fig $pattern $curve: saturation $(echo "$json" | jq .saturation)" >&2
    done
    fig=$((fig + 1))
done

title() {
    case $1 in
        transpose) echo "Fig. 5: matrix transpose, 8-cube" ;;
        bitrev) echo "Fig. 6: bit reverse, 8-cube" ;;
        revflip) echo "Fig. 7: reverse-flip, 8-cube" ;;
    esac
}

fig=5
for pattern in transpose bitrev revflip; do
    base=$out/fig${fig}_$pattern
    for term in png svg; do
        if [ $term = png ]; then
            setterm="set terminal pngcairo size 800,560 font 'sans,11'"
        else
            setterm="set terminal svg size 800,560 font 'sans,11' background rgb 'white'"
        fi
        gnuplot <<GP
$setterm
set output '$base.$term'
set datafile separator ','
set title '$(title $pattern): latency against accepted throughput (20-flit messages)'
set xlabel 'accepted throughput (flits/cycle/node)'
set ylabel 'mean latency (cycles)'
set xrange [0:1]
set yrange [0:400]
set key top right
set grid
# Sustainable runs only (column 6 = 0): past saturation the latency grows
# with the length of the run.
plot '$base.csv' using (strcol(1) eq 'ecube' && \$6 == 0 ? \$3 : 1/0):4 with linespoints pt 7 lc rgb '#c0392b' title 'e-cube, no mapping', \
     '' using (strcol(1) eq 'pcube' && \$6 == 0 ? \$3 : 1/0):4 with linespoints pt 5 lc rgb '#7f8c8d' title 'P-cube, no mapping', \
     '' using (strcol(1) eq 'M-G' && \$6 == 0 ? \$3 : 1/0):4 with linespoints pt 9 lc rgb '#2980b9' title 'e-cube, M-G (one mapping for all three)', \
     '' using (strcol(1) eq 'M-S' && \$6 == 0 ? \$3 : 1/0):4 with linespoints pt 11 lc rgb '#27ae60' title 'e-cube, M-S (own optimal mapping)'
GP
    done
    fig=$((fig + 1))
done

echo "make_figures.sh: wrote $out in $(( $(date +%s) - start )) s" >&2
