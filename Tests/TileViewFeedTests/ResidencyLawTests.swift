import Testing
import TileViewCore
import TileViewFeed
import TileViewTestSupport

/// What holds decoded pixels: the viewport plus at most one screen ahead, never more than two screens of cells.
@Suite("Resident cells")
struct ResidencyLawTests {
    static let directions: [FeedScrollDirection] = [.down, .up, .stationary]

    @Test("the resident range is the viewport extended by exactly one screen in the scroll direction")
    func residentRangeIsOneScreenAhead() {
        sweepFeeds("resident range: down [y, y+2h), up [y-h, y+h), stationary [y, y+h)", seed: 0xFEED_0301, cases: 2000)
        { feed, layout, rng in
            let h = layout.viewportSize.height
            let y = RandomFeed.offset(in: layout, &rng)
            let direction = rng.pick(Self.directions)
            let offset = layout.clampedContainerOffset(y)
            let range = layout.residentContainerRange(atContainerOffset: y, scrollDirection: direction)
            let viewport = layout.viewportContainerRange(atContainerOffset: y)
            guard viewport == offset..<(offset + h), range.lowerBound <= viewport.lowerBound,
                range.upperBound >= viewport.upperBound, range.count <= 2 * h
            else { return "offset \(y) \(direction): range \(range) viewport \(viewport); \(feed)" }
            let ahead: Bool
            switch direction {
            case .down: ahead = range == offset..<(offset + 2 * h)
            case .up: ahead = range == (offset - h)..<(offset + h)
            case .stationary: ahead = range == viewport
            }
            return ahead ? nil : "offset \(y) \(direction): range \(range) is not one screen ahead; \(feed)"
        }
    }

    @Test("resident cells are exactly those intersecting the resident range, and include every visible cell")
    func residentCellsMatchBruteForce() {
        sweepFeeds("residentCells = brute force over the resident range ⊇ visibleCells", seed: 0xFEED_0302, cases: 1500)
        { feed, layout, rng in
            let all = bruteForceCells(layout)
            for _ in 0..<2 {
                let y = RandomFeed.offset(in: layout, &rng)
                let direction = rng.pick(Self.directions)
                let range = layout.residentContainerRange(atContainerOffset: y, scrollDirection: direction)
                let resident = layout.residentCells(atContainerOffset: y, scrollDirection: direction)
                if resident.map(\.id) != bruteForceCellIDs(in: range, of: all) {
                    return "offset \(y) \(direction): \(resident.count) resident cells, not the brute force's; \(feed)"
                }
                let ids = Set(resident.map(\.id))
                if let missing = layout.visibleCells(atContainerOffset: y).first(where: { !ids.contains($0.id) }) {
                    return "offset \(y) \(direction): visible \(missing) is not resident; \(feed)"
                }
                if resident.count > layout.maxResidentCells {
                    return "offset \(y) \(direction): \(resident.count) > bound \(layout.maxResidentCells); \(feed)"
                }
            }
            return nil
        }
    }

    @Test("resident cells never exceed two screens' worth, and the bound is reached at some offset")
    func boundIsTwoScreensAndTight() {
        // Small feeds, so that every offset and direction can be tried.
        sweep(
            "max over all offsets and directions of resident cells = maxResidentCells", seed: 0xFEED_0303,
            cases: 200
        ) { rng in
            var feed: RandomFeed
            repeat {
                feed = RandomFeed.random(&rng, maximumSections: 4, maximumItems: 60)
                feed.viewportSize = PixelSize(width: rng.int(1...120), height: rng.int(1...150))
            } while feed.layout.maximumContainerOffset > 1000
            let layout = feed.layout
            let bound = layout.maxResidentCells
            var most = 0
            for y in layout.containerOffsetRange {
                for direction in Self.directions {
                    most = max(most, layout.residentCells(atContainerOffset: y, scrollDirection: direction).count)
                }
            }
            return most == bound ? nil : "most resident \(most), bound \(bound); \(feed)"
        }
    }

    @Test("the bound equals the most cells any 2h-tall stretch of the feed touches, by brute force")
    func boundMatchesBruteForceWindows() {
        sweep("maxResidentCells = max over windows of 2h rows", seed: 0xFEED_0304, cases: 300) { rng in
            let feed = RandomFeed.random(&rng, maximumSections: 4, maximumItems: 200)
            let layout = feed.layout
            let all = bruteForceCells(layout)
            let window = 2 * layout.viewportSize.height
            var most = 0
            // A window's cell set only changes when an edge crosses a cell edge: try every start that puts the
            // window's top at a cell's bottom - 1 (the last start touching that cell).
            for start in Set(all.map { $0.containerRect.maxY - 1 }) {
                most = max(most, bruteForceCellIDs(in: start..<(start + window), of: all).count)
            }
            return most == layout.maxResidentCells
                ? nil : "windows hold \(most), bound \(layout.maxResidentCells); \(feed)"
        }
    }

    @Test("resident image sections are the image sections that share a row with the resident range")
    func residentImageSections() {
        sweepFeeds("residentImageSections = images intersecting the resident range", seed: 0xFEED_0305, cases: 2000) {
            feed, layout, rng in
            let y = RandomFeed.offset(in: layout, &rng)
            let direction = rng.pick(Self.directions)
            let range = layout.residentContainerRange(atContainerOffset: y, scrollDirection: direction)
            let expected = feed.sections.indices.filter { index in
                guard case .image = feed.sections[index] else { return false }
                let section = layout.containerRange(ofSection: index)
                return section.overlaps(range)
            }
            let reported = layout.residentImageSections(atContainerOffset: y, scrollDirection: direction)
            return reported == expected ? nil : "offset \(y) \(direction): \(reported), expected \(expected); \(feed)"
        }
    }
}
