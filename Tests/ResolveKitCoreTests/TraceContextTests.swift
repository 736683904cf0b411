import ResolveKitCore
import Testing

struct TraceContextTests {
    static let valid = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

    @Test func theSpecificationsExampleIsRead() throws {
        let context = try SpanContext(traceparent: Self.valid)
        #expect(context.traceID == TraceID(high: 0x0af7_6519_16cd_43dd, low: 0x8448_eb21_1c80_319c))
        #expect(context.spanID == SpanID(rawValue: 0xb7ad_6b71_6920_3331))
        #expect(context.flags == .sampled)
        #expect(context.isRemote)
        #expect(context.traceparent == Self.valid)
        #expect(context.tracestate == nil)
    }

    /// Every byte of a valid header replaced by every byte value: the header stays valid exactly when the new byte
    /// is allowed at that position (lower-case hex in the fields, `-` between them), and an invalid one names the
    /// position.
    @Test func everyByteOfATraceparentIsCheckedWithEveryValue() {
        let original = Array(Self.valid.utf8)
        let hex = Set("0123456789abcdef".utf8)
        var checked = 0
        for position in original.indices {
            for value in UInt8.min...UInt8.max {
                var bytes = original
                bytes[position] = value
                let isDelimiter = [2, 35, 52].contains(position)
                let allowed = isDelimiter ? value == UInt8(ascii: "-") : hex.contains(value)
                let text = String(decoding: bytes, as: UTF8.self)
                guard bytes.count == text.utf8.count else { continue }  // not UTF-8: cannot be a String's bytes
                checked += 1
                do {
                    let context = try SpanContext(traceparent: text)
                    #expect(allowed, "byte \(position) = \(value) was accepted")
                    #expect(context.traceparent == "00" + text.dropFirst(2), "written as version 00")
                } catch {
                    #expect(!allowed, "byte \(position) = \(value) was refused: \(error)")
                    let trimmed = value == UInt8(ascii: " ") || value == UInt8(ascii: "\t")
                    if !(trimmed && (position == 0 || position == 54)) {
                        #expect(error.offset == position, "byte \(position) = \(value): \(error)")
                    }
                }
            }
        }
        #expect(checked == 55 * 128)
    }

    @Test(arguments: [
        ("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra", TraceContextError.Code.invalidTraceparent),
        ("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-0", .invalidTraceparent),
        ("ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", .unsupportedVersion),
        ("00-00000000000000000000000000000000-b7ad6b7169203331-01", .invalidTraceparent),
        ("00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01", .invalidTraceparent),
        ("00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01", .invalidTraceparent),
        ("01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01xextra", .invalidTraceparent),
        ("", .invalidTraceparent),
    ])
    func malformedHeadersAreRefused(header: String, code: TraceContextError.Code) {
        let error = #expect(throws: TraceContextError.self) { try SpanContext(traceparent: header) }
        #expect(error?.code == code)
        #expect(error?.message.isEmpty == false)
    }

    @Test func aLaterVersionIsReadByItsFirstFields() throws {
        let context = try SpanContext(
            traceparent: "cc-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-09-what-comes-later")
        #expect(context.spanID == SpanID(rawValue: 0xb7ad_6b71_6920_3331))
        #expect(context.flags.rawValue == 9)
        #expect(context.traceparent == "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-09")
        #expect(try SpanContext(traceparent: "cc" + Self.valid.dropFirst(2)).isSampled)
    }

    @Test func spacesAroundTheHeaderAreIgnored() throws {
        #expect(try SpanContext(traceparent: " \t" + Self.valid + " ").traceparent == Self.valid)
    }

    @Test func aMalformedTracestateIsDroppedButTheTraceparentHolds() throws {
        let context = try SpanContext(traceparent: Self.valid, tracestate: "Bad=1")
        #expect(context.traceState.isEmpty)
        let kept = try SpanContext(traceparent: Self.valid, tracestate: "congo=t61rcWkgMzE, rojo=00f067aa0ba902b7")
        #expect(kept.tracestate == "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7")
    }

    @Test func idsAreReadAndWrittenAsLowerCaseHex() {
        let trace = TraceID(high: 1, low: 0xff)
        #expect(trace.hexString == "000000000000000100000000000000ff")
        #expect(TraceID(hexString: trace.hexString) == trace)
        #expect(TraceID(hexString: "000000000000000100000000000000FF") == nil)
        #expect(TraceID(hexString: String(repeating: "0", count: 32)) == nil)
        #expect(SpanID(hexString: "00f067aa0ba902b7") == SpanID(rawValue: 0x00f0_67aa_0ba9_02b7))
        #expect(SpanID(hexString: "00f067aa0ba902b") == nil)
        #expect(
            SpanContext(traceID: trace, spanID: SpanID(rawValue: 2), flags: []).traceparent
                == "00-000000000000000100000000000000ff-0000000000000002-00")
    }
}

struct TraceStateTests {
    @Test func membersAreReadWithTheirSpacesAndEmptyMembersIgnored() throws {
        let state = try TraceState(parsing: " congo=t61rcWkgMzE ,,\t1tenant@vendor=x y,rojo=00f067aa0ba902b7, ")
        #expect(state.entries.map(\.key) == ["congo", "1tenant@vendor", "rojo"])
        #expect(state.value(forKey: "1tenant@vendor") == "x y")
        #expect(state.headerValue == "congo=t61rcWkgMzE,1tenant@vendor=x y,rojo=00f067aa0ba902b7")
    }

    @Test(arguments: [
        "Congo=1", "congo", "=1", "congo=", "congo=a,congo=b", "congo=a=b", "1congo=a", "t@1sys=a",
        "t@system-too-long=a", "a@b@c=d", "congo=\u{7f}", "con go=a",
    ])
    func malformedMembersAreRefused(header: String) {
        let error = #expect(throws: TraceContextError.self) { try TraceState(parsing: header) }
        #expect(error?.code == .invalidTracestate)
    }

    @Test func moreThanThirtyTwoEntriesAreRefused() throws {
        let members = (0..<33).map { "k\($0)=v" }
        #expect(throws: TraceContextError.self) { try TraceState(parsing: members.joined(separator: ",")) }
        #expect(try TraceState(parsing: members.dropLast().joined(separator: ",")).entries.count == 32)
    }

    @Test func limitsOfKeysAndValuesAreTheSpecifications() throws {
        let longKey = "a" + String(repeating: "b", count: 255)
        #expect(try TraceState(parsing: "\(longKey)=v").entries.count == 1)
        #expect(throws: TraceContextError.self) { try TraceState(parsing: "\(longKey)b=v") }
        let longValue = String(repeating: "v", count: 256)
        #expect(try TraceState(parsing: "k=\(longValue)").entries.count == 1)
        #expect(throws: TraceContextError.self) { try TraceState(parsing: "k=\(longValue)v") }
        #expect(try TraceState(parsing: "\(String(repeating: "t", count: 241))@s2345678901234=v").entries.count == 1)
        #expect(throws: TraceContextError.self) { try TraceState(parsing: "t@s23456789012345=v") }
    }

    /// Every byte of `ab=cd` replaced by every printable byte value: accepted exactly when the key and value rules
    /// allow it there (a `,` or space at either end only makes an empty member or spaces around one).
    @Test func everyByteOfAMemberIsCheckedWithEveryPrintableValue() {
        let letters = Set("abcdefghijklmnopqrstuvwxyz".utf8)
        let keyBytes = letters.union("0123456789_-*/".utf8)
        for position in 0..<5 {
            for value in UInt8(0x20)...UInt8(0x7E) {
                var bytes = Array("ab=cd".utf8)
                bytes[position] = value
                let text = String(decoding: bytes, as: UTF8.self)
                let isEdge = value == UInt8(ascii: ",") || value == UInt8(ascii: " ")
                let valueByte = value != UInt8(ascii: ",") && value != UInt8(ascii: "=")
                let expected: Bool =
                    switch position {
                    case 0: letters.contains(value) || isEdge
                    case 1: keyBytes.contains(value)
                    case 2: value == UInt8(ascii: "=")
                    case 3: valueByte
                    default: valueByte || isEdge
                    }
                #expect(((try? TraceState(parsing: text)) != nil) == expected, "\(text)")
            }
        }
    }

    @Test func settingAValueMovesItToTheFrontAndKeepsThirtyTwo() throws {
        var state = try TraceState(parsing: (0..<32).map { "k\($0)=v" }.joined(separator: ","))
        try state.setValue("new", forKey: "k5")
        #expect(state.entries.first == TraceState.Entry(key: "k5", value: "new"))
        #expect(state.entries.count == 32)
        try state.setValue("x", forKey: "fresh")
        #expect(state.entries.count == 32)
        #expect(state.entries.first?.key == "fresh")
        #expect(state.value(forKey: "k31") == nil)
        #expect(throws: TraceContextError.self) { try state.setValue("x,y", forKey: "k1") }
        #expect(throws: TraceContextError.self) { try state.setValue("ends in a space ", forKey: "k1") }
        state.removeValue(forKey: "fresh")
        #expect(state.value(forKey: "fresh") == nil)
    }
}
