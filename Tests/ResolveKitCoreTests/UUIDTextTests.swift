import Testing

@testable import ResolveKitCore

struct UUIDTextTests {
    @Test func anIDIsALowerCaseVersion4UUID() {
        for _ in 0..<1_000 {
            let id = Array(UUIDText.make().utf8)
            #expect(id.count == 36)
            for (index, character) in id.enumerated() {
                if [8, 13, 18, 23].contains(index) {
                    #expect(character == UInt8(ascii: "-"))
                } else {
                    #expect(Array("0123456789abcdef".utf8).contains(character))
                }
            }
            #expect(id[14] == UInt8(ascii: "4"))
            #expect(Array("89ab".utf8).contains(id[19]))
        }
    }

    @Test func idsDoNotRepeat() {
        let ids = (0..<10_000).map { _ in UUIDText.make() }
        #expect(Set(ids).count == ids.count)
    }
}
