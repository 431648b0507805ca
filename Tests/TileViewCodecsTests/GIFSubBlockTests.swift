import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// GIF data comes in sub-blocks of at most 255 bytes, each read on its own: a file is read through a window, so a
/// file of 1-byte sub-blocks costs memory copies, not a read call each (20 MB of them took 17 s to decode).
@Suite("GIF sub-blocks")
struct GIFSubBlockTests {
    /// Three 1x1 frames (palette entries 0, 1, 2), every byte of their LZW data in a sub-block of its own, each
    /// followed by `padding` empty-valued 1-byte sub-blocks: 2 bytes each, across many windows of 64 KiB.
    static func gif(padding: Int) -> [UInt8] {
        var file = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x81, 0, 0] + [255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9]
        for index: UInt8 in 0..<3 {
            file += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2]
            // Codes of 3 bits: clear (4), the index, end (5).
            let codes = UInt16(4) | UInt16(index) << 3 | UInt16(5) << 6
            for byte in [UInt8(codes & 0xFF), UInt8(codes >> 8)] { file += [1, byte] }
            for _ in 0..<padding { file += [1, 0] }
            file.append(0)
        }
        return file + [0x3B]
    }

    @Test("a file of 1-byte sub-blocks across windows counts its frames and decodes its first as in memory")
    func oneByteSubBlocks() throws {
        let bytes = Self.gif(padding: 50_000)
        #expect(bytes.count > 4 * 65_536)
        try TemporaryFolder.with("gif-sub-blocks") { folder in
            let path = folder.appendingPathComponent("sub.gif").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let fromFile = try ImageDecoder.decode(.file(path: path))
            let fromBytes = try ImageDecoder.decode(.bytes(bytes))
            #expect(fromFile.header.frames == 3 && fromBytes.header.frames == 3)
            #expect(fromFile.image == fromBytes.image)
            #expect(fromFile.image == ImageBuffer(width: 1, height: 1, fill: RGBA8(r: 255, g: 0, b: 0)))
        }
    }
}
