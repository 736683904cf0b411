import Dispatch

/// Builds Swift source line by line into bytes, tracking indentation so that renderers never count spaces.
struct SwiftWriter: Sendable {
    private var output: [UInt8] = []
    private var level = 0
    /// Spaces per indentation level.
    let indentation = 4
    /// The longest line the renderers aim for.
    let lineLength = 120

    /// Creates an empty writer with room for `capacity` bytes.
    init(capacity: Int = 4096) {
        output.reserveCapacity(capacity)
    }

    /// Whether a line of `length` bytes fits at the current indentation.
    func fits(length: Int) -> Bool { level * indentation + length <= lineLength }

    /// Appends one line at the current indentation; an empty line stays empty.
    mutating func line(_ text: String) {
        if !text.isEmpty {
            startLine()
            write(text)
        }
        endLine()
    }

    /// Appends one line of two or three parts at the current indentation, without joining them first.
    mutating func line(_ first: String, _ second: String, _ third: String = "") {
        startLine()
        write(first)
        write(second)
        write(third)
        endLine()
    }

    /// Starts a line written in parts (``write(_:)``, then ``endLine()``), without joining them first.
    mutating func startLine() {
        let width = level * indentation
        if width <= Self.spaces.utf8CodeUnitCount {
            Self.spaces.withUTF8Buffer { output.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<width])) }
        } else {
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: width))
        }
    }

    /// Appends part of the current line. Copied from the text's UTF-8 buffer: appending its `utf8` view goes through
    /// the sequence copying path, which costs about half again as much, and a file is a million writes.
    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { output.append(contentsOf: $0) }
    }

    /// Appends bytes of the current line.
    mutating func write(bytes: UnsafeBufferPointer<UInt8>) {
        output.append(contentsOf: bytes)
    }

    /// Appends one byte of the current line.
    mutating func write(byte: UInt8) {
        output.append(byte)
    }

    /// Ends the current line.
    mutating func endLine() {
        output.append(UInt8(ascii: "\n"))
    }

    /// Enough spaces for any common indentation, appended as one slice rather than level by level; a static
    /// string, so reading it costs no reference counting (it starts every line).
    private static let spaces: StaticString = "                                                                "

    /// What `writers` wrote, one after the other, as one buffer. The generated file can be megabytes: each writer
    /// is copied to its place on its own core, so the copying and the first touch of the new pages are shared.
    static func join(_ writers: [SwiftWriter]) -> [UInt8] {
        let offsets = writers.reduce(into: [0]) { offsets, writer in offsets.append(offsets.last! + writer.output.count)
        }
        let total = offsets.last!
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, initializedCount in
            // Each writer fills its own range of the buffer, and the buffer is read only after concurrentPerform
            // returns.
            nonisolated(unsafe) let base = buffer.baseAddress
            DispatchQueue.concurrentPerform(iterations: writers.count) { index in
                writers[index].output.withUnsafeBufferPointer { bytes in
                    guard let source = bytes.baseAddress, let base else { return }
                    (base + offsets[index]).initialize(from: source, count: bytes.count)
                }
            }
            initializedCount = total
        }
    }

    /// Writes `header`, then `body` one level deeper, then `footer`.
    mutating func block(_ header: String, footer: String = "}", _ body: (inout SwiftWriter) -> Void) {
        line(header)
        indented(footer: footer, body)
    }

    /// Writes `body` one level deeper, then `footer`: the rest of a block whose header line was written in parts.
    mutating func indented(footer: String = "}", _ body: (inout SwiftWriter) -> Void) {
        level += 1
        body(&self)
        level -= 1
        line(footer)
    }
}
