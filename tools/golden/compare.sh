#!/bin/bash
# tools/golden/compare.sh — a refactoring aid, not a test: does the
# translator of BUILD write what the translator of commit REV writes?
#
#   tools/golden/compare.sh REV BUILD [WORK]
#
# Builds REV in a worktree under WORK (default /tmp/hd-golden), then runs
# both translators on every program of samples/, tests/e2e, tests/translate
# and tests/frontend (translate at --dim 1, 2, 3, 5 with both mappings;
# analyze --json on tests/frontend and the benchmark's 1000-loop file) and
# compares the outputs: the .c files, the JSON, stdout and the exit
# statuses must be identical, stderr identical once sorted (diagnostics
# print in source order since issue 12).  Lines of the generated comments
# that cite papers (issue 12 changed them) are set aside.  Exit status 0
# when all agree; the differing files are listed.
set -euo pipefail
rev=${1:?usage: compare.sh REV BUILD [WORK]}
build=$(cd "${2:?usage: compare.sh REV BUILD [WORK]}" && pwd)
work=${3:-/tmp/hd-golden}
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$work"

if [ ! -x "$work/base/build/bin/hyperdo" ] || [ "$(git -C "$work/base" rev-parse HEAD 2>/dev/null)" != "$(git -C "$src" rev-parse "$rev")" ]; then
    rm -rf "$work/base"
    git -C "$src" worktree prune
    git -C "$src" worktree add -q --detach "$work/base" "$rev"
    cmake -S "$work/base" -B "$work/base/build" >/dev/null
    cmake --build "$work/base/build" -j2 --target hyperdo gen_doall >/dev/null
fi
"$work/base/build/bin/gen_doall" --loops 1000 --cube 8 --bits -o "$work/doall_1000.c"

# outputs BIN TREE OUT
outputs() {
    local bin=$1 tree=$2 out=$3 f name d m o
    rm -rf "$out"
    mkdir -p "$out"
    for f in "$tree"/samples/*.c "$tree"/tests/e2e/*.c "$tree"/tests/translate/*/*.c "$tree"/tests/frontend/*.c; do
        name=$(echo "${f#"$tree"/}" | tr / _)
        for d in 1 2 3 5; do
            for m in identity optimal; do
                o="$out/$name.$d.$m"
                "$bin" translate --dim $d --mapping $m "$f" -o "$o.c" -- -I"$tree/runtime/include" \
                    -I"$(dirname "$f")" >"$o.stdout" 2>"$o.stderr" && echo 0 >"$o.rc" || echo $? >"$o.rc"
                sed -i "s|$tree|SRC|g; s|$out/|OUT/|g" "$o.stderr" "$o.c" 2>/dev/null || true
            done
        done
    done
    for f in "$tree"/tests/frontend/*.c "$work/doall_1000.c"; do
        name=$(basename "$f")
        "$bin" analyze --json "$f" -- -I"$tree/runtime/include" >"$out/$name.json" 2>"$out/$name.err" &&
            echo 0 >"$out/$name.rc" || echo $? >"$out/$name.rc"
        sed -i "s|$tree|SRC|g" "$out/$name.json" "$out/$name.err"
    done
}

echo "golden: outputs of $rev" >&2
outputs "$work/base/build/bin/hyperdo" "$work/base" "$work/old"
echo "golden: outputs of $build" >&2
outputs "$build/bin/hyperdo" "$src" "$work/new"

cites="Hou et al\|Section 5\|Theorem 1\|T_i = paths\|Fig. 1d\|processor runs the iterations\|Channel contention"
bad=0 files=0
for f in "$work"/old/*; do
    b=$(basename "$f")
    files=$((files + 1))
    case $b in
    *.stderr|*.err) cmp -s <(sort "$f") <(sort "$work/new/$b" 2>/dev/null) || { echo "differs: $b"; bad=$((bad + 1)); } ;;
    *.c) cmp -s <(grep -v "$cites" "$f") <(grep -v "$cites" "$work/new/$b" 2>/dev/null) || { echo "differs: $b"; bad=$((bad + 1)); } ;;
    *) cmp -s "$f" "$work/new/$b" || { echo "differs: $b"; bad=$((bad + 1)); } ;;
    esac
done
echo "golden: $files outputs compared, $bad differ"
[ "$bad" -eq 0 ]
