#!/usr/bin/env bash
# random_lcc.sh — long runs of tests/codegen/node/random_lcc.c's random programs
# (ctest node.random runs 12): COUNT programs from seed FIRST, each
# translated for cubes of 1 .. DIMS dimensions and both mappings and
# compared with the sequential program, on the threads back end and, with
# --mpi, on MPI too.  Progress on stderr; a failing seed's log is kept.
#
#   tools/random_lcc.sh BUILD_DIR COUNT [FIRST [DIMS]] [--mpi]
set -u
[ $# -ge 2 ] || { sed -n '2,9p' "$0" >&2; exit 2; }
build=$(cd "$1" && pwd) count=$2 first=${3:-1000} dims=${4:-6}
mpi=0
for a in "$@"; do [ "$a" = --mpi ] && mpi=1; done
src=$(cd "$(dirname "$0")/.." && pwd)
work=$build/random_lcc
run() {
    BACKEND=$1 bash "$src/tests/codegen/node/random.sh" "$build/bin/random_lcc" "$src/tests/e2e/validate.sh" \
        "$build/bin/hyperdo" "$src/runtime/include" "$2" "$work/$1" "$first" "$count" "$3" |
        while read -r line; do echo "$line" >&2; case $line in "FAIL: seed"*) echo x;; esac; done | wc -l
}
failed=$(run threads "$build/runtime/libhyperdo.a" "$dims")
if [ $mpi = 1 ]; then
    f=$(MPICC=${MPICC:-mpicc} run mpi "$build/runtime/libhyperdo-mpi.a" $((dims < 5 ? dims : 5)))
    failed=$((failed + f))
fi
echo "random_lcc.sh: $count programs from seed $first: $failed failures (logs in $work)"
[ "$failed" -eq 0 ]
