#!/bin/sh
# tools/fuzz/coverage.sh — line and branch coverage of the front end and the
# analysis by the fuzzing corpus (build-fuzz/corpus plus the seeds), as a
# number to report next to the fuzzer's own "cov:" counter.
#
# Builds the harness again without sanitizers but with clang's source-based
# coverage (build-fuzz-cov/ beside this script's tree), replays every corpus input once (-runs=0) and
# prints llvm-cov's report for frontend/ and analysis/.  Run after
# tools/fuzz/run.sh.
#
# Environment: CC (default clang-14), LLVM_DIR (default /usr/lib/llvm-14),
# HD_FUZZ_BUILD (the fuzzing build whose corpus is replayed, default
# build-fuzz), HD_FUZZ_COV_BUILD (this build, default build-fuzz-cov).
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
fuzz=${HD_FUZZ_BUILD:-$root/build-fuzz}
out=${HD_FUZZ_COV_BUILD:-$root/build-fuzz-cov}
cc=${CC:-clang-14}
llvm=${LLVM_DIR:-/usr/lib/llvm-14}
cov="-fprofile-instr-generate -fcoverage-mapping"

# shellcheck disable=SC2086
CC=$cc cmake -S "$root" -B "$out" -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DCMAKE_C_FLAGS="$cov -fsanitize=fuzzer-no-link" \
    -DHYPERDO_TESTS=OFF -DHYPERDO_BENCH=OFF >/dev/null
cmake --build "$out" -j2 --target hyperdo_frontend hyperdo_analysis >/dev/null
# shellcheck disable=SC2086
$cc -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 $cov -fsanitize=fuzzer \
    -DHD_FUZZ_INCLUDE="\"$root/runtime/include\"" \
    -I"$root/frontend" -I"$root/analysis" "$root/tools/fuzz/fuzz_c_read.c" \
    "$out/frontend/libhyperdo_frontend.a" "$out/analysis/libhyperdo_analysis.a" \
    -L"$llvm/lib" -lclang -Wl,-rpath,"$llvm/lib" -lm ${HD_FUZZ_LIBS:-} \
    -o "$out/fuzz_c_read_cov"

rm -f "$out"/*.profraw
dirs="$fuzz/corpus $root/tools/fuzz/seeds"
[ -d "$fuzz/seeds-tests" ] && dirs="$dirs $fuzz/seeds-tests"
# shellcheck disable=SC2086  # $dirs is a list of paths without spaces
n=$(find $dirs -type f | wc -l)
echo "replaying $n inputs"
# shellcheck disable=SC2086
LLVM_PROFILE_FILE="$out/cov-%p.profraw" "$out/fuzz_c_read_cov" -runs=0 \
    -rss_limit_mb=4096 -max_len=8192 $dirs >"$out/replay.log" 2>&1 ||
    { tail -20 "$out/replay.log"; exit 1; }
"$llvm/bin/llvm-profdata" merge -sparse "$out"/*.profraw -o "$out/cov.profdata"
"$llvm/bin/llvm-cov" report "$out/fuzz_c_read_cov" \
    -instr-profile="$out/cov.profdata" \
    "$root/frontend" "$root/analysis"
echo "per-line detail: $llvm/bin/llvm-cov show $out/fuzz_c_read_cov -instr-profile=$out/cov.profdata $root/frontend/*.c"
