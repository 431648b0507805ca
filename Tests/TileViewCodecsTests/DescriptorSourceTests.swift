import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// Decoding from an open descriptor (`ImageSource.descriptor`, the C shim's `tv_fopen_descriptor`): the bytes are
/// the path source's, readers of one descriptor never share a file offset, and the file read is the one that
/// was opened, whatever its path names later.
@Suite("Descriptor sources")
struct DescriptorSourceTests {
    static func openDescriptor(_ path: String) throws -> OpenDescriptor {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0, "open \(path)")
        return OpenDescriptor(owning: fd)
    }

    static let stored = DecodeOptions(applyOrientation: false)

    /// Reads two images of `size` row by row, alternating between `first` (7 rows a time) and `second` (13), so
    /// that each reader's stream buffer refills while the other's is half read.
    static func interleaved(
        _ size: PixelSize, _ first: any RowStreamingReader, _ second: any RowStreamingReader
    ) throws -> (ImageBuffer, ImageBuffer) {
        var a = ImageBuffer(width: size.width, height: size.height)
        var b = ImageBuffer(width: size.width, height: size.height)
        var rowA = 0
        var rowB = 0
        while rowA < size.height || rowB < size.height {
            rowA += try first.readRows(7, into: &a, atRow: rowA)
            rowB += try second.readRows(13, into: &b, atRow: rowB)
        }
        return (a, b)
    }

    @Test(
        "two PNG or JPEG row readers of one descriptor, interleaved, give the path source's rows; its offset stays 0",
        arguments: ["coffee.png", "rocket.jpg"])
    func interleavedReaders(name: String) throws {
        let path = Fixtures.sampleImages.appendingPathComponent(name).path
        let descriptor = try Self.openDescriptor(path)
        let expected: ImageBuffer
        let size: PixelSize
        let readers: [any RowStreamingReader]
        if name.hasSuffix(".png") {
            expected = try PNGDecoder.decode(.file(path: path), options: Self.stored).image
            let png = try (0..<2).map { _ in try PNGRowReader(.descriptor(descriptor), options: Self.stored) }
            (size, readers) = (png[0].header.storedSize, png)
        } else {
            expected = try JPEGDecoder.decode(.file(path: path), options: Self.stored).image
            let jpeg = try (0..<2).map { _ in try JPEGScanlineReader(.descriptor(descriptor), options: Self.stored) }
            for reader in jpeg { _ = try reader.start() }
            (size, readers) = (jpeg[0].header.storedSize, jpeg)
        }
        let (a, b) = try Self.interleaved(size, readers[0], readers[1])
        #expect(a == expected, "\(a.differenceSummary(from: expected))")
        #expect(b == expected, "\(b.differenceSummary(from: expected))")
        #expect(lseek(descriptor.rawValue, 0, SEEK_CUR) == 0, "the descriptor's own offset is never moved")
    }

    @Test("header, whole decodes, a level region and the entropy index read the same from a descriptor")
    func sameAsPath() throws {
        for name in ["coffee.png", "rocket.jpg"] {
            let path = Fixtures.sampleImages.appendingPathComponent(name).path
            let descriptor = try Self.openDescriptor(path)
            #expect(try ImageHeader.read(from: .descriptor(descriptor)) == ImageHeader.read(from: .file(path: path)))
            #expect(
                try ImageDecoder.decode(.descriptor(descriptor)).image == ImageDecoder.decode(.file(path: path)).image)
            let header = try ImageHeader.read(from: .file(path: path))
            let rect = PixelRect(x: 30, y: 20, width: 100, height: 60)
            func level(_ source: ImageSource) throws -> ImageBuffer {
                try LevelReader(
                    source, format: header.format, scale: .pyramidLevel(1, format: header.format), rect: rect,
                    options: Self.stored
                ).readAll().0
            }
            #expect(try level(.descriptor(descriptor)) == level(.file(path: path)), "\(name)")
        }
        let jpeg = Fixtures.sampleImages.appendingPathComponent("rocket.jpg").path
        let byPath = try JPEGEntropyIndex(path: jpeg)
        let byDescriptor = try JPEGEntropyIndex(.descriptor(try Self.openDescriptor(jpeg)))
        #expect(try byDescriptor.crop(columns: 2..<9, rows: 1..<5) == byPath.crop(columns: 2..<9, rows: 1..<5))
    }

    @Test("a descriptor reads the file it opened after its path names another; a FIFO or folder is refused")
    func replacedPath() throws {
        try TemporaryFolder.with("descriptor-source") { dir in
            let path = dir.appendingPathComponent("a.png").path
            let original = Fixtures.sampleImages.appendingPathComponent("coffee.png")
            try FileManager.default.copyItem(atPath: original.path, toPath: path)
            let descriptor = try Self.openDescriptor(path)
            let replacement = dir.appendingPathComponent("b.png").path
            try FileManager.default.copyItem(
                atPath: Fixtures.sampleImages.appendingPathComponent("chelsea.png").path, toPath: replacement)
            #expect(rename(replacement, path) == 0)
            let decoded = try ImageDecoder.decode(.descriptor(descriptor)).image
            #expect(decoded == (try ImageDecoder.decode(.file(path: original.path)).image))
            #expect(try ImageHeader.read(from: .file(path: path)).storedSize != decoded.size)

            let fifo = dir.appendingPathComponent("pipe.png").path
            #expect(mkfifo(fifo, 0o644) == 0)
            let pipe = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            try #require(pipe >= 0)
            #expect(throws: CodecError.self) { try ImageHeader.read(from: .descriptor(OpenDescriptor(owning: pipe))) }
            let folder = open(dir.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            try #require(folder >= 0)
            #expect(throws: CodecError.self) { try ImageHeader.read(from: .descriptor(OpenDescriptor(owning: folder))) }
        }
    }
}
