#!/usr/bin/env bash
# bench_node.sh — what the programs `hyperdo translate` writes cost, each
# figure a ratio against a baseline measured in the same run (the machine
# is shared: every command runs REPS times, alternating with its baseline,
# and the median is kept; CPU time is user + sys of every thread or rank).
#
#   1. CPU scaling (threads back end): total CPU of the translated program
#      over the sequential program's, at P = 2, 4, 16, 64, 256, for the
#      512 x 512 transpose x 10, samples/bitrev.c, samples/fft.c (2^14
#      points), the 2^20-point prefix sum, and two doalls without
#      communication (heavy.c, light.c); with the messages and bytes per
#      doall run (HYPERDO_STATS) beside the least the index maps imply
#      (minimum.c);
#   2. wall time on two threads (P = 2) against the sequential program and
#      against OpenMP's parallel for on the same loops, for heavy.c and
#      light.c;
#   3. wall time on MPI against hand-written MPI (mpi_hand.c) for the bit
#      reversal, the transpose and an FFT butterfly stage of 2^20 doubles,
#      at P = 2 and 4.
#
# usage: bench/bench_node.sh BUILD_DIR [REPS]     (REPS: 5)
# docs/performance.md shows a run and what it means.
set -euo pipefail

build=$(cd "${1:?usage: bench_node.sh BUILD_DIR [REPS]}" && pwd)
reps=${2:-5}
src=$(cd "$(dirname "$0")/.." && pwd)
hyperdo=$build/bin/hyperdo
inc=$src/runtime/include
lib=$build/runtime/libhyperdo.a
libmpi=$build/runtime/libhyperdo-mpi.a
work=$build/bench_node
cc=${CC:-cc}
mpicc=${MPICC:-mpicc}
mpiexec=${MPIEXEC:-mpiexec}
cflags="-std=c11 -O2"
mkdir -p "$work"
for f in "$hyperdo" "$lib"; do
    [ -e "$f" ] || { echo "bench_node.sh: $f is not built" >&2; exit 1; }
done

"$cc" -std=c11 -O2 -o "$work/timed" "$src/bench/node/timed.c"
"$cc" -std=c11 -O2 -o "$work/minimum" "$src/bench/node/minimum.c"

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# run NAME CMD...: one timed run; its stdout must equal $work/NAME.ref's
# first run (the sequential program's, for every build of a program).
run() {
    local name=$1
    shift
    TIMED_OUT="$work/$name.times" "$work/timed" "$@" >"$work/$name.out"
    if [ -f "$work/$name.ref" ]; then
        cmp -s "$work/$name.ref" "$work/$name.out" || {
            echo "bench_node.sh: $* printed something else than the sequential program:" >&2
            diff "$work/$name.ref" "$work/$name.out" | head >&2
            exit 1
        }
    fi
}
wall() { awk '{ print $1 }' "$work/$1.times" | median; }
cpu() { awk '{ print $2 + $3 }' "$work/$1.times" | median; }

load() { [ -r /proc/loadavg ] && cut -d' ' -f1-3 /proc/loadavg || echo "?"; }
echo "bench_node.sh: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load $(load), $reps runs each (medians)"
echo

# ---------------------------------------------------------------- 1. CPU

source_of() {
    case $1 in
    bitrev) echo "$src/samples/bitrev.c" ;;
    fft) echo "$src/samples/fft.c" ;;
    *) echo "$src/bench/node/$1.c" ;;
    esac
}
defines_of() {
    case $1 in
    fft) echo "-DFFT_N=8 -DFFT_D=3 -DFFT_NO_DFT_CHECK" ;;
    *) echo "" ;;
    esac
}

echo "1. CPU time (user + sys, all threads) of the translated program over the sequential one,"
echo "   threads back end; messages and bytes per doall run, and the least the index maps imply"
printf '%-10s %4s %9s %9s %7s %8s %10s %10s %12s %12s\n' program P "seq cpu" "spmd cpu" ratio "vs P=2" \
    "msgs/run" "(least)" "bytes/run" "(least)"
echo "program,P,seq_cpu,spmd_cpu,ratio,vs_p2,msgs,least_msgs,bytes,least_bytes" >"$work/cpu.csv"
for prog in transpose bitrev fft prefix heavy light; do
    file=$(source_of $prog)
    defs=$(defines_of $prog)
    # shellcheck disable=SC2086
    "$cc" $cflags -Wno-unknown-pragmas -I"$inc" $defs "$file" -o "$work/$prog.seq" -lm
    rm -f "$work/$prog.seq.times" "$work/$prog.seq.ref"
    "$work/$prog.seq" >"$work/$prog.seq.ref"
    base=""
    for n in 1 2 4 6 8; do
        P=$((1 << n))
        exe=$work/$prog.$n
        # shellcheck disable=SC2086
        "$hyperdo" translate --dim $n "$file" -o "$exe.c" -- -I"$inc" $defs
        # shellcheck disable=SC2086
        "$cc" $cflags -I"$inc" $defs "$exe.c" "$lib" -pthread -lm -o "$exe"
        cp "$work/$prog.seq.ref" "$work/$prog.$n.ref"
        rm -f "$work/$prog.$n.times" "$work/$prog.seq.times"
        for _ in $(seq "$reps"); do
            run "$prog.seq" "$work/$prog.seq"
            run "$prog.$n" "$exe"
        done
        HYPERDO_STATS="$work/$prog.$n.stats" "$exe" >/dev/null
        read -r runs msgs bytes < <(awk '!/^#/ { r += $2; m += $3; b += $4 } END { print r, m, b }' \
            "$work/$prog.$n.stats")
        read -r lmsgs lbytes < <("$work/minimum" $prog $P)
        s=$(cpu "$prog.seq")
        t=$(cpu "$prog.$n")
        ratio=$(awk -v s="$s" -v t="$t" 'BEGIN { printf "%.2f", t / s }')
        [ -z "$base" ] && base=$ratio
        vs=$(awk -v r="$ratio" -v b="$base" 'BEGIN { printf "%.2f", r / b }')
        m=$(awk -v m="$msgs" -v r="$runs" 'BEGIN { printf "%.1f", r ? m / r : 0 }')
        by=$(awk -v m="$bytes" -v r="$runs" 'BEGIN { printf "%.0f", r ? m / r : 0 }')
        printf '%-10s %4d %9.3f %9.3f %7s %8s %10s %10s %12s %12s\n' $prog $P "$s" "$t" "$ratio" \
            "$vs" "$m" "($lmsgs)" "$by" "($lbytes)"
        echo "$prog,$P,$s,$t,$ratio,$vs,$m,$lmsgs,$by,$lbytes" >>"$work/cpu.csv"
    done
done
if command -v gnuplot >/dev/null; then
    gnuplot <<GP
set terminal pngcairo size 800,520 font 'sans,11'
set output '$work/cpu.png'
set datafile separator ','
set title 'Total CPU of the translated program against P = 2 (threads back end)'
set xlabel 'processors P'
set ylabel 'CPU(P) / CPU(2)'
set logscale x 2
set logscale y 2
set xrange [1.5:360]
set key top left
set grid
plot for [p in "transpose bitrev fft prefix heavy light"] '$work/cpu.csv' \
     using (strcol(1) eq p ? \$2 : 1/0):6 with linespoints pt 7 title p, \
     1.5 with lines dt 2 lc rgb 'black' title 'target without communication (1.5)'
GP
    echo "   (plotted in $work/cpu.png; the table in $work/cpu.csv)"
fi
echo

# ------------------------------------------------------- 2. wall, P = 2

echo "2. Wall time on two threads (P = 2): sequential, OpenMP parallel for (2 threads), translated"
printf '%-8s %9s %9s %9s %12s %12s %14s\n' program seq openmp spmd "seq/openmp" "seq/spmd" "spmd/openmp"
for prog in heavy light; do
    file=$src/bench/node/$prog.c
    sed 's/^#pragma hyperdo doall$/#pragma omp parallel for/' "$file" >"$work/$prog.omp.c"
    "$cc" $cflags -fopenmp -Wno-unknown-pragmas -I"$inc" "$work/$prog.omp.c" -o "$work/$prog.omp" -lm
    cp "$work/$prog.seq.ref" "$work/$prog.omp.ref"
    rm -f "$work/$prog.seq.times" "$work/$prog.omp.times" "$work/$prog.1.times"
    for _ in $(seq "$reps"); do
        run "$prog.seq" "$work/$prog.seq"
        OMP_NUM_THREADS=2 run "$prog.omp" "$work/$prog.omp"
        run "$prog.1" "$work/$prog.1"
    done
    s=$(wall "$prog.seq")
    o=$(wall "$prog.omp")
    t=$(wall "$prog.1")
    printf '%-8s %9.3f %9.3f %9.3f %12.2f %12.2f %14.2f\n' $prog "$s" "$o" "$t" \
        "$(awk -v a="$s" -v b="$o" 'BEGIN { print a / b }')" \
        "$(awk -v a="$s" -v b="$t" 'BEGIN { print a / b }')" \
        "$(awk -v a="$t" -v b="$o" 'BEGIN { print a / b }')"
done
echo

# ------------------------------------------------------------- 3. MPI

if [ ! -e "$libmpi" ] || ! command -v "$mpicc" >/dev/null; then
    echo "3. MPI: skipped (libhyperdo-mpi.a or $mpicc missing)"
    exit 0
fi
echo "3. Wall time on MPI: the translated program over hand-written MPI (MPI_Alltoallv / MPI_Sendrecv)"
printf '%-10s %3s %10s %10s %12s\n' program P hand spmd "spmd/hand"
"$mpicc" $cflags -I"$inc" "$src/bench/node/mpi_hand.c" -o "$work/mpi_hand"
for prog in bitrev transpose fft; do
    file=$src/bench/node/lcc_$prog.c
    "$cc" $cflags -Wno-unknown-pragmas -I"$inc" "$file" -o "$work/lcc_$prog.seq" -lm
    "$work/lcc_$prog.seq" >"$work/lcc_$prog.ref"
    for n in 1 2; do
        P=$((1 << n))
        exe=$work/lcc_$prog.mpi.$n
        "$hyperdo" translate --dim $n "$file" -o "$exe.c" -- -I"$inc"
        "$mpicc" $cflags -I"$inc" "$exe.c" "$libmpi" -lm -o "$exe"
        cp "$work/lcc_$prog.ref" "$work/hand_$prog.$n.ref"
        cp "$work/lcc_$prog.ref" "$work/lcc_$prog.$n.ref"
        rm -f "$work/hand_$prog.$n.times" "$work/lcc_$prog.$n.times"
        for _ in $(seq "$reps"); do
            run "hand_$prog.$n" "$mpiexec" -n $P "$work/mpi_hand" $prog
            run "lcc_$prog.$n" "$mpiexec" -n $P "$exe"
        done
        h=$(wall "hand_$prog.$n")
        t=$(wall "lcc_$prog.$n")
        printf '%-10s %3d %10.3f %10.3f %12.2f\n' $prog $P "$h" "$t" \
            "$(awk -v a="$t" -v b="$h" 'BEGIN { print a / b }')"
    done
done
