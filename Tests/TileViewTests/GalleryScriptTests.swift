import Testing
import TileView
import TileViewCore
import TileViewGallery
import TileViewPaging
import TileViewTestSupport
import TileViewZoom

@Suite("Gallery scripts and names")
struct GalleryScriptTests {
    @Test(
        "every step form reads back from its description",
        arguments: [
            "next", "PREV", "left", "right", "up", "down", "double-tap 120,80", "two-finger-tap", "pinch 2.5 10,-4",
            "pan -30,12.5", "zoom-to 0,0,400,300", "drag -120,0 velocity 0.5,0", "drag 3,-40",
        ])
    func roundTrip(line: String) throws {
        let action = try GalleryAction(parsing: line)
        #expect(try GalleryAction(parsing: action.description) == action)
    }

    @Test("a drag without a velocity releases at rest; moves ignore letter case")
    func dragDefaults() throws {
        #expect(try GalleryAction(parsing: "drag 3,-40") == .drag(translation: Point(x: 3, y: -40), velocity: .zero))
        #expect(try GalleryAction(parsing: "Next") == .move(.next))
        #expect(try GalleryAction(parsing: "double-tap 1,2") == .gesture(.doubleTap(viewportPoint: Point(x: 1, y: 2))))
    }

    @Test(
        "malformed steps are refused with what was wrong",
        arguments: [
            ("jump", "unknown step"), ("next next", "unknown step"), ("drag 1", "drag"), ("drag 1,2 velocity", "drag"),
            ("drag 1,2 speed 3,4", "drag"), ("drag nan,2", "DX,DY"), ("drag 1,2 velocity 0x1,0", "VX,VY"),
            ("pinch 0 1,1", "greater than 0"), ("double-tap", "takes 1 argument"),
        ])
    func refusals(line: String, expected: String) {
        #expect {
            _ = try GalleryAction(parsing: line)
        } throws: { error in
            "\(error)".contains(expected) && "\(error)".contains(line)
        }
    }

    @Test("scripts skip comments and blank lines and name the line of a bad step")
    func scriptLines() throws {
        let script = try GalleryScript(
            parsing: "# a walk\n\nnext   # first\n  double-tap 10,10\r\ndrag -50,0 velocity -0.3,0\n")
        #expect(
            script.actions == [
                .move(.next), .gesture(.doubleTap(viewportPoint: Point(x: 10, y: 10))),
                .drag(translation: Point(x: -50, y: 0), velocity: Point(x: -0.3, y: 0)),
            ])
        #expect {
            _ = try GalleryScript(parsing: "next\n# ok\nhop\nnext")
        } throws: { error in
            (error as? GalleryScriptError)?.line == 3 && "\(error)".contains("hop")
        }
    }

    @Test("natural order puts img2 before img10 and breaks ties deterministically")
    func naturalOrder() {
        #expect(
            NaturalOrder.sorted([
                "img10.png", "img2.png", "IMG1.png", "img02.png", "img1.png", "a.jpg", "img.png",
            ])
                == ["a.jpg", "img.png", "IMG1.png", "img1.png", "img02.png", "img2.png", "img10.png"])
        #expect(NaturalOrder.sorted(["p-100", "p-99", "p-0100", "p-9"]) == ["p-9", "p-99", "p-0100", "p-100"])
        // Numbers longer than any integer type compare by their digits.
        #expect(NaturalOrder.areInIncreasingOrder("x99999999999999999999999", "x100000000000000000000000"))
    }

    @Test("natural order is a strict total order (seeded sweep over random names)")
    func naturalOrderLaws() {
        expectNaturalOrderIsStrictTotal(seed: 0x6A11_E41, alphabet: "ab0129.-A")
    }

    @Test("sorting a list (each name's scalars taken once) gives the order the pairwise comparison gives")
    func naturalSortMatchesComparison() {
        var rng = SplitMix64(seed: 0x50_47ED)
        let alphabet = Array("aAbB0129.-_é")
        for round in 0..<50 {
            let names = (0..<200).map { _ in
                String((0..<(1 + rng.int(below: 8))).map { _ in alphabet[rng.int(below: alphabet.count)] })
            }
            #expect(
                NaturalOrder.sorted(names) == names.sorted(by: NaturalOrder.areInIncreasingOrder), "round \(round)")
        }
    }

    @Test("--start picks a page as written before an index")
    func startResolution() throws {
        let map = try PageMap(parsing: "1 . 2\n3 4 5\n. 6 7\n. . 8")
        let pages = GalleryPages(map: map, mapPath: "maps/classic.txt")
        #expect(pages.position(forStart: "6") == PageMap.Cell(column: 1, row: 2))
        #expect(pages.path(at: PageMap.Cell(column: 1, row: 2)) == "maps/6")
        #expect(pages.position(forStart: "0") == PageMap.Cell(column: 0, row: 0))
        #expect(pages.position(forStart: "9") == nil)
        let list = GalleryPages(files: ["a.png", "b.png", "c.png"])
        #expect(list.position(forStart: "b.png") == PageMap.Cell(column: 1, row: 0))
        #expect(list.position(forStart: "2") == PageMap.Cell(column: 2, row: 0))
        #expect(list.position(forStart: "3") == nil)
        #expect(list.position(forStart: "-1") == nil)
    }

    @Test("shards K/N count K from 0 and split every frame index exactly once")
    func shards() {
        #expect(GalleryShard(parsing: "0/3") != nil)
        for bad in ["3/3", "-1/3", "1/0", "1", "a/b", " 1/2", "1/2/3", ""] {
            #expect(GalleryShard(parsing: bad) == nil, "\(bad)")
        }
        for n in 1...5 {
            let shards = (0..<n).map { GalleryShard(index: $0, count: n)! }
            for frame in 0..<40 { #expect(shards.filter { $0.contains(frame: frame) }.count == 1) }
        }
    }
}
