import Testing

@testable import ResolveKitTerminalCore
import ResolveKitTerminal

struct KeyDecoderTests {
    @Test(
        "Bytes decode to keys",
        arguments: [
            ([UInt8(ascii: "a")], [Key.character("a")]),
            (FakeTerminal.arrowUp, [.up]),
            (FakeTerminal.arrowDown, [.down]),
            ([0x1B, 0x4F, 0x41], [.up]),
            ([0x1B, 0x5B, 0x31, 0x3B, 0x35, 0x42], [.down]),
            (FakeTerminal.enter, [.enter]),
            ([0x0A], [.enter]),
            (FakeTerminal.controlC, [.controlC]),
            (FakeTerminal.controlD, [.controlD]),
            (FakeTerminal.escape, [.escape]),
            ([0x1B, UInt8(ascii: "a")], [.escape, .character("a")]),
            ([0x1B, 0x5B, 0x43], [.other]),
            ([0xC3, 0xA9], [.other, .other]),
        ])
    func decodes(bytes: [UInt8], keys: [Key]) {
        var decoder = KeyDecoder()
        #expect(decoder.decode(bytes) == keys)
    }

    /// A chunk ending in a lone Escape is the Escape key (people press it alone), so splits come after `ESC [`.
    @Test("An arrow key split after its introducer still decodes to one key", arguments: [1, 3, 4])
    func splitArrows(split: Int) {
        let input: [UInt8] = [UInt8(ascii: "j")] + FakeTerminal.arrowUp + [UInt8(ascii: "k")]
        do {
            var decoder = KeyDecoder()
            let keys = decoder.decode(Array(input[..<split])) + decoder.decode(Array(input[split...]))
            #expect(keys == [.character("j"), .up, .character("k")], "split at \(split)")
        }
    }
}
