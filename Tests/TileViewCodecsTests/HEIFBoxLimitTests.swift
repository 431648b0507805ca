import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// libheif keeps every box it parses: a HEIF file with more boxes at its top level than an image has, or a meta box
/// larger than an image's items need, is refused before libheif reads it (2,000,000 empty boxes took 2.8 s and
/// 268 MB to open).
@Suite("HEIF box limits")
struct HEIFBoxLimitTests {
    static let free: [UInt8] = [0, 0, 0, 8] + Array("free".utf8)

    @Test("64 boxes at the top level are read; one more is refused, from a file and from memory")
    func topLevelBoxes() throws {
        let heic = try Fixtures.bytes(FormatCorpus.root.appendingPathComponent("heif/10bit.heic"))
        let header = try ImageHeader.read(from: .bytes(heic))
        var top = 0
        var at = 0
        while at + 8 <= heic.count {
            top += 1
            at += Int(heic[at]) << 24 | Int(heic[at + 1]) << 16 | Int(heic[at + 2]) << 8 | Int(heic[at + 3])
        }
        let atLimit = heic + Array(repeating: Self.free, count: 64 - top).flatMap { $0 }
        #expect(try ImageHeader.read(from: .bytes(atLimit)).storedSize == header.storedSize)
        try TemporaryFolder.with("heif-boxes") { folder in
            let path = folder.appendingPathComponent("boxes.heic").path
            try Data(atLimit + Self.free).write(to: URL(fileURLWithPath: path))
            for source in [ImageSource.bytes(atLimit + Self.free), .file(path: path)] {
                #expect {
                    _ = try ImageHeader.read(from: source)
                } throws: { error in
                    (error as? CodecError)?.message.contains("more than 64 boxes at its top level") == true
                }
            }
        }
    }

    @Test("a meta box over 2 MiB is refused, naming its size")
    func largeMeta() throws {
        let heic = try Fixtures.bytes(FormatCorpus.root.appendingPathComponent("heif/10bit.heic"))
        let ftyp = Int(heic[0]) << 24 | Int(heic[1]) << 16 | Int(heic[2]) << 8 | Int(heic[3])
        let size = (2 << 20) + 8
        let meta =
            [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + Array("meta".utf8) + [UInt8](repeating: 0, count: size - 8)
        #expect {
            _ = try ImageHeader.read(from: .bytes(Array(heic[..<ftyp]) + meta))
        } throws: { error in
            (error as? CodecError)?.message.contains("its meta box has 2097160 bytes") == true
        }
    }
}
