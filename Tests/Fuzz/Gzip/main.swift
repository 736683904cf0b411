// libFuzzer target: the gzip reader and the DEFLATE writer (Sources/ResolveKitCore/Compression).
//
// Not part of the SwiftPM build: Tests/Fuzz/run-fuzzers.sh compiles Sources/ResolveKitCore with coverage and ASan
// into a static library and links this harness against it. The first input byte picks the reader's output limit and
// how far the writer's input grows; the rest is the data. Properties checked on every input:
// - the data read as gzip, and as a raw DEFLATE stream, never crashes, never gives more bytes than the limit, ends
//   inside the input, and reads the same twice;
// - the data, grown to up to 64 KiB by repeating it with one byte changed per copy (so blocks of 16,384 symbols,
//   block boundaries inside matches and long stored runs are reached), written by `Gzip.compress`, reads back equal,
//   and takes at most six bytes per block of 16,384 more than the data itself, plus the gzip frame: data that does
//   not compress is stored, never grown by the codes.

import ResolveKitCore

/// libFuzzer's entry point: runs one input; a violated property stops the process with `fatalError`.
///
/// - Parameters:
///   - start: The input bytes.
///   - count: How many.
/// - Returns: Always 0 (libFuzzer reserves other values).
@_cdecl("LLVMFuzzerTestOneInput")
public func gzipFuzzTarget(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let control = start[0]
    let data = UnsafeBufferPointer(start: start + 1, count: count - 1)
    // A tiny limit half of the time, so that short streams reach it.
    let limit = control & 1 == 0 ? 1 << 20 : Int(control >> 1)
    readsSafely(Array(data), limit: limit)
    let input = grown(Array(data), copies: Int(control >> 4))
    let compressed = Gzip.compress(input)
    let read = try? Gzip.decompress(compressed, maxOutput: input.count)
    check(read == input, "what Gzip.compress wrote (\(input.count) bytes) does not read back")
    let bound = 18 + input.count + (input.count / 16_384 + 1) * 6
    check(compressed.count <= bound, "\(input.count) bytes took \(compressed.count), more than \(bound)")
    return 0
}

/// Reads `bytes` as a gzip member and as raw DEFLATE, each twice.
private func readsSafely(_ bytes: [UInt8], limit: Int) {
    let first = Result { try Gzip.decompress(bytes, maxOutput: limit) }
    if case .success(let output) = first { check(output.count <= limit, "gzip read past its limit") }
    check(
        description(first) == description(Result { try Gzip.decompress(bytes, maxOutput: limit) }),
        "gzip read the same bytes two ways")
    bytes.withUnsafeBufferPointer { input in
        let raw = Result { try Inflate.decompress(input, from: 0, maxOutput: limit) }
        if case .success(let (output, end)) = raw {
            check(output.count <= limit, "DEFLATE read past its limit")
            check(end <= input.count, "DEFLATE ended past its input")
        }
        let again = Result { try Inflate.decompress(input, from: 0, maxOutput: limit) }
        check(description(raw.map(\.bytes)) == description(again.map(\.bytes)), "DEFLATE read the same bytes two ways")
    }
}

/// `data` and then `copies` copies of it, each with one byte changed, up to 64 KiB.
private func grown(_ data: [UInt8], copies: Int) -> [UInt8] {
    guard !data.isEmpty else { return data }
    var input = data
    for copy in 0..<copies where input.count + data.count <= 65_536 {
        var next = data
        next[(copy * 7919) % next.count] &+= UInt8(truncatingIfNeeded: copy + 1)
        input += next
    }
    return input
}

private func description(_ result: Result<[UInt8], some Error>) -> String {
    switch result {
    case .success(let bytes): "\(bytes.count) bytes, \(bytes.hashValue)"
    case .failure(let error): "\(error)"
    }
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("property violated: \(message())") }
}
