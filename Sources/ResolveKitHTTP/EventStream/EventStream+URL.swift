extension EventStream {
    /// `url` with `cursor=<cursor>` appended as a query parameter, percent-encoded; `url` itself without a cursor.
    package static func url(_ url: String, cursor: String?) -> String {
        guard let cursor else { return url }
        let separator: String
        if let mark = url.firstIndex(of: "?") {
            separator = url.index(after: mark) == url.endIndex || url.hasSuffix("&") ? "" : "&"
        } else {
            separator = "?"
        }
        return url + separator + "cursor=" + percentEncoded(cursor)
    }

    /// RFC 3986 percent-encoding of everything but the unreserved characters.
    static func percentEncoded(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                result.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0x0F)]))
            }
        }
        return result
    }
}
