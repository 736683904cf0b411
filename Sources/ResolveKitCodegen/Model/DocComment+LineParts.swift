extension DocComment {
    /// One documentation line cut into the parts ``documentation`` reads.
    struct LineParts {
        /// Whether the line holds nothing but spaces and tabs.
        var isBlank: Bool
        /// The spaces and tabs before the text.
        var indentation: Int
        /// The line without leading and trailing spaces and tabs, when it is no list item (else empty).
        var text: String
        /// The `- key: value` item the line holds, if it starts with `- `.
        var item: ListItem?
    }

    /// A `- key: value` line.
    struct ListItem {
        /// The text before the first colon, trimmed; the whole item when it has no colon.
        var key: String
        /// The text after the first colon, trimmed; empty when there is none.
        var value: String
        var hasColon: Bool
        /// The canonical name of the constraint tag the key names, case-insensitively (`Minimum`).
        var tagName: String?
        /// Whether the key is `Parameters`, in any case.
        var isParametersKey: Bool
        /// The name after `Parameter ` when the key starts with it, in any case.
        var parameterName: String?
        /// Whether the key holds a space character.
        var keyHasSpace: Bool
    }

    /// The parts of a line's `text`. A line of ASCII text (nearly all of them) is cut by byte offsets, where every
    /// byte is a character of its own, and its parts are made strings straight from its bytes; other text is cut
    /// by character.
    static func parts(of text: Substring) -> LineParts {
        let parts = text.utf8.withContiguousStorageIfAvailable { bytes -> LineParts? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            let offsets = ASCIIOffsets(bytes)
            func string(_ range: Range<Int>) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }
            guard let item = offsets.item else {
                return LineParts(
                    isBlank: offsets.trimmed.isEmpty, indentation: offsets.indentation,
                    text: string(offsets.trimmed), item: nil)
            }
            return LineParts(
                isBlank: false, indentation: offsets.indentation, text: "",
                item: ListItem(
                    key: string(item.key), value: item.value.map(string) ?? "", hasColon: item.value != nil,
                    tagName: item.tagName, isParametersKey: item.isParametersKey,
                    parameterName: item.parameterName.map(string), keyHasSpace: item.keyHasSpace))
        }
        return (parts ?? nil) ?? characterParts(of: text)
    }

    /// The byte offsets of an ASCII line's parts.
    private struct ASCIIOffsets {
        struct Item {
            var key: Range<Int>
            /// `nil` when the item has no colon.
            var value: Range<Int>?
            var tagName: String?
            var isParametersKey: Bool
            var parameterName: Range<Int>?
            var keyHasSpace: Bool
        }

        /// The tags the generator understands, by their lowercased names' bytes.
        private static let tags: [(lowercased: [UInt8], name: String)] = DocumentationTag.known.map {
            (Array($0.key.utf8), $0.value)
        }
        private static let parameters = Array("parameters".utf8)
        private static let parameterPrefix = Array("parameter ".utf8)

        var indentation = 0
        var trimmed: Range<Int>
        var item: Item?

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            while indentation < bytes.count, bytes[indentation] == .space || bytes[indentation] == .tab {
                indentation += 1
            }
            trimmed = Self.trimming(indentation..<bytes.count, in: bytes)
            guard trimmed.count >= 2, bytes[trimmed.lowerBound] == .minus, bytes[trimmed.lowerBound + 1] == .space
            else { return }
            let whole = Self.trimming((trimmed.lowerBound + 2)..<trimmed.upperBound, in: bytes)
            let colon = whole.first { bytes[$0] == UInt8(ascii: ":") }
            let key = colon.map { Self.trimming(whole.lowerBound..<$0, in: bytes) } ?? whole
            let value = colon.map { Self.trimming(($0 + 1)..<whole.upperBound, in: bytes) }
            func keyIs(_ lowercased: [UInt8], prefixOnly: Bool = false) -> Bool {
                guard prefixOnly ? key.count >= lowercased.count : key.count == lowercased.count else { return false }
                return lowercased.indices.allSatisfy {
                    (bytes[key.lowerBound + $0].lowercasedASCII ?? bytes[key.lowerBound + $0]) == lowercased[$0]
                }
            }
            let parameterName =
                keyIs(Self.parameterPrefix, prefixOnly: true)
                ? Self.trimming((key.lowerBound + Self.parameterPrefix.count)..<key.upperBound, in: bytes) : nil
            item = Item(
                key: key, value: value, tagName: Self.tags.first { keyIs($0.lowercased) }?.name,
                isParametersKey: keyIs(Self.parameters), parameterName: parameterName,
                keyHasSpace: key.contains { bytes[$0] == .space })
        }

        /// `range` without leading and trailing spaces and tabs.
        private static func trimming(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
            var (start, end) = (range.lowerBound, range.upperBound)
            while start < end, bytes[start] == .space || bytes[start] == .tab { start += 1 }
            while end > start, bytes[end - 1] == .space || bytes[end - 1] == .tab { end -= 1 }
            return start..<end
        }
    }

    /// The parts of a line with non-ASCII text, cut by character.
    private static func characterParts(of text: Substring) -> LineParts {
        let indentation = text.utf8.prefix { $0 == .space || $0 == .tab }.count
        let trimmed = text.trimmingSpacesAndTabs()
        guard isListItem(trimmed) else {
            return LineParts(isBlank: trimmed.isEmpty, indentation: indentation, text: String(trimmed), item: nil)
        }
        // `- ` is two one-byte characters.
        let item = Substring(trimmed.utf8.dropFirst(2)).trimmingSpacesAndTabs()
        let colon = firstColon(in: item)
        let key = colon.map { item[..<$0].trimmingSpacesAndTabs() } ?? item
        let value = colon.map { item[item.index(after: $0)...].trimmingSpacesAndTabs() } ?? ""
        let loweredKey = key.lowercased()
        return LineParts(
            isBlank: false, indentation: indentation, text: "",
            item: ListItem(
                key: String(key), value: String(value), hasColon: colon != nil,
                tagName: DocumentationTag.known[loweredKey], isParametersKey: loweredKey == "parameters",
                parameterName: loweredKey.hasPrefix("parameter ")
                    ? String(key.dropFirst("parameter ".count).trimmingSpacesAndTabs()) : nil,
                keyHasSpace: key.contains(" ")))
    }

    /// Whether a trimmed line starts with the characters `- `. Read by byte: after `- `, an ASCII byte (or the
    /// end) starts a character of its own, so only text with a non-ASCII byte there needs the character check.
    private static func isListItem(_ trimmed: Substring) -> Bool {
        var bytes = trimmed.utf8.makeIterator()
        guard bytes.next() == .minus, bytes.next() == .space else { return false }
        guard let next = bytes.next(), next >= 0x80 else { return true }
        return trimmed.hasPrefix("- ")
    }

    /// The first `:` character of `item`. In ASCII text every byte is a character of its own (a `\r\n` pair is
    /// one, but holds no colon), so the first `:` byte is it; other text is searched by character.
    private static func firstColon(in item: Substring) -> Substring.Index? {
        let utf8 = item.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return item.firstIndex(of: ":") }
        return utf8.firstIndex(of: UInt8(ascii: ":"))
    }
}
