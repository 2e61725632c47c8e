#!/usr/bin/env bash
# Installs the build into a fresh prefix and builds the samples the way a
# user does, through samples/Makefile: the precompile step (hyperdo
# translate -MD) and pkg-config's hyperdo / hyperdo-mpi / hyperdo-sim.  Then
# `make check` compares every threads build with its sequential build, one
# MPI build runs under mpiexec, and a change to a header the program
# includes makes make translate it again (the -MD rule).
#
# usage: install_samples.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1
build=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/hyperdo-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/hyperdo include/hyperdo.h include/hyperdo/bits.h lib/libhyperdo.a \
         lib/pkgconfig/hyperdo.pc; do
    [ -e "$prefix/$f" ] || { echo "not installed: $f" >&2; exit 1; }
done
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
echo "pkg-config hyperdo: $(pkg-config --cflags --libs hyperdo)"

cp -r "$src/samples" "$work/samples"
cd "$work/samples"
# A sanitizer build's libraries need its flags in every program.
mkflags=()
[ -n "${HYPERDO_TEST_CFLAGS:-}" ] && mkflags=(CFLAGS="-std=c11 -O1 $HYPERDO_TEST_CFLAGS")
make -s check HYPERDO="$prefix/bin/hyperdo" "${mkflags[@]}"

# The installed hyperdo finds hyperdo/bits.h beside itself (PREFIX/include),
# not in the source tree it was built from: the dependency file says which.
grep -q "$prefix/include/hyperdo/bits.h" bitrev.d || {
    echo "bitrev.d does not name the installed hyperdo/bits.h:" >&2
    cat bitrev.d >&2
    exit 1
}

# -MD: touching a header the program includes translates it again.
before=$(stat -c %Y bitrev.spmd.c)
sleep 1
touch "$prefix/include/hyperdo/bits.h"
make -s bitrev HYPERDO="$prefix/bin/hyperdo" "${mkflags[@]}" >/dev/null
after=$(stat -c %Y bitrev.spmd.c)
[ "$after" -gt "$before" ] || { echo "make did not translate bitrev.c again after its header changed" >&2; exit 1; }

if pkg-config --exists hyperdo-mpi && command -v mpiexec >/dev/null; then
    rm -f bitrev.spmd.c   # translate again, for the 3-cube
    make -s bitrev-mpi HYPERDO="$prefix/bin/hyperdo" HDFLAGS="--dim 3" "${mkflags[@]}"
    make -s bitrev-seq "${mkflags[@]}" >/dev/null
    ./bitrev-seq > seq.out
    mpiexec -n 8 ./bitrev-mpi > mpi.out
    cmp seq.out mpi.out || { echo "bitrev on MPI differs from the sequential program" >&2; exit 1; }
    echo "MPI (8 ranks): same output as the sequential program"
fi
echo "install + samples/Makefile: ok"
