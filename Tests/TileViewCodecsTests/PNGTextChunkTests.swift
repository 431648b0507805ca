import Testing
import TileViewCodecs
import TileViewCore

/// A PNG's text chunks and suggested palettes are never used, so they are skipped unread: a zTXt chunk may inflate
/// to 8 MB, and a file of many (100 chunks of 7.7 KB: 771 KB) took 3.5 s to read the header of.
@Suite("PNG text chunks")
struct PNGTextChunkTests {
    @Test("text chunks are not inflated: a damaged zTXt or iTXt says nothing, a damaged iCCP still warns")
    func textIsSkipped() throws {
        let chunks = PNGChunks.split(try PNGEncoder.encode(ImageBuffer(width: 4, height: 3, fill: .black)))
        let garbage: [UInt8] = [0x78, 0x9C, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x13]
        func with(_ type: String, _ data: [UInt8]) -> [UInt8] {
            PNGChunks.join([chunks[0], PNGChunks.Chunk(type: type, data: data)] + chunks.dropFirst())
        }
        for (type, data) in [
            ("zTXt", Array("Comment\0\0".utf8) + garbage), ("iTXt", Array("Comment\0\u{1}\0\0\0".utf8) + garbage),
        ] {
            let decoded = try ImageDecoder.decode(.bytes(with(type, data)))
            #expect(decoded.warnings.isEmpty, "\(type): \(decoded.warnings)")
        }
        let profile = try ImageDecoder.decode(.bytes(with("iCCP", Array("ICC\0\0".utf8) + garbage)))
        #expect(profile.header.color.problem != nil || !profile.warnings.isEmpty, "the profile is read, and fails")
    }
}
