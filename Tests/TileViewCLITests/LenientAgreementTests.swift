import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// `decode --lenient` and `zoom --lenient` agree on damaged files: both render what decoded (the rest of a PNG
/// transparent) with a warning, or both fail; without `--lenient` both fail naming the file.
@Suite("Lenient decoding: decode and zoom agree")
struct LenientAgreementTests {
    /// A PNG whose first IDAT chunk is damaged at its start: no row decodes.
    static func damagedAtIDAT(into dir: URL) throws -> String {
        var bytes = try Fixtures.bytes(Fixtures.sampleImages.appendingPathComponent("chelsea.png"))
        let idat = Array("IDAT".utf8)
        let at = try #require((8..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == idat })
        for k in (at + 6)..<(at + 40) { bytes[k] ^= 0x5A }
        let url = dir.appendingPathComponent("idat-damaged.png")
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test("a PNG damaged at the start of IDAT: both fail strictly, both give a transparent image leniently")
    func damagedIDAT() throws {
        try TemporaryFolder.with("lenient-idat") { dir in
            let file = try Self.damagedAtIDAT(into: dir)
            for lenient in [false, true] {
                let flag = lenient ? ["--lenient"] : []
                let decode = try CommandRunner.run(["decode", file, "-o", "d.png"] + flag, in: dir)
                let zoom = try CommandRunner.run(["zoom", file, "--viewport", "90x60", "-o", "z.png"] + flag, in: dir)
                #expect(decode.status == zoom.status, "decode \(decode) zoom \(zoom)")
                #expect(decode.status == (lenient ? 0 : 1), "\(decode)")
                if lenient {
                    #expect(decode.stderr.contains("warning") && zoom.stderr.contains("warning"))
                    let decoded = try TestPages.pixels(dir.appendingPathComponent("d.png").path)
                    #expect(decoded.size == PixelSize(width: 451, height: 300))
                    #expect(decoded.pixels.allSatisfy { $0 == 0 }, "rows that did not decode are transparent")
                    let frame = try TestPages.pixels(dir.appendingPathComponent("z.png").path)
                    #expect(
                        frame.pixels.enumerated().allSatisfy {
                            $0.offset % 4 == 3 ? $0.element == 255 : $0.element == 0
                        })
                } else {
                    #expect(decode.stderr.contains(file) && zoom.stderr.contains(file))
                }
            }
        }
    }
}
