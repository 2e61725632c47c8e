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
rm -rf out
sources_before=$(ls *.c)
# A sanitizer build's libraries need its flags in every program.
mkflags=()
[ -n "${HYPERDO_TEST_CFLAGS:-}" ] && mkflags=(CFLAGS="-std=c11 -O1 $HYPERDO_TEST_CFLAGS")
make -s check HYPERDO="$prefix/bin/hyperdo" "${mkflags[@]}"

# make wrote nothing beside the sources that a glob for *.c would take for
# an input (the tests list samples/*.c), and git ignores what it wrote.
[ "$(ls *.c)" = "$sources_before" ] || {
    echo "make check left C files beside the sources:" >&2
    ls *.c >&2
    exit 1
}
if command -v git >/dev/null; then
    git init -q . && git add -A . 2>/dev/null
    tracked=$(git ls-files | grep -E '(^out/|\.spmd\.c$|-seq$|-mpi$)' || true)
    [ -z "$tracked" ] || { echo "git would commit generated files:" >&2; echo "$tracked" >&2; exit 1; }
    rm -rf .git
fi

# The installed hyperdo finds hyperdo/bits.h beside itself (PREFIX/include),
# not in the source tree it was built from: the dependency file says which.
grep -q "$prefix/include/hyperdo/bits.h" out/bitrev.d || {
    echo "out/bitrev.d does not name the installed hyperdo/bits.h:" >&2
    cat out/bitrev.d >&2
    exit 1
}

# Nothing changed: make translates nothing again.
before=$(stat -c %Y out/bitrev.spmd.c)
sleep 1
make -s bitrev HYPERDO="$prefix/bin/hyperdo" "${mkflags[@]}" >/dev/null
[ "$(stat -c %Y out/bitrev.spmd.c)" = "$before" ] || {
    echo "make translated bitrev.c again though nothing changed" >&2; exit 1; }

# -MD: touching a header the program includes translates it again.
touch "$prefix/include/hyperdo/bits.h"
make -s bitrev HYPERDO="$prefix/bin/hyperdo" "${mkflags[@]}" >/dev/null
after=$(stat -c %Y out/bitrev.spmd.c)
[ "$after" -gt "$before" ] || { echo "make did not translate bitrev.c again after its header changed" >&2; exit 1; }

# Other options: translated again (the options stamp), and for the cube
# they name.
sleep 1
make -s bitrev HYPERDO="$prefix/bin/hyperdo" HDFLAGS="--dim 4" "${mkflags[@]}" >/dev/null
grep -q "for the 4-cube" out/bitrev.spmd.c || {
    echo "make did not translate bitrev.c again when HDFLAGS changed" >&2; exit 1; }
sleep 1
before=$(stat -c %Y out/bitrev.spmd.c)
make -s bitrev HYPERDO="$prefix/bin/hyperdo" HDFLAGS="--dim 4" CPPFLAGS="-DUNUSED_MACRO=1" \
    "${mkflags[@]}" >/dev/null
[ "$(stat -c %Y out/bitrev.spmd.c)" -gt "$before" ] || {
    echo "make did not translate bitrev.c again when CPPFLAGS changed" >&2; exit 1; }

if pkg-config --exists hyperdo-mpi && command -v mpiexec >/dev/null; then
    make -s bitrev-mpi HYPERDO="$prefix/bin/hyperdo" HDFLAGS="--dim 3" "${mkflags[@]}"
    make -s bitrev-seq HDFLAGS="--dim 3" "${mkflags[@]}" >/dev/null
    ./bitrev-seq > out/seq.out
    mpiexec -n 8 ./bitrev-mpi > out/mpi.out
    cmp out/seq.out out/mpi.out || { echo "bitrev on MPI differs from the sequential program" >&2; exit 1; }
    echo "MPI (8 ranks): same output as the sequential program"
fi
echo "install + samples/Makefile: ok"
