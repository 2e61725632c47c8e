#!/usr/bin/env bash
# difftest.sh — differential testing of `hyperdo translate` on random
# annotated programs (tools/difftest/gen.c, docs/difftest.md).
#
# For each seed: generate a program, build and run it as sequential C (the
# reference), translate it for a cube dimension of its range with
# --mapping identity and with --mapping optimal, build each translation
# with -std=c11 -Wall -Wextra -Werror against the back end's library, run
# it, and compare stdout and the exit status byte for byte.
#
# Usage:
#   difftest.sh BUILD_DIR [--seed S] [--count N | --seconds N]
#               [--backend threads|mpi|sim] [--dims A-B] [--keep DIR]
#               [--avoid-known] [--gen-args "ARGS"] [--include DIR]
#               [--timeout SECONDS] [--quiet] [--program FILE.c]
#
#   BUILD_DIR      holds bin/hyperdo and runtime/libhyperdo*.a (a cmake
#                  build directory); bin/difftest_gen is used if built,
#                  else tools/difftest/gen.c is compiled
#   --seed S       first seed (default 1); seeds S, S+1, ... are used
#   --count N      programs to test (default 20)
#   --seconds N    test programs until N seconds have passed instead
#   --backend B    threads (default), mpi (mpiexec -n 2^n) or sim
#   --dims A-B     cube dimensions to pick from (default 1-6, mpi 1-4),
#                  intersected with each program's own range
#   --keep DIR     keep every program's files under DIR/work/SEED and the
#                  failures under DIR/ (default: failures only, under
#                  BUILD_DIR/difftest/)
#   --avoid-known  generate no construct of today's known translator bugs
#                  (gen --avoid-known)
#   --gen-args A   more arguments for the generator (--force-known LIST, ...)
#   --include DIR  the run-time headers (default: runtime/include beside
#                  this script)
#   --timeout S    seconds per run of a program (default 20; translation 120)
#   --program F    test the program F (a saved failure, a hand-written
#                  case) instead of generated ones; its first line may say
#                  "// difftest: seed S, dims A-B, ..." (else dims 1-6)
#
# Outcomes, per program:
#   pass      both translations print and exit as the sequential program;
#   refused   hyperdo translate exited 1 with diagnostics (the refusals are
#             grouped by message at the end, positions and names replaced,
#             so that false refusals stand out);
#   failure   stdout or exit status differs, a crash, a timeout, a
#             translation that does not compile, a translator that crashed,
#             timed out or exited with a status other than 0 and 1, a
#             refusal under one mapping only, or a generated program that is
#             itself broken (a generator bug: does not compile or run).
# Each failure is saved in its own directory with the program, the
# translation, both outputs and repro.sh (every command; `repro.sh [PROG.c]`
# exits 0 while the failure reproduces, the predicate of minimize.sh).
#
# Progress on stderr every few seconds; at the end the refusal groups, the
# failures and one line:
#   difftest: N programs (seed S..E), P passed, R refused, F failed, in T s
# Exit status: 0 with no failure, 1 with any, 2 on a usage error.
set -u

usage_end=Outcomes
. "$(dirname "${BASH_SOURCE[0]}")/usage.sh"
need_operand "$@"
build=$1
shift
[ -d "$build" ] || { echo "difftest: no such build directory: $build" >&2; exit 2; }
build=$(cd "$build" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/../.." && pwd)

seed=1 count=20 seconds='' backend=threads dims='' keep='' avoid=0 genargs='' include="$src/runtime/include"
run_timeout=20 quiet=0 program=
while [ $# -gt 0 ]; do
    case $1 in
    --seed) seed=$2; shift 2 ;;
    --count) count=$2; seconds=''; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    --dims) dims=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --avoid-known) avoid=1; shift ;;
    --gen-args) genargs=$2; shift 2 ;;
    --include) include=$2; shift 2 ;;
    --timeout) run_timeout=$2; shift 2 ;;
    --quiet) quiet=1; shift ;;
    --program) program=$2; count=1; seconds=''; shift 2 ;;
    -h | --help) usage ;;
    *) echo "difftest: unknown argument '$1'" >&2; usage ;;
    esac
done
case $seed in '' | *[!0-9]*) echo "difftest: --seed needs a number" >&2; exit 2 ;; esac
case $backend in
threads) lib=$build/runtime/libhyperdo.a ;;
sim) lib=$build/runtime/libhyperdo-sim.a ;;
mpi) lib=$build/runtime/libhyperdo-mpi.a ;;
*) echo "difftest: --backend threads|mpi|sim" >&2; exit 2 ;;
esac
[ -n "$dims" ] || { [ "$backend" = mpi ] && dims=1-4 || dims=1-6; }
case $dims in [0-9]*-[0-9]*) ;; *) echo "difftest: --dims A-B" >&2; exit 2 ;; esac
want_lo=${dims%-*} want_hi=${dims#*-}
hyperdo=$build/bin/hyperdo
[ -x "$hyperdo" ] || { echo "difftest: $hyperdo is not built" >&2; exit 2; }
[ -f "$lib" ] || { echo "difftest: $lib is not built" >&2; exit 2; }
[ -f "$include/hyperdo.h" ] || { echo "difftest: no hyperdo.h in $include" >&2; exit 2; }

CC=${CC:-cc}
MPICC=${MPICC:-mpicc}
MPIEXEC=${MPIEXEC:-mpiexec}
read -r -a mpiexec_flags <<<"${MPIEXEC_FLAGS:-}"
read -r -a gen_extra <<<"$genargs"
# a sanitizer build's library needs the sanitizer when linking (as validate.sh)
read -r -a test_cflags <<<"${HYPERDO_TEST_CFLAGS:-}"
[ $avoid = 1 ] && gen_extra+=(--avoid-known)
[ "$backend" = mpi ] && pcc=$MPICC || pcc=$CC

# Scratch space: one directory per program, removed unless --keep.
if [ -n "$keep" ]; then
    mkdir -p "$keep" || exit 2
    keep=$(cd "$keep" && pwd)
    failroot=$keep
    scratch=$keep/work
    mkdir -p "$scratch"
else
    failroot=$build/difftest
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/difftest.XXXXXX") || exit 2
    trap 'rm -rf "$scratch"' EXIT
fi
mkdir -p "$failroot" || exit 2

# The generator: the build's, else compiled here.
gen=$build/bin/difftest_gen
if [ ! -x "$gen" ] || [ "$here/gen.c" -nt "$gen" ]; then
    gen=$scratch/gen
    "$CC" -std=c11 -O2 -o "$gen" "$here/gen.c" || { echo "difftest: cannot build the generator" >&2; exit 2; }
fi

# The refusal groups: a diagnostic with its position, quoted names and
# numbers replaced, so that one cause is one line.
normalise() {
    sed -e 's/^[^ ]*:[0-9][0-9]*:[0-9][0-9]*: //' -e 's/^error: //' \
        -e "s/'[^']*'/'X'/g" -e 's/[0-9][0-9]*/N/g' -e 's/\b[A-Za-z_][A-Za-z0-9_]* = N\b/V = N/g'
}

passes=0 refusals=0 failures=0 programs=0 skipped=0
declare -A refusal_count refusal_example
fail_list=()
start=$(date +%s)
last_progress=$start
first_seed=$seed

progress() {
    [ $quiet = 1 ] && return
    local now
    now=$(date +%s)
    if [ $((now - last_progress)) -ge 5 ] || [ "${1:-}" = force ]; then
        echo "difftest: $programs programs, $passes passed, $refusals refused, $failures failed ($((now - start)) s)" >&2
        last_progress=$now
    fi
}

q() { printf '%q ' "$@"; }

# save KIND DETAIL DIR SEED N MAPPING: keep a failure with its repro.sh.
save_failure() {
    local kind=$1 detail=$2 dir=$3 s=$4 n=$5 m=$6
    local dest=$failroot/fail-$s-$m
    rm -rf "$dest"
    mkdir -p "$dest"
    cp "$dir/prog.c" "$dest/prog.c"
    for f in seq.out seq.status "$m.spmd.c" "$m.translate.err" "$m.cc.err" "$m.out" "$m.err" "$m.status"; do
        [ -f "$dir/$f" ] && cp "$dir/$f" "$dest/"
    done
    local run strict=0 sig=''
    # Minimising keeps a candidate only if it is as clean as the original.
    "$CC" -std=c11 -O1 -Wno-unknown-pragmas -Wall -Wextra -Werror -I"$include" -c -o /dev/null "$dir/prog.c" \
        >/dev/null 2>&1 && strict=1
    [ -f "$dir/$m.cc.err" ] && sig=$(grep -m1 'error' "$dir/$m.cc.err" | sed 's/^[^ ]*: error: //')
    if [ "$backend" = mpi ]; then
        run="$(q "$MPIEXEC" "${mpiexec_flags[@]}") -n $((1 << n)) ./par"
    else
        run="./par"
    fi
    {
        echo "#!/usr/bin/env bash"
        echo "# difftest failure: $kind — $detail"
        echo "# seed $s, --dim $n, --mapping $m, back end $backend"
        echo "# Reproduces the failure: 'repro.sh [PROG.c]' (default prog.c beside this"
        echo "# script) builds and runs the program sequentially and translated and"
        echo "# exits 0 when the failure ($kind) is still there, 1 when it is not,"
        echo "# 2 when PROG.c is not a valid test (does not build, times out, or"
        echo "# has undefined behaviour under -fsanitize=address,undefined)."
        echo "# The predicate of tools/difftest/minimize.sh."
        echo "set -u"
        echo "here=\$(cd \"\$(dirname \"\$0\")\" && pwd)"
        echo "prog=\$(realpath \"\${1:-\$here/prog.c}\")"
        echo "w=\$(mktemp -d \"\${TMPDIR:-/tmp}/repro.XXXXXX\"); trap 'rm -rf \"\$w\"' EXIT; cd \"\$w\""
        echo "inc=$(q "$include")"
        echo "# 1. the sequential program (the reference), and a check that it is valid:"
        echo "# clean under -Wall -Wextra$([ "$strict" = 1 ] || echo ' (not asked: the original is not)'), no undefined behaviour"
        echo "$(q "$CC") -std=c11 -O1 -Wno-unknown-pragmas -I\"\$inc\" \"\$prog\" -o seq -lm || exit 2"
        echo "$(q "$CC") -std=c11 -O1 -Wno-unknown-pragmas$([ "$strict" = 1 ] && echo ' -Wall -Wextra -Werror') -Werror=uninitialized -Werror=maybe-uninitialized -fsanitize=address,undefined -fno-sanitize-recover=all -I\"\$inc\" \"\$prog\" -o seq.san -lm || exit 2"
        echo "ASAN_OPTIONS=detect_leaks=0 timeout 20 ./seq.san >/dev/null 2>&1 </dev/null; st=\$?; [ \$st -ge 124 ] && exit 2"
        echo "timeout 20 ./seq >seq.out 2>seq.err </dev/null; ref=\$?; [ \$ref -ge 124 ] && exit 2"
        echo "# 2. the translation"
        echo "timeout 120 $(q "$hyperdo") translate --dim $n --mapping $m \"\$prog\" -o out.spmd.c -- -I\"\$inc\" 2>tr.err; tr=\$?"
        case $kind in
        translator-*) echo "[ \$tr -ne 0 ] && [ \$tr -ne 1 ] && exit 0; exit 1" ;;
        *)
            echo "[ \$tr -eq 0 ] || exit 1"
            echo "# 3. its build"
            echo "$(q "$pcc") -std=c11 -Wall -Wextra$([ "$strict" = 1 ] && echo ' -Werror') -I\"\$inc\" out.spmd.c $(q "$lib") -lm -pthread ${test_cflags[*]:-} -o par 2>cc.err; cc=\$?"
            if [ "$kind" = uncompilable ]; then
                echo "# the same first error (positions aside)"
                echo "[ \$cc -ne 0 ] && grep -q -F -e $(q "$sig") cc.err && exit 0; exit 1"
            else
                echo "[ \$cc -eq 0 ] || exit 1"
                echo "# 4. its run, compared with the reference"
                echo "timeout $run_timeout $run >par.out 2>par.err </dev/null; st=\$?"
                echo "cmp -s seq.out par.out && [ \$st -eq \$ref ] && exit 1"
                echo "exit 0"
            fi
            ;;
        esac
    } >"$dest/repro.sh"
    chmod +x "$dest/repro.sh"
    fail_list+=("$kind: seed $s --dim $n --mapping $m: $detail ($dest)")
    echo "difftest: FAIL seed $s --dim $n --mapping $m: $kind: $detail ($dest)" >&2
}

while :; do
    if [ -n "$seconds" ]; then
        [ $(($(date +%s) - start)) -ge "$seconds" ] && break
    else
        [ $programs -ge "$count" ] && break
    fi
    s=$seed
    seed=$((seed + 1))
    dir=$scratch/$s
    rm -rf "$dir"
    mkdir -p "$dir"
    programs=$((programs + 1))

    if [ -n "$program" ]; then
        cp "$program" "$dir/prog.c" || exit 2
        if grep -q '^// difftest: seed [0-9]*, dims [0-9]*-[0-9]*,' "$dir/prog.c"; then
            # the program's own seed picks the same cube dimension again
            s=$(sed -n '1s|^// difftest: seed \([0-9]*\),.*|\1|p' "$dir/prog.c")
        else
            sed -i "1i // difftest: seed $s, dims 1-6, known: none" "$dir/prog.c"
        fi
    elif ! "$gen" "${gen_extra[@]}" "$s" >"$dir/prog.c" 2>"$dir/gen.err"; then
        failures=$((failures + 1))
        save_failure generator "gen exited with an error: $(head -c 200 "$dir/gen.err")" "$dir" "$s" 0 none
        continue
    fi
    range=$(sed -n '1s|^// difftest: seed [0-9]*, dims \([0-9]*\)-\([0-9]*\),.*|\1 \2|p' "$dir/prog.c")
    read -r lo hi <<<"$range"
    [ "$want_lo" -gt "$lo" ] && lo=$want_lo
    [ "$want_hi" -lt "$hi" ] && hi=$want_hi
    if [ "$lo" -gt "$hi" ]; then
        skipped=$((skipped + 1))
        programs=$((programs - 1))
        continue
    fi
    # The dimension: a function of the seed, so a rerun picks the same.
    n=$((lo + (s * 2654435761 % 4294967296) % (hi - lo + 1)))

    # 1. The reference.
    if ! "$CC" -std=c11 -O1 -Wno-unknown-pragmas -I"$include" "$dir/prog.c" -o "$dir/seq" -lm \
        >"$dir/seq.cc.err" 2>&1; then
        failures=$((failures + 1))
        save_failure generator "the generated program does not compile: $(grep -m1 error "$dir/seq.cc.err")" \
            "$dir" "$s" "$n" identity
        continue
    fi
    # A generated program is clean under -Wall -Wextra (the translation is
    # built with -Werror, and the program's own code must not be what fails
    # it), unless it holds a known construct that cannot be.
    if [ -z "$program" ] && grep -q '^// difftest: .*known: none$' "$dir/prog.c" &&
        ! "$CC" -std=c11 -O1 -Wall -Wextra -Werror -Wno-unknown-pragmas -I"$include" -fsyntax-only \
            "$dir/prog.c" >"$dir/seq.cc.err" 2>&1; then
        failures=$((failures + 1))
        save_failure generator "the generated program is not clean under -Wall -Wextra: $(grep -m1 error "$dir/seq.cc.err")" \
            "$dir" "$s" "$n" identity
        continue
    fi
    timeout --kill-after=5 "$run_timeout" "$dir/seq" >"$dir/seq.out" 2>"$dir/seq.err" </dev/null
    ref=$?
    echo "$ref" >"$dir/seq.status"
    if [ $ref -ge 124 ]; then
        failures=$((failures + 1))
        save_failure generator "the sequential program timed out or crashed (status $ref)" "$dir" "$s" "$n" identity
        continue
    fi

    # 2-4. Each mapping.  The translation must be as clean as the program:
    # -Werror only when the program itself compiles cleanly under -Wall
    # -Wextra (its own code is copied into the translation; -c, not
    # -fsyntax-only: unused statics are reported by the compiler proper).
    werror=-Werror
    "$CC" -std=c11 -O1 -Wall -Wextra -Werror -Wno-unknown-pragmas -I"$include" -c -o /dev/null \
        "$dir/prog.c" >/dev/null 2>&1 || werror=
    outcome=pass detail='' fkind='' fmap='' refmsg='' refused_maps=''
    for m in identity optimal; do
        timeout --kill-after=10 120 "$hyperdo" translate --dim "$n" --mapping "$m" "$dir/prog.c" \
            -o "$dir/$m.spmd.c" -- -I"$include" >/dev/null 2>"$dir/$m.translate.err" </dev/null
        tr=$?
        if [ $tr -eq 1 ]; then
            refused_maps="$refused_maps $m"
            [ -n "$refmsg" ] || refmsg=$(grep -m1 ': error: ' "$dir/$m.translate.err" || head -1 "$dir/$m.translate.err")
            continue
        fi
        if [ $tr -ne 0 ] || [ ! -s "$dir/$m.spmd.c" ]; then
            fkind=translator-crash
            [ $tr -ge 124 ] && [ $tr -le 137 ] && fkind=translator-timeout
            [ $tr -eq 0 ] && fkind=translator-no-output
            detail="hyperdo translate exited with status $tr: $(grep -m1 . "$dir/$m.translate.err" | head -c 200)"
            fmap=$m
            break
        fi
        if ! "$pcc" -std=c11 -Wall -Wextra $werror -I"$include" "$dir/$m.spmd.c" "$lib" -lm -pthread \
            "${test_cflags[@]}" -o "$dir/$m.par" >"$dir/$m.cc.err" 2>&1; then
            fkind=uncompilable
            detail="the translation does not compile: $(grep -m1 'error' "$dir/$m.cc.err" | head -c 300)"
            fmap=$m
            break
        fi
        if [ "$backend" = mpi ]; then
            timeout --kill-after=5 "$run_timeout" "$MPIEXEC" "${mpiexec_flags[@]}" -n $((1 << n)) "$dir/$m.par" \
                >"$dir/$m.out" 2>"$dir/$m.err" </dev/null
        else
            timeout --kill-after=5 "$run_timeout" "$dir/$m.par" >"$dir/$m.out" 2>"$dir/$m.err" </dev/null
        fi
        st=$?
        echo "$st" >"$dir/$m.status"
        if [ $st -eq 124 ] || [ $st -eq 137 ]; then
            fkind=timeout detail="no end after $run_timeout s"
        elif ! cmp -s "$dir/seq.out" "$dir/$m.out"; then
            fkind=mismatch
            where=$(cmp "$dir/seq.out" "$dir/$m.out" 2>&1)
            case $where in
            *"EOF on $dir/$m.out"*) where="cut short after line $(wc -l <"$dir/$m.out") of $(wc -l <"$dir/seq.out")" ;;
            *"EOF on "*) where="longer than the sequential program's $(wc -l <"$dir/seq.out") lines" ;;
            *) where="first at line $(printf '%s\n' "$where" | sed -n 's/.* line \([0-9]*\).*/\1/p')" ;;
            esac
            detail="stdout differs from the sequential program's, $where$( [ $st -ne $ref ] && echo ", exit status $st instead of $ref")"
            [ $st -ge 128 ] && [ $ref -lt 128 ] && fkind=crash detail="$detail (signal $((st - 128)))"
        elif [ $st -ne $ref ]; then
            fkind=mismatch detail="exit status $st instead of $ref"
            [ $st -ge 128 ] && fkind=crash
        fi
        if [ -n "$fkind" ]; then
            [ -s "$dir/$m.err" ] && detail="$detail; stderr: $(head -c 200 "$dir/$m.err" | tr '\n' ' ')"
            fmap=$m
            break
        fi
    done
    if [ -z "$fkind" ] && [ "$refused_maps" = " identity" -o "$refused_maps" = " optimal" ]; then
        fkind=inconsistent detail="refused with --mapping${refused_maps} only: $refmsg" fmap=${refused_maps# }
    fi
    if [ -n "$fkind" ]; then
        failures=$((failures + 1))
        known=$(sed -n '1s|.*known: \(.*\)$|\1|p' "$dir/prog.c")
        [ "$known" != none ] && detail="$detail [known constructs: $known]"
        save_failure "$fkind" "$detail" "$dir" "$s" "$n" "$fmap"
    elif [ -n "$refused_maps" ]; then
        refusals=$((refusals + 1))
        key=$(printf '%s\n' "$refmsg" | normalise)
        refusal_count[$key]=$((${refusal_count[$key]:-0} + 1))
        [ -n "${refusal_example[$key]:-}" ] || refusal_example[$key]="seed $s: $(printf '%s' "$refmsg" | head -c 300)"
        if [ -n "$keep" ]; then cp "$dir/prog.c" "$failroot/refused-$s.c" 2>/dev/null; fi
    else
        passes=$((passes + 1))
    fi
    [ -n "$keep" ] || rm -rf "$dir"
    progress
done
progress force

elapsed=$(($(date +%s) - start))
if [ $refusals -gt 0 ]; then
    echo "difftest: refusals by message (count, message with positions, names and numbers replaced; first example):"
    for key in "${!refusal_count[@]}"; do
        printf '%6d  %s\n        e.g. %s\n' "${refusal_count[$key]}" "$key" "${refusal_example[$key]}"
    done | awk 'NR % 2 == 1 { k = $0; next } { print k "\t" $0 }' | sort -t$'\t' -k1,1nr |
        tr '\t' '\n'
fi
if [ $failures -gt 0 ]; then
    echo "difftest: failures:"
    printf '  %s\n' "${fail_list[@]}"
fi
[ $skipped -gt 0 ] && echo "difftest: $skipped seeds skipped (no cube dimension in common with --dims $dims)"
echo "difftest: back end $backend, cube dimensions $dims, generator options: ${gen_extra[*]:-none}"
echo "difftest: $programs programs (seed $first_seed..$((seed - 1))), $passes passed, $refusals refused, $failures failed, in $elapsed s"
[ $failures -eq 0 ]
