#!/usr/bin/env bash
# Translation validation: a program annotated with `#pragma hyperdo doall`
# must print exactly what it prints as a sequential C program once
# `hyperdo translate` has turned it into an SPMD program
# (docs/annotations.md; Hou et al. 2001, Section 3, Fig. 1).
#
# For PROG.c (or the files PROG.c MORE.c ... of one program, PROG.c the
# one whose first line gives the dimensions), one back end and each
# (dim, mapping) asked for:
#   1. compile PROG.c with $CC as plain C11 and run it: stdout and exit status
#      are the reference (once per program);
#   2. hyperdo translate --dim N --mapping M [--network NET] [--maps MAPS] PROG.c -o OUT.spmd.c, twice:
#      both outputs must be identical bytes (several files: translated
#      together, hyperdo translate ... PROG.c MORE.c ... -o OUT.spmd/);
#   3. OUT.spmd.c must compile with $CC and with $CLANG under
#      -std=c11 -Wall -Wextra -Werror;
#   4. link it with the back end's library, run it (threads: directly;
#      mpi: $MPIEXEC -n 2^N) and compare stdout byte for byte and the exit
#      status with the reference.  On a mismatch: a diff and every command.
#
# Usage:
#   validate.sh --hyperdo PATH --include DIR --lib ARCHIVE
#               [--backend threads|mpi] [--dim N | --dims A-B]
#               [--mapping identity|optimal]... [--network NET] [--maps MAPS]
#               [--cost ncube2|linkbound]
#               [--workdir DIR]
#               [--cppflags "FLAGS"] [--timeout SECONDS] PROG.c [MORE.c ...]
#
# The dimensions PROG.c supports come from its first line,
#   // e2e: dims A-B
# and are intersected with --dim/--dims (default: all of them).  Mappings
# default to "identity optimal".  Environment: CC (cc), CLANG (clang-14;
# empty to skip that check), MPICC (mpicc), MPIEXEC (mpiexec),
# HYPERDO_TEST_CFLAGS (added when linking a translated program: the
# sanitizer flags of a -DHYPERDO_SANITIZE=ON build, whose libraries need them),
# MPIEXEC_FLAGS (empty), E2E_TIMEOUT (seconds per run, 120).
# Exit status: 0 when every combination matched, 1 on any mismatch or
# failure, 2 on a usage error.
set -euo pipefail

usage() {
    sed -n '/^# Usage:/,/^# failure/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

hyperdo='' include='' lib='' backend=threads dims='' workdir='' cppflags='' network='' maps='' cost=''
mappings=()
timeout_s=${E2E_TIMEOUT:-120}
while [ $# -gt 0 ]; do
    case $1 in
    --hyperdo) hyperdo=$2; shift 2 ;;
    --include) include=$2; shift 2 ;;
    --lib) lib=$2; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    --dim) dims="$2-$2"; shift 2 ;;
    --dims) dims=$2; shift 2 ;;
    --mapping) mappings+=("$2"); shift 2 ;;
    --network) network=$2; shift 2 ;;
    --maps) maps=$2; shift 2 ;;
    --cost) cost=$2; shift 2 ;;
    --workdir) workdir=$2; shift 2 ;;
    --cppflags) cppflags=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    -h | --help) usage ;;
    -*) echo "validate.sh: unknown option '$1'" >&2; usage ;;
    *) break ;;
    esac
done
[ $# -ge 1 ] || usage
prog=$1
more=("${@:2}")
[ -n "$hyperdo" ] && [ -n "$include" ] && [ -n "$lib" ] || usage
case $backend in threads | mpi) ;; *) echo "validate.sh: --backend threads|mpi" >&2; exit 2 ;; esac
[ ${#mappings[@]} -gt 0 ] || mappings=(identity optimal)
for m in "${mappings[@]}"; do
    case $m in identity | optimal) ;; *) echo "validate.sh: --mapping identity|optimal" >&2; exit 2 ;; esac
done

CC=${CC:-cc}
CLANG=${CLANG-clang-14}
MPICC=${MPICC:-mpicc}
MPIEXEC=${MPIEXEC:-mpiexec}
read -r -a mpiexec_flags <<<"${MPIEXEC_FLAGS:-}"
read -r -a extra <<<"$cppflags"

fail() { echo "validate.sh: $*" >&2; exit 1; }
[ -f "$prog" ] || fail "no such program: $prog"
for f in "${more[@]}"; do [ -f "$f" ] || fail "no such program file: $f"; done
[ -x "$hyperdo" ] || fail "hyperdo is not built: $hyperdo"
[ -f "$lib" ] || fail "the run-time library is not built: $lib"

# The program's dimensions, intersected with the ones asked for.
range=$(sed -n '1s|^// e2e: dims \([0-9][0-9]*\)-\([0-9][0-9]*\)[[:space:]]*$|\1 \2|p' "$prog")
[ -n "$range" ] || fail "$prog: the first line must be '// e2e: dims A-B'"
read -r lo hi <<<"$range"
if [ -n "$dims" ]; then
    want_lo=${dims%-*} want_hi=${dims#*-}
    [ "$want_lo" -gt "$lo" ] && lo=$want_lo
    [ "$want_hi" -lt "$hi" ] && hi=$want_hi
fi
if [ "$lo" -gt "$hi" ]; then
    echo "validate.sh: $prog: no dimension in common with ${dims:-its range}; nothing to do"
    exit 0
fi

name=$(basename "$prog" .c)
# A program of several files is named after their directory.
[ ${#more[@]} -eq 0 ] || name=$(basename "$(cd "$(dirname "$prog")" && pwd)")
if [ -z "$workdir" ]; then
    workdir=$(mktemp -d "${TMPDIR:-/tmp}/hyperdo-e2e-$name.XXXXXX")
fi
mkdir -p "$workdir"
prog=$(cd "$(dirname "$prog")" && pwd)/$(basename "$prog")
for k in "${!more[@]}"; do
    more[k]=$(cd "$(dirname "${more[k]}")" && pwd)/$(basename "${more[k]}")
done
# The program's files, and what the translated ones need to find the
# headers of their directory (#include "..." of a translation in the work
# directory).
sources=("$prog" "${more[@]}")
quote_dirs=()
if [ ${#more[@]} -gt 0 ]; then
    for f in "${sources[@]}"; do quote_dirs+=(-iquote "$(dirname "$f")"); done
fi

# Every command that was run for the current combination, to print on failure.
cmdlog=()
quote() { printf '%q ' "$@"; }
# run OUTFILE ERRFILE CMD...: runs CMD with stdout and stderr to the files,
# under a timeout; sets $status, never fails itself.
run() {
    local out=$1 err=$2
    shift 2
    cmdlog+=("$(quote "$@")>$(quote "$out")")
    status=0
    timeout --kill-after=10 "$timeout_s" "$@" >"$out" 2>"$err" </dev/null || status=$?
}
# step LABEL CMD...: a build step that must succeed.
step() {
    local label=$1 log
    shift
    log=$workdir/step.log
    cmdlog+=("$(quote "$@")")
    if ! timeout --kill-after=10 "$timeout_s" "$@" >"$log" 2>&1 </dev/null; then
        echo "FAIL: $label"
        sed 's/^/    /' "$log" | head -40
        return 1
    fi
}
show_commands() {
    echo "  commands (in $workdir):"
    printf '    %s\n' "${cmdlog[@]}"
}

# 1. The reference: the program as plain sequential C.
cflags=(-std=c11 -Wall -Wextra -Werror -I"$include" "${extra[@]}")
cmdlog=()
if ! step "$name: the original does not compile as sequential C" \
    "$CC" "${cflags[@]}" -Wno-unknown-pragmas "${sources[@]}" -o "$workdir/$name.seq" -lm; then
    show_commands
    exit 1
fi
run "$workdir/$name.seq.out" "$workdir/$name.seq.err" "$workdir/$name.seq"
ref_status=$status
if [ "$ref_status" -ge 124 ]; then
    echo "FAIL: $name: the sequential program timed out or crashed (status $ref_status)"
    show_commands
    exit 1
fi
ref_cmds=("${cmdlog[@]}")

failures=0 passes=0
for ((n = lo; n <= hi; n++)); do
    for m in "${mappings[@]}"; do
        tag="$name: $backend, --dim $n, --mapping $m${network:+, --network $network}${maps:+, --maps $maps}${cost:+, --cost $cost}"
        base=$workdir/$name.$n.$m
        cmdlog=("${ref_cmds[@]}")
        ok=1

        # 2. Translate, twice to the same name (the output names itself in
        # its #line directives); the two must be the same bytes.  Several
        # files go into a directory, each output named as its input.
        translate=("$hyperdo" translate --dim "$n" --mapping "$m" ${network:+--network "$network"} ${maps:+--maps "$maps"} ${cost:+--cost "$cost"})
        if [ ${#more[@]} -eq 0 ]; then
            out=$base.spmd.c again=$base.again.spmd.c
            outputs=("$out")
        else
            out=$base.spmd again=$base.again.spmd
            outputs=()
            for f in "${sources[@]}"; do outputs+=("$out/$(basename "$f")"); done
            rm -rf "$out" "$again"
        fi
        if ! step "$tag: hyperdo translate failed" \
                "${translate[@]}" "${sources[@]}" -o "$out" -- -I"$include" "${extra[@]}" ||
            ! mv "$out" "$again" ||
            ! step "$tag: hyperdo translate failed the second time" \
                "${translate[@]}" "${sources[@]}" -o "$out" -- -I"$include" "${extra[@]}"; then
            ok=0
        elif ! diff -r "$out" "$again" >/dev/null; then
            echo "FAIL: $tag: translating twice gives different files"
            diff -ru "$out" "$again" | head -40 | sed 's/^/    /' || true
            ok=0
        fi

        # 3. The translated files compile cleanly with both compilers.
        if [ $ok = 1 ] && [ -n "$CLANG" ]; then
            for f in "${outputs[@]}"; do
                step "$tag: the translated program does not compile with $CLANG" \
                    "$CLANG" "${cflags[@]}" "${quote_dirs[@]}" -c "$f" -o "$base.clang.o" || ok=0
            done
        fi
        if [ $ok = 1 ]; then
            if [ "$backend" = threads ]; then
                step "$tag: the translated program does not build with $CC" \
                    "$CC" "${cflags[@]}" "${quote_dirs[@]}" "${outputs[@]}" "$lib" -lm -pthread ${HYPERDO_TEST_CFLAGS:-} -o "$base.$backend" || ok=0
            else
                step "$tag: the translated program does not build with $MPICC" \
                    "$MPICC" "${cflags[@]}" "${quote_dirs[@]}" "${outputs[@]}" "$lib" -lm -pthread ${HYPERDO_TEST_CFLAGS:-} -o "$base.$backend" || ok=0
            fi
        fi

        # 4. Run it on 2^n processors and compare with the reference.
        if [ $ok = 1 ]; then
            if [ "$backend" = threads ]; then
                run "$base.out" "$base.err" "$base.$backend"
            else
                run "$base.out" "$base.err" "$MPIEXEC" "${mpiexec_flags[@]}" -n $((1 << n)) "$base.$backend"
            fi
            if ! cmp -s "$workdir/$name.seq.out" "$base.out"; then
                echo "FAIL: $tag: stdout differs from the sequential program's"
                diff -u --label sequential --label translated \
                    "$workdir/$name.seq.out" "$base.out" | head -60 | sed 's/^/    /' || true
                ok=0
            fi
            if [ "$status" != "$ref_status" ]; then
                echo "FAIL: $tag: exit status $status, the sequential program's is $ref_status"
                ok=0
            fi
            if [ $ok = 0 ] && [ -s "$base.err" ]; then
                echo "  stderr of the translated program:"
                head -20 "$base.err" | sed 's/^/    /'
            fi
        fi

        if [ $ok = 1 ]; then
            echo "ok: $tag"
            passes=$((passes + 1))
        else
            show_commands
            failures=$((failures + 1))
        fi
    done
done

echo "$name ($backend): $passes passed, $failures failed (dims $lo-$hi, mappings ${mappings[*]})"
[ "$failures" -eq 0 ]
