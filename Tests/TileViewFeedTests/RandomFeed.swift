import Testing
import TileViewCore
import TileViewFeed
import TileViewTestSupport

/// A reproducible random feed: a mix of headers, grids of 0-900 items in 1-8 columns and images of odd sizes,
/// in a random viewport, with offsets that include both ends, section edges and values far past the ends.
struct RandomFeed: CustomStringConvertible {
    var sections: [FeedSection]
    var viewportSize: PixelSize

    var layout: FeedLayout { FeedLayout(sections: sections, viewportSize: viewportSize) }

    static func random(_ rng: inout SplitMix64, maximumSections: Int = 6, maximumItems: Int = 900) -> RandomFeed {
        let width =
            rng.chance(0.1)
            ? rng.int(1...9) : (rng.chance(0.5) ? rng.pick([320, 375, 390, 768, 1024]) : rng.int(10...1200))
        let height = rng.chance(0.1) ? rng.int(1...9) : rng.int(10...1000)
        var sections: [FeedSection] = []
        for _ in 0..<rng.int(0...maximumSections) {
            switch rng.int(0...2) {
            case 0:
                let h = rng.chance(0.1) ? rng.pick([0, 1, height, height + 1]) : rng.int(1...600)
                sections.append(.header(height: h, colour: RGBA8(r: UInt8(rng.int(0...255)), g: 0, b: 0)))
            case 1:
                let items =
                    rng.chance(0.15) ? rng.pick([0, 1, 2, 7, 8, 9]) : rng.int(0...maximumItems)
                sections.append(.grid(itemCount: items, columns: rng.int(1...8)))
            default:
                let w = rng.chance(0.2) ? rng.int(1...40) : rng.int(41...6000)
                let h = rng.chance(0.2) ? rng.int(1...40) : rng.int(41...6000)
                sections.append(.image(pixelSize: PixelSize(width: w, height: h)))
            }
        }
        return RandomFeed(sections: sections, viewportSize: PixelSize(width: width, height: height))
    }

    /// A container offset worth checking: anywhere from well above the top to well past the end, an end, a
    /// section edge give or take a pixel, or an extreme value.
    static func offset(in layout: FeedLayout, _ rng: inout SplitMix64) -> Int {
        let h = layout.viewportSize.height
        switch rng.int(0...9) {
        case 0: return rng.pick([0, layout.maximumContainerOffset, -1, layout.maximumContainerOffset + 1])
        case 1: return rng.pick([Int.min, Int.max, -(1 << 50), 1 << 50])
        case 2, 3:
            guard let top = layout.sectionTops.randomElement(using: &rng) else { return 0 }
            return top + rng.int(-1...1) - rng.pick([0, h, h / 2])
        default: return rng.int(-2 * h...(layout.contentHeight + 2 * h))
        }
    }

    var description: String {
        "viewport \(viewportSize) sections [" + sections.map(\.description).joined(separator: "; ") + "]"
    }
}

/// A section's height from its definition, computed independently of the layout: a header's own height, an
/// image's w * H / W rounded to the nearest pixel (halves up) in floating point, a grid's rows * w / C rounded
/// down (C clamped to w).
func definedHeight(of section: FeedSection, atViewportWidth w: Int) -> Int {
    switch section {
    case .header(let height, _):
        return max(height, 0)
    case .grid(let itemCount, let askedColumns):
        let columns = min(max(askedColumns, 1), w)
        let rows = (max(itemCount, 0) + columns - 1) / columns
        return rows * w / columns
    case .image(let size):
        return Int((Double(w) * Double(size.height) / Double(size.width)).rounded(.toNearestOrAwayFromZero))
    }
}

/// Every grid cell of a layout with its container rect, computed item by item from the definition: column c of C
/// at width w spans [floor(c*w/C), floor((c+1)*w/C)), row r likewise from the grid's top, columns clamped to w.
func bruteForceCells(_ layout: FeedLayout) -> [(id: CellID, containerRect: PixelRect)] {
    var cells: [(id: CellID, containerRect: PixelRect)] = []
    let w = layout.viewportSize.width
    var top = 0
    for (index, section) in layout.sections.enumerated() {
        if case .grid(let itemCount, let askedColumns) = section {
            let columns = min(max(askedColumns, 1), w)
            for item in 0..<max(itemCount, 0) {
                let (row, column) = item.quotientAndRemainder(dividingBy: columns)
                let x0 = column * w / columns
                let x1 = (column + 1) * w / columns
                let y0 = row * w / columns
                let y1 = (row + 1) * w / columns
                cells.append(
                    (CellID(section: index, item: item), PixelRect(x: x0, y: top + y0, width: x1 - x0, height: y1 - y0))
                )
            }
        }
        top += definedHeight(of: section, atViewportWidth: w)
    }
    return cells
}

/// The ids of the cells whose container rects share a row with `range` (every cell lies within the width).
func bruteForceCellIDs(in range: Range<Int>, of cells: [(id: CellID, containerRect: PixelRect)]) -> [CellID] {
    cells.filter { $0.containerRect.y < range.upperBound && $0.containerRect.maxY > range.lowerBound }.map(\.id)
}

/// Sweeps a law over random feeds: each case draws a feed (`RandomFeed.random`) from its generator, then `body`
/// checks it, drawing anything else from the same generator; see `sweep`.
func sweepFeeds(
    _ law: String, seed: UInt64, cases: Int, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (RandomFeed, FeedLayout, inout SplitMix64) -> String?
) {
    sweep(law, seed: seed, cases: cases, sourceLocation: sourceLocation) { rng in
        let feed = RandomFeed.random(&rng)
        return body(feed, feed.layout, &rng)
    }
}

/// Sweeps a law over random feeds at `offsets` random container offsets each (`RandomFeed.offset`); `body`
/// checks one offset and returns nil when the law holds there; see `sweep`.
func sweepFeedOffsets(
    _ law: String, seed: UInt64, cases: Int, offsets: Int, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (RandomFeed, FeedLayout, Int) -> String?
) {
    sweepFeeds(law, seed: seed, cases: cases, sourceLocation: sourceLocation) { feed, layout, rng in
        for _ in 0..<offsets {
            if let failure = body(feed, layout, RandomFeed.offset(in: layout, &rng)) { return failure }
        }
        return nil
    }
}
