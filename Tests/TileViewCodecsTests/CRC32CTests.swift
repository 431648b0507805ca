import Testing
import TileViewCodecs
import TileViewTestSupport

@Suite("CRC-32C")
struct CRC32CTests {
    static func crc(_ bytes: [UInt8], portable: Bool = false) -> UInt32 {
        bytes.withUnsafeBufferPointer { portable ? CRC32C.portableChecksum($0) : CRC32C.checksum($0) }
    }

    @Test("the check value and RFC 3720's examples, in hardware and by table")
    func vectors() {
        for portable in [false, true] {
            #expect(Self.crc(Array("123456789".utf8), portable: portable) == 0xE306_9283)
            #expect(Self.crc([], portable: portable) == 0)
            #expect(Self.crc([UInt8](repeating: 0, count: 32), portable: portable) == 0x8A91_36AA)
            #expect(Self.crc([UInt8](repeating: 0xFF, count: 32), portable: portable) == 0x62A8_AB43)
            #expect(Self.crc((0..<32).map { UInt8($0) }, portable: portable) == 0x46DD_794E)
        }
        #expect(Array("123456789".utf8).withUnsafeBufferPointer { CRC32C.hex($0) } == "e3069283")
        #expect([UInt8]().withUnsafeBufferPointer { CRC32C.hex($0) } == "00000000")
    }

    @Test("the hardware's value is the table's for every length and alignment, and a flipped bit changes it")
    func agreesWithPortable() {
        var rng = SplitMix64(seed: 0xC_3232)
        let bytes = (0..<(1 << 20) + 77).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        for start in 0..<8 {
            for length in Array(0...40) + [1000, 4095, 65_536 + 5, bytes.count - 8] {
                let part = Array(bytes[start..<(start + length)])
                #expect(Self.crc(part) == Self.crc(part, portable: true), "\(length) bytes from \(start)")
            }
        }
        var flipped = Array(bytes[0..<4096])
        let before = Self.crc(flipped)
        for bit in stride(from: 0, to: 4096 * 8, by: 997) {
            flipped[bit / 8] ^= UInt8(1 << (bit % 8))
            #expect(Self.crc(flipped) != before, "bit \(bit)")
            flipped[bit / 8] ^= UInt8(1 << (bit % 8))
        }
    }
}
