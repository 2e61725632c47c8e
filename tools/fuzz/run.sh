#!/bin/sh
# tools/fuzz/run.sh [SECONDS] [LIBFUZZER ARGS...] — build the libFuzzer
# harness of the C reader (fuzz_c_read.c) with AddressSanitizer and
# UndefinedBehaviorSanitizer, then fuzz for SECONDS (default 600).
#
# Not part of ctest: a long run is its own command.  Run from anywhere; the
# build goes to build-fuzz/ at the repository root (HD_FUZZ_BUILD to move
# it), which also keeps the growing corpus (build-fuzz/corpus), crash
# inputs (build-fuzz/artifacts) and the log of each run.
#
# Seeds: tools/fuzz/seeds/*.c and, when present, the reader's test corpus
# tests/frontend/*.c and tests/frontend/*/*.c (its rejects included).
#
# Environment:
#   CC             clang with libFuzzer (default clang-14)
#   LLVM_DIR       where libclang is (default /usr/lib/llvm-14)
#   HD_FUZZ_JOBS   N > 1: run N fuzzing processes (-fork=N) and go on after
#                  crashes, saving each (default 1: stop at the first crash)
#   HD_FUZZ_LEAKS  1 (default) to let LeakSanitizer report leaks, 0 not to
#   HD_FUZZ_LIBS   extra link arguments, should the front end need more
#   HD_FUZZ_NO_BUILD=1  reuse the harness already built
#
# Reproduce a crash:  build-fuzz/fuzz_c_read build-fuzz/artifacts/crash-...
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-600}
[ $# -gt 0 ] && shift
out=${HD_FUZZ_BUILD:-$root/build-fuzz}
cc=${CC:-clang-14}
llvm=${LLVM_DIR:-/usr/lib/llvm-14}
jobs=${HD_FUZZ_JOBS:-1}

case $secs in
    ''|*[!0-9]*) echo "usage: tools/fuzz/run.sh [SECONDS] [LIBFUZZER ARGS...]" >&2
                 exit 2 ;;
esac

mkdir -p "$out/corpus" "$out/artifacts" "$out/seeds-tests"

if [ "${HD_FUZZ_NO_BUILD:-0}" != 1 ]; then
    # The front end and analysis libraries as the project builds them (its
    # own flags and sources), instrumented for coverage-guided fuzzing; -O1
    # keeps the sanitizers' stacks readable; asserts stay on.
    san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
    CC=$cc cmake -S "$root" -B "$out" -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_C_FLAGS_DEBUG="-g -O1" \
        -DCMAKE_C_FLAGS="-fsanitize=fuzzer-no-link" \
        -DHYPERDO_SANITIZE=ON -DHYPERDO_TESTS=OFF -DHYPERDO_BENCH=OFF >/dev/null
    cmake --build "$out" -j2 --target hyperdo_frontend hyperdo_analysis
    # shellcheck disable=SC2086  # word splitting of the flag lists is meant
    $cc -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 $san -fsanitize=fuzzer \
        -Wall -Wextra \
        -DHD_FUZZ_INCLUDE="\"$root/runtime/include\"" \
        -I"$root/frontend" -I"$root/analysis" \
        "$root/tools/fuzz/fuzz_c_read.c" \
        "$out/frontend/libhyperdo_frontend.a" "$out/analysis/libhyperdo_analysis.a" \
        -L"$llvm/lib" -lclang -Wl,-rpath,"$llvm/lib" -lm ${HD_FUZZ_LIBS:-} \
        -o "$out/fuzz_c_read"
    echo "built $out/fuzz_c_read"
fi

# Seeds another helper keeps with the front end's tests.
for f in "$root"/tests/frontend/*.c "$root"/tests/frontend/*/*.c; do
    [ -e "$f" ] && cp "$f" "$out/seeds-tests/$(echo "${f#"$root"/tests/frontend/}" | tr / _)"
done

export ASAN_OPTIONS="detect_leaks=${HD_FUZZ_LEAKS:-1}:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"

fork=
if [ "$jobs" -gt 1 ]; then
    fork="-fork=$jobs -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1"
fi

log="$out/fuzz-$(date +%Y%m%d-%H%M%S).log"
echo "fuzzing for $secs s; log in $log"
cd "$out"
status="$out/.status"
# shellcheck disable=SC2086
{ rc=0
  ./fuzz_c_read -max_total_time="$secs" -timeout=30 -rss_limit_mb=4096 \
      -max_len=8192 -dict="$root/tools/fuzz/hyperdo.dict" \
      -artifact_prefix="$out/artifacts/" -print_final_stats=1 $fork "$@" \
      "$out/corpus" "$root/tools/fuzz/seeds" "$out/seeds-tests" || rc=$?
  echo "$rc" >"$status"; } 2>&1 | tee "$log"
exit "$(cat "$status")"
