#!/usr/bin/env bash
# Runs the whole unit-test suite once under AddressSanitizer and once under ThreadSanitizer.
#
#   Tests/Fuzz/run-sanitizers.sh              # both, ASan first, one after the other
#   Tests/Fuzz/run-sanitizers.sh thread       # just one: address | thread
#
# Each sanitizer builds into its own scratch path (.build-asan, .build-tsan; git-ignored), so the normal .build
# is untouched. The builds are heavy: the script runs them sequentially, never in parallel.
#
# `--disable-xctest`: the package has no XCTest tests, but `swift test` still starts an empty XCTest pass, and
# under ASan LeakSanitizer reports ~370 bytes that libXCTest.so itself leaks at exit (XCTest.XCTestSuiteRun,
# XCTMainMisc allocations; nothing of ours on the stack) and fails the run. The Swift Testing pass, which holds
# every test, is checked for leaks as usual.
#
# Exit status: 0 when every selected run passed; otherwise the status of the first failing step. Logs are kept
# in .build-asan/sanitizer-test.log and .build-tsan/sanitizer-test.log.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
selected=("${@:-address thread}")
export SWIFT_BACKTRACE=enable=no  # let the sanitizer print the report instead of the Swift backtracer

run() {
    local sanitizer="$1" scratch
    case "$sanitizer" in
        address) scratch=.build-asan ;;
        thread) scratch=.build-tsan ;;
        *) echo "unknown sanitizer '$sanitizer' (address | thread)" >&2; return 64 ;;
    esac
    echo "== swift build --build-tests --sanitize=$sanitizer --scratch-path $scratch"
    swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch"
    echo "== swift test --skip-build --disable-xctest --sanitize=$sanitizer --scratch-path $scratch"
    local status=0
    swift test --skip-build --disable-xctest --sanitize="$sanitizer" --scratch-path "$scratch" \
        > "$scratch/sanitizer-test.log" 2>&1 || status=$?
    tail -n 3 "$scratch/sanitizer-test.log"
    if grep -q -E 'Sanitizer|WARNING: ThreadSanitizer' "$scratch/sanitizer-test.log"; then
        echo "!! $sanitizer sanitizer report in $scratch/sanitizer-test.log:"
        grep -m 10 -E 'ERROR: |WARNING: ThreadSanitizer|SUMMARY: ' "$scratch/sanitizer-test.log"
        [[ $status -ne 0 ]] || status=1
    fi
    echo "== $sanitizer: $([[ $status -eq 0 ]] && echo passed || echo "FAILED ($status)")"
    return "$status"
}

for sanitizer in ${selected[*]}; do
    run "$sanitizer"
done
