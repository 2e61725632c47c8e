#!/bin/sh
# bench_pingpong.sh THREADS_EXE [MPI_EXE MPIEXEC] [SCALE]
# Runs bench_pingpong on both back ends (threads, then MPI with mpiexec -n 2
# and -n 8) and prints one table with the ratios threads/MPI.  For times
# (latency, all-to-all) a ratio below 1 means the threads are faster; for
# bandwidth, above 1.
set -e
threads=$1
mpi=$2
mpiexec=$3
scale=${4:-1}
tmp=${TMPDIR:-/tmp}/bench_pingpong.$$
trap 'rm -f "$tmp".*' EXIT

"$threads" pingpong "$scale" > "$tmp.t"
"$threads" alltoall "$scale" >> "$tmp.t"
if [ -n "$mpi" ]; then
  "$mpiexec" -n 2 "$mpi" pingpong "$scale" > "$tmp.m"
  "$mpiexec" -n 8 "$mpi" alltoall "$scale" >> "$tmp.m"
else
  : > "$tmp.m"
fi

awk '
  FNR == NR { t[$1 " " $2] = $3; order[++n] = $1 " " $2; next }
  { m[$1 " " $2] = $3 }
  function size(b) { return b >= 1048576 ? (b / 1048576) " MiB" : b " B" }
  END {
    printf "%-26s %14s %14s %12s\n", "figure", "threads", "MPI", "threads/MPI"
    for (i = 1; i <= n; i++) {
      split(order[i], k, " ")
      unit = k[1] == "bandwidth" ? "MB/s" : "us"
      name = k[1] " " size(k[2]) " (" unit ")"
      if (k[1] == "alltoall") name = "all-to-all 2^3, " size(k[2]) " (us)"
      mv = (order[i] in m) ? m[order[i]] : ""
      r = (mv != "" && mv > 0) ? sprintf("%.2f", t[order[i]] / mv) : "-"
      printf "%-26s %14s %14s %12s\n", name, t[order[i]], (mv == "" ? "-" : mv), r
    }
    if (("latency 8" in m) && m["latency 8"] > 0)
      printf "\nlatency threads/MPI = %.2f (target <= 0.50): %s\n",
        t["latency 8"] / m["latency 8"],
        (t["latency 8"] / m["latency 8"] <= 0.5 ? "met" : "NOT met")
  }' "$tmp.t" "$tmp.m"
