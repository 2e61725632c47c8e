#!/bin/sh
# make_tables.sh — Hou et al. 2001, Tables 1-2 (Section 6.2) with Hyperdo: the
# parallel FFT of samples/fft.c on the 8-cube, 2^8, 2^10, 2^12 and 2^14
# points (-DFFT_N=8 -DFFT_D=0..3), translated with --mapping identity and
# --mapping optimal, built with the simulation back end (libhyperdo-sim.a)
# and run; each run's report (one line per doall) gives the bit-reverse
# communication time (the first doall) and the neighbouring communication
# time (the sum of the butterfly stages' doalls).  The identity build is
# also run with P-cube routing (HYPERDO_SIM_ROUTING=pcube), Table 1's
# "pcube" row.
#
#     tools/tables/make_tables.sh [BUILD_DIR]
#
# BUILD_DIR defaults to build (hyperdo and hyperdo_rt_sim are built there
# first).  Writes docs/figures/table_fft.csv (every number, ours and the
# paper's) and docs/figures/table_fft.md (Tables 1-2 side by side with the
# paper's), and keeps the reports in BUILD_DIR/tables/.  Each program's
# stdout is checked against the sequential build's: the back end must not
# change what the program prints.
#
# Computation time is not simulated (the threads run at the host's speed):
# the table takes it from the paper's nCUBE 2 costs, 5.12 us per butterfly
# and 4.47 us per half butterfly, as the paper does (see docs/simulator.md).
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
out=$root/docs/figures
work=$build/tables
cc=${CC:-cc}
src=$root/samples/fft.c
n=8

cmake -S "$root" -B "$build" >/dev/null
cmake --build "$build" --target hyperdo hyperdo_rt_sim >/dev/null
hyperdo=$build/bin/hyperdo
lib=$(find "$build/runtime" -maxdepth 1 -name libhyperdo-sim.a | head -1)
[ -n "$lib" ] || { echo "make_tables.sh: libhyperdo-sim.a not built" >&2; exit 1; }
mkdir -p "$work" "$out"
start=$(date +%s)

# The paper's Tables 1-2 (us), by d = 0..3 (m = 2^8, 2^10, 2^12, 2^14).
paper_comp="35.8 163.5 736.0 3271.7"
paper_neigh="1398.6 1617.5 2493.0 5995.1"
paper_ecube="248.9 467.8 1343.3 4845.4"
paper_pcube="299.7 693.5 2225.7 8354.3"
paper_map="178.8 206.2 315.6 753.4"
paper_brsp="1.39 2.27 4.26 6.43"
paper_exec_orig="1683.3 2248.9 4572.4 14112.2"
paper_exec_map="1613.2 1987.2 3544.7 10020.2"
paper_exsp="1.04 1.13 1.29 1.41"
nth() { echo "$2" | cut -d' ' -f$(($1 + 1)); }

# The report's columns: phase doall messages bytes max_bytes max_hops
# max_load cycles time_us max_sends.  Prints "BR NEIGH BR_LOAD".
phase_times() {
    awk '/^#/ { next }
         $2 == 0 { br = $9; load = $7; next }
         { neigh += $9 }
         END { printf "%.2f %.2f %d\n", br, neigh, load }' "$1"
}

csv=$out/table_fft.csv
echo "points,d,message_bytes,br_load_identity,br_load_optimal,computation_model,neighbouring,br_ecube,br_pcube,br_optimal,br_speedup,exec_identity,exec_optimal,exec_speedup,paper_computation,paper_neighbouring,paper_br_ecube,paper_br_pcube,paper_br_optimal,paper_br_speedup,paper_exec_identity,paper_exec_optimal,paper_exec_speedup" >"$csv"

for d in 0 1 2 3; do
    m=$((1 << (n + 2 * d)))
    flags="-DFFT_N=$n -DFFT_D=$d"
    base=$work/fft_$m
    # shellcheck disable=SC2086
    "$cc" -std=c11 -O2 -Wno-unknown-pragmas -I"$root/runtime/include" $flags "$src" \
        -o "$base.seq" -lm
    "$base.seq" >"$base.seq.out"
    for mapping in identity optimal; do
        # shellcheck disable=SC2086
        "$hyperdo" translate --mapping $mapping "$src" -o "$base.$mapping.c" -- $flags
        # shellcheck disable=SC2086
        "$cc" -std=c11 -O2 -I"$root/runtime/include" $flags "$base.$mapping.c" "$lib" \
            -pthread -lm -o "$base.$mapping"
    done
    for run in identity:ecube optimal:ecube identity:pcube; do
        mapping=${run%:*} routing=${run#*:}
        HYPERDO_SIM_ROUTING=$routing HYPERDO_SIM_REPORT=$base.$mapping.$routing.report \
            "$base.$mapping" >"$base.$mapping.$routing.out"
        cmp -s "$base.seq.out" "$base.$mapping.$routing.out" || {
            echo "make_tables.sh: $base.$mapping ($routing) prints other than the sequential program" >&2
            exit 1
        }
    done
    set -- $(phase_times "$base.identity.ecube.report")
    br_e=$1 neigh=$2 load_i=$3
    set -- $(phase_times "$base.optimal.ecube.report")
    br_m=$1 neigh_m=$2 load_m=$3
    set -- $(phase_times "$base.identity.pcube.report")
    br_p=$1
    [ "$neigh" = "$neigh_m" ] || echo "make_tables.sh: note: m=$m neighbouring time $neigh (identity) vs $neigh_m (optimal)" >&2
    awk -v m=$m -v d=$d -v n=$n -v li=$load_i -v lm=$load_m -v ne=$neigh -v be=$br_e \
        -v bp=$br_p -v bm=$br_m \
        -v pc="$(nth $d "$paper_comp")" -v pn="$(nth $d "$paper_neigh")" \
        -v pe="$(nth $d "$paper_ecube")" -v pp="$(nth $d "$paper_pcube")" \
        -v pm="$(nth $d "$paper_map")" -v ps="$(nth $d "$paper_brsp")" \
        -v pxo="$(nth $d "$paper_exec_orig")" -v pxm="$(nth $d "$paper_exec_map")" \
        -v pxs="$(nth $d "$paper_exsp")" 'BEGIN {
        pts = 2 ^ (2 * d)                  # points per processor
        bytes = 16 * pts                   # one message: pts complex doubles
        # 2d local stages of pts/2 butterflies, n stages of pts half butterflies
        comp = 2 * d * (pts / 2) * 5.12 + n * pts * 4.47
        xo = comp + ne + be; xm = comp + ne + bm
        printf "%d,%d,%d,%d,%d,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%s,%s,%s,%s,%s,%s,%s,%s,%s\n",
            m, d, bytes, li, lm, comp, ne, be, bp, bm, be / bm, xo, xm, xo / xm,
            pc, pn, pe, pp, pm, ps, pxo, pxm, pxs
    }' >>"$csv"
    echo "make_tables.sh: 2^$((n + 2 * d)) points done" >&2
done

# The Markdown tables: ours, then the paper's in parentheses.
md=$out/table_fft.md
awk -F, 'NR == 1 { next }
    { for (i = 1; i <= NF; i++) v[NR - 1, i] = $i; rows = NR - 1 }
    function line(title, ours, paper, fmt,   s, r) {
        s = "| " title
        for (r = 1; r <= rows; r++)
            s = s sprintf(" | " fmt " (%s)", v[r, ours], v[r, paper])
        print s " |"
    }
    END {
        s = "| FFT size"; t = "|---"
        for (r = 1; r <= rows; r++) { s = s " | 2^" (8 + 2 * v[r, 2]); t = t "|---" }
        print "Table 1 / Table 2 of Hou et al. 2001 (Section 6.2), parallel FFT on the 8-cube, nCUBE 2"
        print "parameters (beta 164 us/message, tau 0.57 us/byte, 1 byte per flit): Hyperdo'"'"'s"
        print "simulation back end, with the paper'"'"'s value in parentheses. Times in us."
        print ""
        print s " |"; print t "|"
        s = "| bytes per message (each processor, every phase)"
        for (r = 1; r <= rows; r++) s = s " | " v[r, 3]
        print s " |"
        s = "| bit-reverse: busiest channel, identity / optimal"
        for (r = 1; r <= rows; r++) s = s " | " v[r, 4] " / " v[r, 5]
        print s " |"
        line("computation time (paper'"'"'s cost model, not simulated)", 6, 15, "%.1f")
        line("neighbouring comm time", 7, 16, "%.1f")
        line("BR comm time, e-cube", 8, 17, "%.1f")
        line("BR comm time, P-cube", 9, 18, "%.1f")
        line("BR comm time, optimal mapping", 10, 19, "%.1f")
        line("**BR speedup**", 11, 20, "**%.2f**")
        line("exec time, identity", 12, 21, "%.1f")
        line("exec time, optimal mapping", 13, 22, "%.1f")
        line("exec speedup", 14, 23, "%.2f")
        print ""
        print "Made by `tools/tables/make_tables.sh`; data: `table_fft.csv`."
    }' "$csv" >"$md"
cat "$md"
echo "make_tables.sh: $(($(date +%s) - start)) s" >&2
