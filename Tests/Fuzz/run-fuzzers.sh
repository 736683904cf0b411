#!/usr/bin/env bash
# Builds the libFuzzer targets under Tests/Fuzz/<Target>/ (main.swift with LLVMFuzzerTestOneInput, and any other
# .swift files of the folder) and runs each for a bounded time.
#
#   Tests/Fuzz/run-fuzzers.sh                 # every target, FUZZ_TIME seconds each (default 60)
#   FUZZ_TIME=600 Tests/Fuzz/run-fuzzers.sh JSONParser
#
# Environment:
#   FUZZ_TIME     seconds per target (libFuzzer -max_total_time), default 60
#   FUZZ_JOBS     parallel fuzzing processes per target (-fork), default 1; the build machines are shared
#   FUZZ_OPT      optimisation flag for swiftc, default -O
#   FUZZ_OUT      build and work directory, default .build-fuzz (git-ignored)
#
# How a target is built: each module it needs is compiled with swiftc into a static library plus a
# .swiftmodule, instrumented with -sanitize=fuzzer,address (coverage + AddressSanitizer), straight from the
# listed folders and files; the harness is then compiled with -parse-as-library (libFuzzer provides main) and
# linked against them. SwiftPM is not involved, so a harness with @_cdecl("LLVMFuzzerTestOneInput") never
# enters the normal `swift build` / `swift test`.
#
# Exit status: 0 when every target ran clean; 1 when a target found a crash or a property violation (the
# crashing input is kept as $FUZZ_OUT/<Target>/crash-* and its path printed); 2 when a build failed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
FUZZ_TIME="${FUZZ_TIME:-60}"
FUZZ_JOBS="${FUZZ_JOBS:-1}"
FUZZ_OPT="${FUZZ_OPT:--O}"
OUT="${FUZZ_OUT:-$ROOT/.build-fuzz}"
case "$OUT" in /*) ;; *) OUT="$ROOT/$OUT" ;; esac

# The target list. Each entry is "<Target>|<Module>=<sources> ...", where <sources> is a folder or a
# comma-separated list of folders and single .swift files (for a part of an executable target, whose other files
# need what a fuzzer cannot give). The modules are compiled in the order given (a later module may import an
# earlier one) and the harness imports what it needs.
TOOLS="ResolveKitCore=Sources/ResolveKitCore ResolveKitTools=Sources/ResolveKitTools"
SERVICE_REQUESTS="Samples/rk-service/ServiceRequest.swift,Samples/rk-service/ApprovalCommand.swift"
SERVICE_REQUESTS+=",Samples/rk-service/ApprovalCommand+Members.swift,Samples/rk-service/LineBuffer.swift"
TARGETS=(
    "SSEParser|ResolveKitHTTP=Sources/ResolveKitHTTP/SSE"
    "JSONParser|ResolveKitCore=Sources/ResolveKitCore"
    "EventEnvelope|ResolveKitCore=Sources/ResolveKitCore"
    "SchemaCoercion|ResolveKitCore=Sources/ResolveKitCore"
    "CodegenScanner|ResolveKitCore=Sources/ResolveKitCore ResolveKitCodegen=Sources/ResolveKitCodegen"
    "RESPParser|ResolveKitRedis=Sources/ResolveKitRedis/RESP"
    "Gzip|ResolveKitCore=Sources/ResolveKitCore"
    "PolicyFile|$TOOLS"
    "MCPMessage|$TOOLS ResolveKitMCP=Sources/ResolveKitMCP"
    "ApprovalCommand|$TOOLS rk_service=$SERVICE_REQUESTS"
)

SWIFT_FLAGS=(
    -swift-version 6 -sanitize=fuzzer,address -g "$FUZZ_OPT" -package-name resolvekit_linux
    -enable-upcoming-feature ExistentialAny
    -enable-upcoming-feature MemberImportVisibility
    -enable-upcoming-feature InternalImportsByDefault
    -warnings-as-errors -use-ld=lld
)

# Compiles one module once per run; later targets reuse it. With -enable-testing, so a harness may reach internal
# types with `@testable import`.
build_module() {
    local name="$1" folder="$2" dir="$OUT/modules/$1" paths=() path
    [[ -z "${BUILT[$name]:-}" ]] || return 0
    mkdir -p "$dir"
    local sources=()
    IFS=',' read -r -a paths <<< "$folder"
    for path in "${paths[@]}"; do
        [[ -e "$ROOT/$path" ]] || { echo "!! $path (module $name) does not exist"; return 1; }
    done
    mapfile -t sources < <(for path in "${paths[@]}"; do find "$ROOT/$path" -name '*.swift'; done | sort)
    echo "== building module $name from $folder (${#sources[@]} files)"
    swiftc "${SWIFT_FLAGS[@]}" -enable-testing -parse-as-library -module-name "$name" -I "$OUT/modules/include" \
        -emit-library -static -o "$dir/lib$name.a" \
        -emit-module -emit-module-path "$OUT/modules/include/$name.swiftmodule" \
        "${sources[@]}" || return 1
    BUILT[$name]=1
}

# Builds the fuzzer binary of one target entry at $OUT/<Target>/fuzz-<Target>.
build_target() {
    local target="${1%%|*}" specs="${1#*|}" libraries=()
    for spec in $specs; do
        build_module "${spec%%=*}" "${spec#*=}" || return 1
        libraries+=("$OUT/modules/${spec%%=*}/lib${spec%%=*}.a")
    done
    mkdir -p "$OUT/$target"
    echo "== building fuzzer $target"
    swiftc "${SWIFT_FLAGS[@]}" -parse-as-library -module-name "Fuzz$target" -I "$OUT/modules/include" \
        "$ROOT/Tests/Fuzz/$target/"*.swift "${libraries[@]}" -o "$OUT/$target/fuzz-$target"
}

# Runs one target on a copy of its seed corpus; returns 1 on a finding.
run_target() {
    local target="$1" binary="$2" work="$OUT/$1"
    mkdir -p "$work/corpus"
    cp -n "$ROOT/Tests/Fuzz/Corpus/$target/"* "$work/corpus/" 2>/dev/null || true
    # Targets whose seeds already live elsewhere in the tree are seeded from there, not from copies.
    [[ -z "${EXTRA_SEEDS[$target]:-}" ]] || cp -n "$ROOT/${EXTRA_SEEDS[$target]}"/*.swift "$work/corpus/" 2>/dev/null || true
    echo "== fuzzing $target for ${FUZZ_TIME}s"
    local status=0 fork=()
    [[ "$FUZZ_JOBS" -le 1 ]] || fork=(-fork="$FUZZ_JOBS")
    (cd "$work" && SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" "$binary" "${fork[@]}" \
        -max_total_time="$FUZZ_TIME" -timeout=10 -rss_limit_mb=3072 -max_len=8192 -print_final_stats=1 \
        -artifact_prefix="$work/" -dict="$ROOT/Tests/Fuzz/fuzz.dict" "$work/corpus" > "$work/log.txt" 2>&1) \
        || status=$?
    local runs
    runs="$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$work/log.txt" | grep -Eo '[0-9]+$' | tail -1)"
    [[ -n "$runs" ]] || runs="$(grep -Eo '#[0-9]+' "$work/log.txt" | tail -1 | tr -d '#')"
    printf '%-16s executions: %s  corpus: %s files  exit: %s\n' "$target" "${runs:-?}" \
        "$(find "$work/corpus" -type f | wc -l)" "$status" | tee -a "$OUT/summary.txt"
    if [[ $status -ne 0 ]] || compgen -G "$work/crash-*" > /dev/null || compgen -G "$work/timeout-*" > /dev/null; then
        echo "!! $target found a problem; log: $work/log.txt"
        ls "$work"/crash-* "$work"/timeout-* "$work"/oom-* 2>/dev/null || true
        grep -m5 -E 'ERROR|Fatal error|property violated' "$work/log.txt" || true
        return 1
    fi
}

declare -A BUILT=()
declare -A EXTRA_SEEDS=([CodegenScanner]="Tests/ResolveKitCodegenFixtures")
selected=("$@")
mkdir -p "$OUT"
: > "$OUT/summary.txt"
failed=0
for entry in "${TARGETS[@]}"; do
    target="${entry%%|*}"
    if [[ ${#selected[@]} -gt 0 && ! " ${selected[*]} " =~ " $target " ]]; then continue; fi
    build_target "$entry" || { echo "!! build of $target failed"; exit 2; }
    run_target "$target" "$OUT/$target/fuzz-$target" || failed=1
done
echo "== summary (FUZZ_TIME=${FUZZ_TIME}s)"
cat "$OUT/summary.txt"
exit $failed
