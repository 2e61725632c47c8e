#!/bin/bash
# bench_coll.sh THREADS_EXE MPI_EXE [MPIEXEC [P...]]
#
# Hyperdo's run-time collectives (hyperdo/coll.h) against MPICH's own at
# P = 2, 4, 8 (issue 15, item 6; docs/collectives.md, "Benchmarks"):
# for each P, one MPI run of bench_coll_mpi (Hyperdo on the MPI back end and
# MPICH's collective, interleaved in the same run) and one run of
# bench_coll on threads (Hyperdo alone; at P = 2 also with HYPERDO_SPIN=0),
# then one table:
#
#   MPICH us       MPI_Bcast & co., median wall time (the slowest rank)
#   hd-mpi/MPICH   Hyperdo on the MPI back end over MPICH, same run: the
#                  median of the repetitions' own ratios (the two calls of
#                  a repetition run back to back, under the same load)
#   cpu ratio      the same for CPU time (user + sys, summed over ranks)
#   thr/MPICH      Hyperdo on threads over the MPI run's MPICH number
#   spin0/MPICH    (P = 2 only) the same with HYPERDO_SPIN=0
#
# Below 1 Hyperdo is faster.  Environment: BENCH_COLL_ARGS (extra arguments
# of both programs, e.g. "--sizes 8,1024 --colls bcast"), BENCH_COLL_SCALE_2,
# _4, _8 (repetitions scale per P; default 1, 0.5, 0.5), BENCH_COLL_RAW (a
# file to keep the programs' own lines in).
set -e
threads=$1
mpi=$2
mpiexec=${3:-mpiexec}
shift 3 2>/dev/null || shift $#
ps=${*:-2 4 8}
tmp=${TMPDIR:-/tmp}/bench_coll.$$
trap 'rm -f "$tmp".*' EXIT
: > "$tmp.raw"

log2() { local p=$1 n=0; while [ $((1 << n)) -lt "$p" ]; do n=$((n + 1)); done; echo $n; }

echo "machine: $(nproc) CPUs, $(uname -r); $(mpichversion 2>/dev/null | head -1 | tr -s ' \t' ' ')"
for p in $ps; do
    n=$(log2 "$p")
    eval "scale=\${BENCH_COLL_SCALE_$p:-}"
    [ -n "$scale" ] || { [ "$p" -le 2 ] && scale=1 || scale=0.5; }
    load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
    # shellcheck disable=SC2086
    { time "$mpiexec" -n "$p" "$mpi" "$n" --reps-scale "$scale" $BENCH_COLL_ARGS \
        > "$tmp.m"; } 2> "$tmp.tm"
    # shellcheck disable=SC2086
    { time "$threads" "$n" --reps-scale "$scale" $BENCH_COLL_ARGS > "$tmp.th"; } 2> "$tmp.tt"
    if [ "$p" -le "$(nproc)" ]; then
        # shellcheck disable=SC2086
        HYPERDO_SPIN=0 "$threads" "$n" --reps-scale "$scale" $BENCH_COLL_ARGS |
            sed 's/^threads /spin0 /' > "$tmp.t0"
    else
        : > "$tmp.t0"
    fi
    echo "P = $p: load average before $load; mpiexec -n $p: $(grep real "$tmp.tm" | tr -s '\t ' ' ')," \
         "threads: $(grep real "$tmp.tt" | tr -s '\t ' ' ')"
    cat "$tmp.m" "$tmp.th" "$tmp.t0" >> "$tmp.raw"
done
[ -n "$BENCH_COLL_RAW" ] && cp "$tmp.raw" "$BENCH_COLL_RAW"

awk '
  /^#/ { next }
  {
    k = $2 " " $3 " " $4
    if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
    if ($6 == "paired") { pw[k] = $7; pc[k] = $8; next }
    impl = $1 "/" $6
    wall[impl, k] = $7; cpu[impl, k] = $8; reps[k] = $5
  }
  function size(b) {
    return b >= 1048576 ? (b / 1048576) " MiB" : b >= 1024 ? (b / 1024) " KiB" : b " B"
  }
  function ratio(a, b) { return (a != "" && b != "" && b > 0) ? sprintf("%.2f", a / b) : "-" }
  function us(x) { return x == "" ? "-" : (x >= 100 ? sprintf("%.0f", x) : sprintf("%.1f", x)) }
  END {
    printf "%-14s %2s %7s %4s | %9s %9s %6s | %9s %9s %6s | %9s %6s %9s | %6s\n",
      "collective", "P", "bytes", "reps", "MPICH us", "hd-mpi us", "ratio",
      "MPICH cpu", "hd cpu", "ratio", "thr us", "ratio", "thr cpu", "spin0"
    for (i = 1; i <= nk; i++) {
      k = order[i]; split(k, f, " ")
      m = wall["mpi/mpich", k]; h = wall["mpi/hyperdo", k]; t = wall["threads/hyperdo", k]
      mc = cpu["mpi/mpich", k]; hc = cpu["mpi/hyperdo", k]; tc = cpu["threads/hyperdo", k]
      s0 = wall["spin0/hyperdo", k]
      printf "%-14s %2s %7s %4s | %9s %9s %6s | %9s %9s %6s | %9s %6s %9s | %6s\n",
        f[1], f[2], size(f[3]), reps[k], us(m), us(h), (k in pw ? sprintf("%.2f", pw[k]) : ratio(h, m)), us(mc), us(hc),
        (k in pc ? sprintf("%.2f", pc[k]) : ratio(hc, mc)), us(t), ratio(t, m), us(tc), ratio(s0, m)
      if (k in pw) { n1++; if (pw[k] < 1) w1++ }
      if (m != "" && t != "") { n2++; if (t < m) w2++ }
    }
    printf "\nratios: Hyperdo / MPICH (below 1: Hyperdo faster).  Hyperdo on MPI faster in %d of %d; " \
           "on threads faster than MPICH on MPI in %d of %d.\n", w1, n1, w2, n2
  }' "$tmp.raw"
