import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// Inputs the fuzzer found (Fuzz/reproducers/): each once broke a law, and must keep to it.
@Suite("Fuzz reproducers")
struct FuzzReproducerTests {
    static let folder = Fixtures.packageRoot.appendingPathComponent("Fuzz/reproducers")

    @Test("an empty APP0 before the Exif segment does not hide the orientation (libjpeg reads past it)")
    func emptyAPP0BeforeExif() throws {
        let bytes = try Fixtures.bytes(Self.folder.appendingPathComponent("exif-after-zero-length-app0.jpg"))
        let parsed = ExifOrientationParser.orientation(inJPEG: bytes)
        #expect(parsed?.exifValue == 6, "libjpeg and djpeg read orientation 6 from this file")
        let header = try ImageHeader.read(from: .bytes(bytes))
        #expect(header.orientation == parsed)
    }

    @Test("a 53-byte PNG declaring a 2 GB chunk is refused as truncated, without allocating it")
    func hugeDeclaredChunk() throws {
        let bytes = try Fixtures.bytes(Self.folder.appendingPathComponent("png-itxt-declares-2gb.png"))
        #expect(bytes.count < 100)
        do {
            _ = try ImageDecoder.decode(.bytes(bytes))
            Issue.record("the decode should fail")
        } catch {
            #expect(error.kind == .truncated)
            #expect(error.message.contains("declares"), "\(error.message)")
        }
    }
}
