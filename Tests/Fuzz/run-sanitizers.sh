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
# ThreadSanitizer and Synchronization.Mutex: on Linux the standard library's Mutex locks with raw futex system
# calls, which TSan does not intercept, so it sees no happens-before edge between two critical sections of the
# same Mutex and reports a "Swift access race" between two `withLock` closures. A 15-line program with one
# Mutex<Int> incremented from two pthreads reproduces it (and prints the right total). The script therefore
# classifies each TSan report: when every racing access sits in a closure called (within four frames) from a
# source line holding `withLock`, it is that known false positive and is counted, not failed; any other report fails the run.
#
# Exit status: 0 when every selected run passed; otherwise the status of the first failing step. Logs are kept
# in .build-asan/sanitizer-test.log and .build-tsan/sanitizer-test.log.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
selected=("${@:-address thread}")
export SWIFT_BACKTRACE=enable=no  # let the sanitizer print the report instead of the Swift backtracer

# Prints "<reports> <reports whose every racing access has a withLock call in frames #1-#4>" for a TSan log.
classify_tsan_reports() {
    awk '
        function flush() { if (inReport) { reports++; if (accesses > 0 && accesses == locked) mutex++ } }
        /^WARNING: ThreadSanitizer/ { flush(); inReport = 1; accesses = 0; locked = 0; next }
        /^SUMMARY: ThreadSanitizer/ { flush(); inReport = 0; next }
        inReport && !/Location is/ && /(access of Swift variable|of size [0-9]+ at) / { accesses++; want = 1; next }
        inReport && want && /^ +#[1-4] / {
            if (match($0, /[^ ]+\.swift:[0-9]+/)) {
                spot = substr($0, RSTART, RLENGTH); file = spot; sub(/:[0-9]+$/, "", file)
                line = spot; sub(/^.*:/, "", line)
                text = ""; n = 0
                while ((getline source < file) > 0) { if (++n == line) { text = source; break } }
                close(file)
                if (text ~ /withLock/) { locked++; want = 0 }
            }
            if ($0 ~ /^ +#4 /) want = 0
        }
        END { flush(); print reports + 0, mutex + 0 }
    ' "$1"
}

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
    # exitcode=0: TSan would exit 66 for the false positives; its reports are judged below instead.
    # The LSan suppressions cover Foundation's Process, which leaks by itself (see the file).
    TSAN_OPTIONS="exitcode=0:${TSAN_OPTIONS:-}" \
        LSAN_OPTIONS="suppressions=$ROOT/Tests/Fuzz/lsan-suppressions.txt:print_suppressions=1:${LSAN_OPTIONS:-}" \
        swift test --skip-build --disable-xctest --sanitize="$sanitizer" --scratch-path "$scratch" \
            > "$scratch/sanitizer-test.log" 2>&1 || status=$?
    grep -E '^(✔|✘) Test run with' "$scratch/sanitizer-test.log" || tail -n 3 "$scratch/sanitizer-test.log"
    local log="$scratch/sanitizer-test.log" reports=0 mutexOnly=0
    if [[ "$sanitizer" == thread ]]; then
        read -r reports mutexOnly < <(classify_tsan_reports "$log")
        echo "== TSan reports: $reports, of which $mutexOnly are the Mutex-under-futex false positive"
        log="$scratch/sanitizer-other.log"
        [[ $reports -eq $mutexOnly ]] && : > "$log" || cp "$scratch/sanitizer-test.log" "$log"
    fi
    if grep -q -E 'ERROR: (Address|Leak|Thread)Sanitizer|WARNING: ThreadSanitizer' "$log"; then
        echo "!! $sanitizer sanitizer report in $scratch/sanitizer-test.log:"
        grep -m 10 -E 'ERROR: |WARNING: ThreadSanitizer|SUMMARY: ' "$log"
        [[ $status -ne 0 ]] || status=1
    fi
    echo "== $sanitizer: $([[ $status -eq 0 ]] && echo passed || echo "FAILED ($status)")"
    return "$status"
}

for sanitizer in ${selected[*]}; do
    run "$sanitizer"
done
