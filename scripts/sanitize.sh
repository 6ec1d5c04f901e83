#!/usr/bin/env bash
# make sanitize: the whole test suite built and run under AddressSanitizer (with LeakSanitizer), in its
# own build folder (.build/asan). Leaks inside third-party libraries that keep process-lifetime caches
# (fontconfig, Pango/GLib type registrations, HarfBuzz) are listed in scripts/lsan-suppressions.txt,
# each with the reason; a leak or memory error reached from our own code fails the run.
#
# SANITIZE_FILTER narrows the tests (a `swift test --filter` pattern); the default is every test.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:halt_on_error=1:detect_stack_use_after_return=0}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=0}
echo "== building the package and its tests with AddressSanitizer (.build/asan)"
"$SWIFT" build --build-path .build/asan --build-tests --sanitize=address
echo "== running the tests under AddressSanitizer"
filter=()
if [ -n "${SANITIZE_FILTER:-}" ]; then filter=(--filter "$SANITIZE_FILTER"); fi
log=.build/asan/sanitize.log
set +e
"$SWIFT" test --build-path .build/asan --skip-build --sanitize=address "${filter[@]}" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
if grep -qE "ERROR: (AddressSanitizer|LeakSanitizer)" "$log"; then
    echo "make sanitize: FAILED, a sanitizer report is in $log"
    exit 1
fi
if [ "$status" -ne 0 ]; then echo "make sanitize: the tests failed under AddressSanitizer (exit $status; $log)"; exit "$status"; fi
echo "make sanitize: every test passed with no AddressSanitizer or LeakSanitizer report"
