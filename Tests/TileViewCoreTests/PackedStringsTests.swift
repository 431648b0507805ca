import Testing
import TileViewTestSupport

@testable import TileViewCore

@Suite("Packed strings")
struct PackedStringsTests {
    @Test("strings read back as they went in, empty and non-ASCII ones too; each costs its UTF-8 and 4 bytes")
    func roundTrip() {
        var random = SplitMix64(seed: 0x9AC_4ED)
        let alphabet = Array("ab/ é.-😀0")
        let strings = (0..<2000).map { _ in
            String((0..<random.int(below: 30)).map { _ in alphabet[random.int(below: alphabet.count)] })
        }
        let packed = PackedStrings(strings)
        #expect(Array(packed) == strings)
        #expect(packed.count == 2000 && packed[1999] == strings[1999])
        #expect(packed.byteCount == strings.reduce(0) { $0 + $1.utf8.count } + 4 * strings.count)
        #expect(packed.firstIndex(of: strings[700]) == strings.firstIndex(of: strings[700]))
        #expect(PackedStrings().isEmpty && Array(PackedStrings([""])) == [""])
    }
}
