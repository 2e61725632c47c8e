#!/bin/bash
# tools/golden/compare.sh — a refactoring aid, not a test: does the
# translator of BUILD write what the translator of commit REV writes?
#
#   tools/golden/compare.sh REV BUILD [WORK]
#
# Builds REV in a worktree under WORK (default /tmp/hd-golden), then runs
# both translators on every program of samples/, tests/e2e, tests/translate
# (tests/codegen/translate since tests/ follows the stages: each output is
# named after the path 424a329 had, see legacy below) and tests/frontend
# (translate at --dim 1, 2, 3, 5 with both mappings;
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

# legacy REL: the path 424a329 gave the file at REL of either tree, or
# nothing for a file it did not compare (the outputs of both trees are named
# and their texts written with the old paths, so that they compare).
legacy() {
    case $1 in
    tests/codegen/translate/*) echo "tests/translate/${1#tests/codegen/translate/}" ;;
    tests/frontend/test_cfront.c) ;; # was tests/unit/test_cfront.c
    *) echo "$1" ;;
    esac
}

# programs TREE: what is compared, in either layout
programs() {
    local t=tests/translate
    [ -d "$1/$t" ] || t=tests/codegen/translate
    ls -d "$1"/samples/*.c "$1"/tests/e2e/*.c "$1"/$t/*/*.c "$1"/tests/frontend/*.c
}

# outputs BIN TREE OUT
outputs() {
    local bin=$1 tree=$2 out=$3 f rel name d m o files
    local paths="s|$tree/tests/codegen/translate/|SRC/tests/translate/|g; s|$tree|SRC|g"
    rm -rf "$out"
    mkdir -p "$out"
    mapfile -t files < <(programs "$tree")
    for f in "${files[@]}"; do
        rel=$(legacy "${f#"$tree"/}")
        [ -n "$rel" ] || continue
        name=$(echo "$rel" | tr / _)
        for d in 1 2 3 5; do
            for m in identity optimal; do
                o="$out/$name.$d.$m"
                "$bin" translate --dim $d --mapping $m "$f" -o "$o.c" -- -I"$tree/runtime/include" \
                    -I"$(dirname "$f")" >"$o.stdout" 2>"$o.stderr" && echo 0 >"$o.rc" || echo $? >"$o.rc"
                sed -i "$paths; s|$out/|OUT/|g" "$o.stderr" "$o.c" 2>/dev/null || true
            done
        done
    done
    for f in "$tree"/tests/frontend/*.c "$work/doall_1000.c"; do
        [ "$f" = "$work/doall_1000.c" ] || [ -n "$(legacy "${f#"$tree"/}")" ] || continue
        name=$(basename "$f")
        "$bin" analyze --json "$f" -- -I"$tree/runtime/include" >"$out/$name.json" 2>"$out/$name.err" &&
            echo 0 >"$out/$name.rc" || echo $? >"$out/$name.rc"
        sed -i "$paths" "$out/$name.json" "$out/$name.err"
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
