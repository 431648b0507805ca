import Testing
import TileViewCore
import TileViewPaging
import TileViewTestSupport

@Suite("Page math and accessibility")
struct PageMathTests {
    typealias Cell = PageMap.Cell

    @Test("the page for an offset is floor((2x + pw) / (2pw)): halfway rounds to the next page")
    func pageIndexExamples() {
        let pw = 400.0
        #expect(PageMath.pageIndex(forOffset: 0, pageWidth: pw) == 0)
        #expect(PageMath.pageIndex(forOffset: 199.999, pageWidth: pw) == 0)
        #expect(PageMath.pageIndex(forOffset: 200, pageWidth: pw) == 1)
        #expect(PageMath.pageIndex(forOffset: 800, pageWidth: pw) == 2)
        #expect(PageMath.pageIndex(forOffset: 999.9, pageWidth: pw) == 2)
        #expect(PageMath.pageIndex(forOffset: -200, pageWidth: pw) == 0)
        #expect(PageMath.pageIndex(forOffset: -200.001, pageWidth: pw) == -1)
        #expect(PageMath.pageIndex(forOffset: 100, pageWidth: 0) == 0)
        #expect(PageMath.pageIndex(forOffset: .nan, pageWidth: pw) == 0)
        #expect(PageMath.pageIndex(forOffset: .infinity, pageWidth: pw) == 0)
        #expect(PageMath.pageIndex(forOffset: 1e300, pageWidth: pw) == PageMath.slotLimit)
    }

    @Test("the page for an offset is the page whose centre is nearest the offset's centre")
    func pageIndexIsNearest() throws {
        try forEachCase(seed: 0x5EED_0101, cases: 5000) { seed, rng in
            let pw = Double.random(in: 1...2000, using: &rng)
            let x = Double.random(in: -50...50, using: &rng) * pw
            let page = PageMath.pageIndex(forOffset: x, pageWidth: pw)
            let distance = x - Double(page) * pw
            try #require(
                distance >= -pw / 2 - 1e-9 * pw && distance < pw / 2 + 1e-9 * pw, "seed \(seed): x \(x) pw \(pw)")
        }
    }

    @Test("classic map: an offset is accessible only when the cells around it, rounded down and up, hold pages")
    func classicAccessibility() throws {
        let layout = PageLayout.map(try ClassicMap.map())
        let size = Size(width: 300, height: 200)
        func accessible(_ gx: Double, _ gy: Double) -> Bool {
            layout.isAccessible(contentOffset: Point(x: gx * 300, y: gy * 200), pageSize: size)
        }
        #expect(accessible(0, 0))  // 1
        #expect(!accessible(1, 0))  // the hole between 1 and 2
        #expect(!accessible(0.5, 0))  // between 1 and the hole
        #expect(accessible(0, 0.5))  // between 1 and 3
        #expect(accessible(0.25, 1))  // between 3 and 4
        #expect(accessible(1.5, 1.5))  // 4, 5, 6 and 7 around it
        #expect(!accessible(0.5, 1.5))  // 3, 4, a hole and 6
        #expect(accessible(2, 2.75))  // between 7 and 8
        #expect(!accessible(2.5, 2))  // off the grid on the right
        #expect(!accessible(1, -0.1))  // above the top row
        #expect(!accessible(2, 3.01))  // below 8
        #expect(!layout.isAccessible(contentOffset: Point(x: .nan, y: 0), pageSize: size))
    }

    @Test("lists: linear offsets stay within the ends, circular offsets wrap everywhere on the row")
    func listAccessibility() {
        let size = Size(width: 390, height: 844)
        func point(_ gx: Double, _ gy: Double = 0) -> Point { Point(x: gx * 390, y: gy * 844) }
        #expect(PageLayout.linear(3).isAccessible(contentOffset: point(2), pageSize: size))
        #expect(PageLayout.linear(3).isAccessible(contentOffset: point(1.7), pageSize: size))
        #expect(!PageLayout.linear(3).isAccessible(contentOffset: point(2.01), pageSize: size))
        #expect(!PageLayout.linear(3).isAccessible(contentOffset: point(-0.01), pageSize: size))
        #expect(!PageLayout.linear(3).isAccessible(contentOffset: point(1, 0.1), pageSize: size))
        #expect(PageLayout.circular(3).isAccessible(contentOffset: point(-7.3), pageSize: size))
        #expect(PageLayout.circular(2).isAccessible(contentOffset: point(2.5), pageSize: size))
        #expect(!PageLayout.circular(1).isAccessible(contentOffset: point(0.5), pageSize: size))
        #expect(!PageLayout.circular(3).isAccessible(contentOffset: point(0, -0.5), pageSize: size))
    }

    @Test("an offset resting on a page reads as that page even when pw does not divide it exactly")
    func restingOffsets() throws {
        try forEachCase(seed: 0x5EED_0102, cases: 3000) { seed, rng in
            let layout = RandomLayouts.layout(&rng)
            let size = RandomLayouts.pageSize(&rng)
            for cell in layout.positions {
                let offset = layout.contentOffset(ofSlot: cell, pageSize: size)
                try #require(layout.isAccessible(contentOffset: offset, pageSize: size), "seed \(seed): \(cell)")
                let slot = Cell(
                    column: PageMath.pageIndex(forOffset: offset.x, pageWidth: size.width),
                    row: PageMath.pageIndex(forOffset: offset.y, pageWidth: size.height))
                try #require(slot == cell, "seed \(seed): \(cell) read back as \(slot)")
            }
        }
    }
}
