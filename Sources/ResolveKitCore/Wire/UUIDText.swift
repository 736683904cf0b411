/// Lower-case UUID text, as the reference SDK and the backend use for ids.
package enum UUIDText {
    /// A random (version 4) UUID, e.g. `0f8fad5b-d9cb-469f-a165-70867728950e`. Two draws of the system generator:
    /// each draw is a system call, and a message sends one of these.
    package static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var words = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeMutableBytes(of: &words) { bytes in
            bytes[6] = bytes[6] & 0x0F | 0x40
            bytes[8] = bytes[8] & 0x3F | 0x80
            return String(unsafeUninitializedCapacity: 36) { text in
                var count = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[count] = UInt8(ascii: "-")
                        count += 1
                    }
                    text[count] = hexDigits[Int(byte >> 4)]
                    text[count + 1] = hexDigits[Int(byte & 0x0F)]
                    count += 2
                }
                return count
            }
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
