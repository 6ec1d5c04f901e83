#!/usr/bin/env bash
# make fuzz: coverage-guided fuzzing of every FuzzTarget (Sources/MovieMaker/Support/FuzzTarget.swift)
# and of the studio's HTTP request reader (studio-http: Sources/MovieMakerStudio/HTTPRequestReader.swift,
# see Sources/MovieMakerFuzz/FuzzMain.swift) with libFuzzer and AddressSanitizer, FUZZ_SECONDS (default
# 60) per target. The targets are the folders of Tests/FuzzCorpus.
#
#   1. builds moviemaker-fuzz with -sanitize=fuzzer,address (its own build folder, .build/fuzz);
#   2. writes the seeds the test suite generates (FuzzCorpusTests, MOVIEMAKER_FUZZ_SEEDS) into
#      .build/fuzz-work/seeds/<target>/;
#   3. runs each target on a working corpus (.build/fuzz-work/corpus/<target>/, kept between runs)
#      started from those seeds and from the stored corpus Tests/FuzzCorpus/<target>/;
#   4. fails, naming the input, if any target crashed, leaked, hung (FUZZ_TIMEOUT s per input) or went
#      over FUZZ_RSS_MB of memory. Reproduce with the replayer an ordinary build makes:
#      .build/debug/moviemaker-fuzz TARGET FILE
#
# FUZZ_TARGETS limits the targets (space-separated names); FUZZ_MERGE=1 minimises each working corpus
# into Tests/FuzzCorpus/<target>/ afterwards (to commit).
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-10}
FUZZ_RSS_MB=${FUZZ_RSS_MB:-2048}
work=.build/fuzz-work
mkdir -p "$work"

echo "== building moviemaker-fuzz with libFuzzer and AddressSanitizer (.build/fuzz)"
# MOVIEMAKER_LIBFUZZER: main hands over to libFuzzer's driver (FuzzMain.swift).
# Linked with the toolchain's lld: gold stops with "internal error in format_file_lineno" on the
# instrumented objects (Swift 6.3, binutils 2.40). A toolset file names it (-Xswiftc does not reach the link).
lld="$(dirname "$(readlink -f "$(command -v "${SWIFTC:-swiftc}")")")/ld.lld"
[ -x "$lld" ] || lld="$(command -v ld.lld || true)"
[ -n "$lld" ] || { echo "make fuzz: ld.lld not found beside swiftc or on PATH"; exit 1; }
printf '{ "schemaVersion": "1.0", "linker": { "path": "%s" } }\n' "$lld" > "$work/toolset.json"
"$SWIFT" build -c release --build-path .build/fuzz --product moviemaker-fuzz --toolset "$PWD/$work/toolset.json" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DMOVIEMAKER_LIBFUZZER \
    -Xcc -fsanitize=fuzzer-no-link,address
fuzzer="$("$SWIFT" build -c release --build-path .build/fuzz --toolset "$PWD/$work/toolset.json" --show-bin-path)/moviemaker-fuzz"

echo "== generating seeds (FuzzCorpusTests)"
rm -rf "$work/seeds"
"$SWIFT" build --build-tests
MOVIEMAKER_FUZZ_SEEDS="$PWD/$work/seeds" "$SWIFT" test --skip-build --filter 'FuzzCorpusTests/seedsReplay' >"$work/seeds.log" 2>&1 \
    || { cat "$work/seeds.log"; echo "make fuzz: generating the seeds failed"; exit 1; }

targets=${FUZZ_TARGETS:-$(ls Tests/FuzzCorpus)}
failed=()
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
# Swift's own crash reporter would read memory under ASan after a trap (reported as an "unknown-crash"
# of its memory server); libFuzzer reports the trap itself.
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=0}
for target in $targets; do
    corpus="$work/corpus/$target"
    # (studio-http has no generated seeds: its stored corpus is its seeds.)
    mkdir -p "$corpus" "$work/crashes" "$work/seeds/$target"
    echo "== $target: ${FUZZ_SECONDS} s"
    if ! MOVIEMAKER_FUZZ_TARGET="$target" "$fuzzer" "$corpus" "$work/seeds/$target" "Tests/FuzzCorpus/$target" \
        -max_total_time="$FUZZ_SECONDS" -timeout="$FUZZ_TIMEOUT" -rss_limit_mb="$FUZZ_RSS_MB" -max_len=262144 \
        -print_final_stats=1 -artifact_prefix="$work/crashes/$target-" >"$work/$target.log" 2>&1; then
        tail -40 "$work/$target.log"
        failed+=("$target")
    else
        grep -E "^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb)" "$work/$target.log" | sed "s/^/   $target: /" || true
    fi
    if [ "${FUZZ_MERGE:-0}" = 1 ]; then
        MOVIEMAKER_FUZZ_TARGET="$target" "$fuzzer" -merge=1 -max_len=262144 "Tests/FuzzCorpus/$target" "$corpus" >>"$work/$target.log" 2>&1 || true
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "make fuzz: FAILED for ${failed[*]}; inputs in $work/crashes/ (logs in $work/<target>.log)."
    echo "Reproduce: swift build --product moviemaker-fuzz && .build/debug/moviemaker-fuzz TARGET FILE;"
    echo "once fixed, copy the input into Tests/FuzzCorpus/TARGET/ so make test replays it."
    exit 1
fi
echo "make fuzz: no crash, leak, hang or memory blow-up in ${FUZZ_SECONDS} s for each of: $targets"
