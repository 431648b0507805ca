import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// The run-length PNG writer puts its stream in one IDAT chunk up to 2^31 - 1 bytes and splits it past that. The
/// split is built here with a limit of 1,000 bytes (`Tests/Harness/runs_split.c`, compiled with the system's C
/// compiler against `png_runs.c`), as no test can write 2 GiB.
@Suite("Run-length writer: IDAT chunks")
struct RunsIDATSplitTests {
    static let codecs = Fixtures.packageRoot.appendingPathComponent("Sources/CImageCodecs")

    @Test("a stream over the limit is split into IDAT chunks of at most the limit, and decodes to the same pixels")
    func splitStream() throws {
        try TemporaryFolder.with("idat-split") { dir in
            let harness = dir.appendingPathComponent("runs_split").path
            let compiled = try CommandRunner.program(
                "cc",
                [
                    "-O1", "-DTV_PNG_RUNS_IDAT_LIMIT=1000", "-I", Self.codecs.appendingPathComponent("include").path,
                    "-I", Self.codecs.path, "-o", harness,
                    Fixtures.packageRoot.appendingPathComponent("Tests/Harness/runs_split.c").path,
                    Self.codecs.appendingPathComponent("png_runs.c").path, "-lz",
                ])
            try #require(compiled.status == 0, "cc failed:\n\(compiled.output)")

            let image = TestImages.random(width: 97, height: 61, opaque: false, seed: 0x1DA7)
            let raw = dir.appendingPathComponent("in.rgba")
            try Data(image.pixels).write(to: raw)
            let written = dir.appendingPathComponent("split.png")
            let ran = try CommandRunner.program(harness, ["97", "61", raw.path, written.path])
            try #require(ran.status == 0, "the harness failed (\(ran.status)):\n\(ran.output)")

            let split = try [UInt8](Data(contentsOf: written))
            let whole = try PNGEncoder.encode(image, options: PNGEncodeOptions(colorType: .rgba))
            let splitChunks = PNGChunks.split(split)
            let wholeChunks = PNGChunks.split(whole)
            let splitIDAT = splitChunks.filter { $0.type == "IDAT" }
            #expect(wholeChunks.map(\.type) == ["IHDR", "IDAT", "IEND"])
            #expect(splitIDAT.count > 10 && splitIDAT.allSatisfy { $0.data.count <= 1000 })
            #expect(splitChunks.first?.type == "IHDR" && splitChunks.last?.type == "IEND")
            // The same stream, cut into chunks; libpng checks every chunk's CRC while decoding.
            #expect(splitIDAT.flatMap(\.data) == wholeChunks[1].data)
            #expect(PNGChunks.join(splitChunks) == split, "every chunk's length and CRC")
            #expect(try PNGDecoder.decode(.bytes(split)).image == image)
        }
    }
}
