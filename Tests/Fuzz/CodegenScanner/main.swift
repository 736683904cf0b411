// libFuzzer target: the rk-codegen pipeline (Sources/ResolveKitCodegen): scanner, declaration model, manifest and
// renderer, fed arbitrary text as a Swift source file.
//
// Not part of the SwiftPM build: Tests/Fuzz/run-fuzzers.sh compiles Sources/ResolveKitCore and
// Sources/ResolveKitCodegen with coverage and ASan and links this harness against them. Properties checked on every
// input:
// - the pipeline never crashes, whatever the text (unterminated strings and comments, unbalanced brackets …);
// - it is deterministic: the same input gives the same output and diagnostics twice;
// - every diagnostic points inside the input (line ≥ 1, column ≥ 1, line ≤ the number of lines + 1).

import ResolveKitCodegen

/// libFuzzer's entry point: runs one input; a violated property stops the process with `fatalError`.
///
/// - Parameters:
///   - start: The input bytes.
///   - count: How many.
/// - Returns: Always 0 (libFuzzer reserves other values).
@_cdecl("LLVMFuzzerTestOneInput")
public func codegenScannerFuzzTarget(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let input = CodegenPipeline.Input(path: "Fuzz.swift", contents: text)
    let first = CodegenPipeline.run([input])
    let second = CodegenPipeline.run([input])
    if first != second { fatalError("the pipeline is not deterministic") }
    // Lines as the scanner counts them: LF bytes. (Splitting the String on "\n" would miss CRLF, which Swift treats
    // as one Character.)
    let lineCount = text.utf8.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    for diagnostic in first.diagnostics {
        let location = diagnostic.location
        if location.line < 1 || location.line > lineCount + 1 || location.column < 1 {
            fatalError("diagnostic outside the input: \(diagnostic)")
        }
    }
    return 0
}
