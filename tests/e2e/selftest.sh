#!/usr/bin/env bash
# Tests of validate.sh itself, with a fake `hyperdo translate` (it copies
# the program without its hyperdo pragmas, or breaks the copy in a chosen
# way), an empty run-time library and a fake mpiexec that checks -n 2^N
# and runs the program once.  This tests the harness's plumbing only: the
# real e2e tests run the real translator and runtime.
#
# Usage: selftest.sh VALIDATE_SH RUNTIME_INCLUDE_DIR [WORKDIR]
set -euo pipefail

validate=$1
include=$2
work=${3:-$(mktemp -d "${TMPDIR:-/tmp}/hyperdo-e2e-selftest.XXXXXX")}
rm -rf "$work"
mkdir -p "$work"
cd "$work"

# The fake translator: hyperdo translate --dim N --mapping M IN -o OUT [-- ...]
# FAKE_MODE: copy | wrongout | wrongstatus | nondet | fail | clangbad
cat >fake-hyperdo <<'EOF'
#!/usr/bin/env bash
set -euo pipefail
[ "$1" = translate ] || { echo "fake-hyperdo: only translate" >&2; exit 2; }
shift
in='' out=''
while [ $# -gt 0 ]; do
    case $1 in
    --dim | --mapping | --objective | -MF) shift 2 ;;
    -MD) shift ;;
    -o) out=$2; shift 2 ;;
    --) break ;;
    *) in=$1; shift ;;
    esac
done
sed '/^#pragma hyperdo/d' "$in" >"$out"
case ${FAKE_MODE:-copy} in
copy) ;;
wrongout) sed -i 's/+ 41)/+ 42)/' "$out" ;;
wrongstatus) sed -i 's/return 4;/return 5;/' "$out" ;;
nondet) echo "/* $RANDOM$RANDOM $(date +%N) */" >>"$out" ;;
fail) echo "$in:1:1: error: fake failure" >&2; exit 1 ;;
clangbad) printf 'const char *fake_f(int i);\nconst char *fake_f(int i) { return "abc" + i; }\n' >>"$out" ;;
esac
EOF
chmod +x fake-hyperdo

# The fake mpiexec: -n must be 2^N for the --dim of the binary's name.
cat >fake-mpiexec <<'EOF'
#!/usr/bin/env bash
set -euo pipefail
[ "$1" = -n ] || { echo "fake-mpiexec: expected -n" >&2; exit 99; }
np=$2
shift 2
dim=$(basename "$1" | awk -F. '{print $(NF-2)}')
[ "$np" = $((1 << dim)) ] || { echo "fake-mpiexec: -n $np for dim $dim" >&2; exit 98; }
exec "$@"
EOF
chmod +x fake-mpiexec

# An empty run-time library.
echo 'int hyperdo_fake_runtime;' >fake_rt.c
cc -c fake_rt.c -o fake_rt.o
ar rcs libfake.a fake_rt.o

cat >prog.c <<'EOF'
// e2e: dims 1-2
#include <stdio.h>

int a[16], b[16];
#pragma hyperdo distribute(a, b : cyclic)

int main(void)
{
    for (int e = 0; e < 16; e++)
        a[e] = e;
#pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        b[i] = a[i ^ 1];
    printf("answer %d\n", b[0] + b[1] + 41);
    return 4;
}
EOF
printf '#include <stdio.h>\nint main(void) { puts("no dims line"); return 0; }\n' >nodims.c

failures=0
# expect STATUS PATTERN ENV... -- VALIDATE-ARGS...: runs validate.sh with the
# environment settings and checks its exit status and that its output
# matches PATTERN (grep -E).
expect() {
    local want=$1 pattern=$2 status=0
    shift 2
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    env "${envs[@]}" bash "$validate" --hyperdo "$work/fake-hyperdo" --include "$include" \
        --lib "$work/libfake.a" --workdir "$work/w" "$@" >out.txt 2>&1 || status=$?
    if [ "$status" != "$want" ] || ! grep -Eq "$pattern" out.txt; then
        echo "SELFTEST FAIL: ${envs[*]} $*: status $status (want $want), pattern '$pattern'"
        sed 's/^/    /' out.txt
        failures=$((failures + 1))
    else
        echo "selftest ok: ${envs[*]:-FAKE_MODE=copy} $* -> $status"
    fi
    rm -rf "$work/w"
}

expect 0 '^prog \(threads\): 4 passed, 0 failed' FAKE_MODE=copy -- prog.c
expect 0 'ok: prog: threads, --dim 2, --mapping optimal' FAKE_MODE=copy -- --dim 2 --mapping optimal prog.c
expect 0 '2 passed, 0 failed \(dims 2-2' FAKE_MODE=copy -- --dims 2-8 prog.c
expect 0 'nothing to do' FAKE_MODE=copy -- --dims 3-8 prog.c
expect 1 'stdout differs' FAKE_MODE=wrongout -- --dim 1 prog.c
expect 1 '\+answer 43' FAKE_MODE=wrongout -- --dim 1 prog.c
expect 1 'exit status 5, the sequential program.s is 4' FAKE_MODE=wrongstatus -- --dim 1 prog.c
expect 1 'translating twice gives different files' FAKE_MODE=nondet -- --dim 1 prog.c
expect 1 'hyperdo translate failed' FAKE_MODE=fail -- --dim 1 prog.c
expect 1 'fake failure' FAKE_MODE=fail -- --dim 1 prog.c
if [ -n "${CLANG-clang-14}" ]; then
    expect 1 'does not compile with .*clang' FAKE_MODE=clangbad -- --dim 1 prog.c
fi
expect 0 '1 passed' FAKE_MODE=clangbad CLANG= -- --dim 1 --mapping identity prog.c
expect 1 'commands \(in ' FAKE_MODE=wrongout -- --dim 1 prog.c
expect 1 "first line must be '// e2e: dims A-B'" FAKE_MODE=copy -- nodims.c
expect 2 'backend threads.mpi' FAKE_MODE=copy -- --backend omega prog.c
expect 0 '^prog \(mpi\): 4 passed' FAKE_MODE=copy MPIEXEC="$work/fake-mpiexec" MPICC=cc -- --backend mpi prog.c

if [ "$failures" -ne 0 ]; then
    echo "selftest: $failures failed"
    exit 1
fi
echo "selftest: all passed"
