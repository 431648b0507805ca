import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

@Suite("SHA-256 in hardware")
struct SHA256HardwareTests {
    @Test("the FIPS 180-4 examples")
    func vectors() {
        #expect(SHA256.fastHex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.fastHex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.fastHex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("the digest of the portable code for every length around the padding's edges, and a large buffer")
    func agreesWithPortable() {
        var rng = SplitMix64(seed: 0x54A2_56)
        let bytes = (0..<(1 << 20) + 77).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        for length in Array(0...200) + [1000, 4095, 4096, 4097, 65_536 + 55, bytes.count] {
            let part = Array(bytes[0..<length])
            #expect(SHA256.fastHex(part) == SHA256.hex(part), "\(length) bytes")
        }
    }
}
