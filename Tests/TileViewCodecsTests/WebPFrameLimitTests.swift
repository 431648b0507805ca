import Testing
import TileViewCodecs
import TileViewCore

/// libwebp's demuxer keeps a record of every frame: an animated WebP of more than 100,000 frames is refused before
/// it is demuxed (1,500,000 one-pixel frames in 66 MB held 150 MB more to open).
@Suite("WebP frame limit")
struct WebPFrameLimitTests {
    /// An animated WebP of `frames` frames on a 1x1 canvas, each the same one-pixel lossless image.
    static func animation(frames: Int) -> [UInt8] {
        func le(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(value >> (8 * $0) & 0xFF) } }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            Array(type.utf8) + le(data.count, 4) + data + (data.count % 2 == 1 ? [0] : [])
        }
        let pixel: [UInt8] = [0x2F, 0, 0, 0, 0, 0x07, 0xD0, 0xFF, 0x0D, 0xE8, 0xFF, 0xF8]
        let frame = chunk("ANMF", [UInt8](repeating: 0, count: 16) + chunk("VP8L", pixel))
        var body = Array("WEBP".utf8) + chunk("VP8X", [0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        body += chunk("ANIM", [UInt8](repeating: 0, count: 6))
        body.reserveCapacity(body.count + frames * frame.count)
        for _ in 0..<frames { body += frame }
        return Array("RIFF".utf8) + le(body.count, 4) + body
    }

    @Test("100,000 frames are counted; one more is refused before the demuxer reads them")
    func frameLimit() throws {
        #expect(try ImageHeader.read(from: .bytes(Self.animation(frames: 100_000))).frames == 100_000)
        #expect {
            _ = try ImageHeader.read(from: .bytes(Self.animation(frames: 100_001)))
        } throws: { error in
            (error as? CodecError)?.message.contains("an animation of more than 100000 frames") == true
        }
    }
}
