import ResolveKitCore
import Testing

struct JSONValueTests {
    @Test func trueAndOneStayDistinct() throws {
        let value = try JSONValue(parsing: "[true, 1]")
        #expect(value == .array([.bool(true), .number(1)]))
        #expect(value[0]?.boolValue == true)
        #expect(value[1]?.boolValue == nil)
    }
}
