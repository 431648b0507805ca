import Foundation
import Testing
import TileView
import TileViewCore
import TileViewTestSupport

/// Natural order of names and the listing of an image folder.
@Suite("Feed folder")
struct ImageFolderTests {
    @Test(
        "natural order: numbers by value, letters without case, digits before other characters",
        arguments: [
            ("img2", "img10"), ("img9.png", "img10.png"), ("a", "b"), ("A", "b"), ("a", "B"), ("x1y2", "x1y10"),
            ("img", "img1"), ("img1", "imga"), ("page-2.jpg", "page-10.jpg"), ("2", "10"),
            ("99999999999999999999999", "100000000000000000000000"), ("a01", "a1"), ("A", "a"),
        ])
    func pairs(pair: (String, String)) {
        #expect(NaturalOrder.areInIncreasingOrder(pair.0, pair.1), "\(pair.0) before \(pair.1)")
        #expect(!NaturalOrder.areInIncreasingOrder(pair.1, pair.0), "\(pair.1) not before \(pair.0)")
    }

    @Test("natural order is a strict total order: irreflexive, antisymmetric, transitive, seeded sweep")
    func totalOrder() {
        expectNaturalOrderIsStrictTotal(seed: 0x5EED_F01D, alphabet: "aAbB0129.-_")
    }

    @Test("a folder lists its image files by extension (any case) in natural order, skipping the rest")
    func listing() throws {
        try TemporaryFolder.with("feed-folder") { dir in
            let names = [
                "img10.png", "img2.JPG", "img1.jpeg", "notes.txt", ".hidden.png", "img3.gif", "img20.PNG", "img4.webp",
                "img6.HEIC", "img7.heif", "img8.avif", "img9.tif", "img11.TIFF", "img12.bmp", "img13.jxl",
                "photo.png.txt",
            ]
            for name in names { try Data([1]).write(to: dir.appendingPathComponent(name)) }
            try FileManager.default.createDirectory(
                at: dir.appendingPathComponent("img5.png"), withIntermediateDirectories: false)
            let folder = try ImageFolder(path: dir.path)
            #expect(
                folder.names == [
                    "img1.jpeg", "img2.JPG", "img3.gif", "img4.webp", "img6.HEIC", "img7.heif", "img8.avif", "img9.tif",
                    "img10.png", "img11.TIFF", "img20.PNG",
                ])
            #expect(folder.count == 11)
            #expect(folder.filePath(ofItem: 8) == dir.path + "/img10.png")
        }
    }

    @Test("a missing folder and a folder without images fail, naming the folder")
    func failures() throws {
        let missing = "/nonexistent-feed-folder"
        #expect(
            throws: TileViewError(
                .read, path: missing, reason: "cannot open folder: No such file or directory")
        ) {
            _ = try ImageFolder(path: missing)
        }
        try TemporaryFolder.with("feed-folder-empty") { dir in
            try Data([1]).write(to: dir.appendingPathComponent("readme.txt"))
            do throws(TileViewError) {
                _ = try ImageFolder(path: dir.path)
                Issue.record("an empty folder must fail")
            } catch {
                #expect(error.path == dir.path)
                #expect(error.kind == .input)
            }
        }
    }
}
