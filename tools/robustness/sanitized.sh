# tools/robustness/sanitized.sh — sourced by sweep.sh: the
# ASan+UBSan build they run (build-robust/, Debug -O1, tests included so
# that both scripts share one configuration) and the sanitizers' settings.
#
#   sanitized_build ROOT TARGET   builds TARGET there; prints its path

sanitized_build() {
    build="$1/build-robust"
    cmake -S "$1" -B "$build" -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DHYPERDO_SANITIZE=ON \
        -DHYPERDO_TESTS=ON -DHYPERDO_BENCH=OFF >/dev/null
    cmake --build "$build" -j2 --target "$2" >/dev/null
    find "$build" -type f -name "$2" -perm -u+x | head -n 1
}

# Stop at the first error, with a stack; leaks count too.
export ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
