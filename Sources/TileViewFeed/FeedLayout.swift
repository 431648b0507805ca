import TileViewCore

/// The layout of a vertical feed: sections stacked top to bottom in one scrolling container (docs/design.md section 5).
///
/// The model, in container space (pixels, y down from the top of the first section; x as in the viewport):
/// - every section is as wide as the viewport; section `i` spans `[sectionTops[i], sectionTops[i] +
///   sectionHeights[i])`, the sections follow each other with no gap, and `contentHeight` is the sum of heights;
/// - the container offset `y` is how far the container is scrolled: the viewport shows container rows
///   `[y, y + h)`. The valid offsets are `[0, max(0, contentHeight - h)]`; every query clamps `y` to them first,
///   as a scroll view at rest would (`clampedContainerOffset(_:)`), so any `Int` may be asked for;
/// - for an offset, each section has a frame in viewport space (its visible part) and a content offset (how far
///   it is scrolled inside that frame), see `frames(atContainerOffset:)`; grid cells are found row by row, see
///   `visibleCells(atContainerOffset:)` and `residentCells(atContainerOffset:scrollDirection:)`.
///
/// Clamping at the door (engines clamp, they do not throw): viewport sides to `[1, largestViewportLength]`,
/// image sides to `[1, largestImageDimension]`, grid item counts to `[0, largestItemCount]`, grid columns to
/// `[1, w]`, section heights to `[0, largestSectionHeight]`. Sums stay far from `Int.max`.
///
/// Queries cost O(sections + cells returned), not O(items), so a feed of any length answers quickly.
public struct FeedLayout: Hashable, Sendable {
    /// The sections, top to bottom, as given.
    public let sections: [FeedSection]
    /// The viewport, after clamping each side to `[1, largestViewportLength]`.
    public let viewportSize: PixelSize
    /// Container y of each section's top edge.
    public let sectionTops: [Int]
    /// Each section's height in container pixels (`FeedSection.height(atViewportWidth:)`).
    public let sectionHeights: [Int]
    /// The cell geometry of each grid section, nil for the others.
    public let gridGeometries: [FeedGridGeometry?]
    /// The sum of the section heights.
    public let contentHeight: Int

    /// The largest viewport side: 2^20 pixels.
    public static let largestViewportLength = 1 << 20
    /// The largest image side taken into account: 2^32 pixels.
    public static let largestImageDimension = 1 << 32
    /// The most items a grid holds: 2^24.
    public static let largestItemCount = 1 << 24
    /// The tallest section: 2^40 pixels.
    public static let largestSectionHeight = 1 << 40

    /// Lays out `sections` for a viewport of `viewportSize`.
    public init(sections: [FeedSection], viewportSize: PixelSize) {
        let size = PixelSize(
            width: Self.guardedViewportLength(viewportSize.width),
            height: Self.guardedViewportLength(viewportSize.height))
        self.sections = sections
        self.viewportSize = size
        var tops: [Int] = []
        var heights: [Int] = []
        var grids: [FeedGridGeometry?] = []
        tops.reserveCapacity(sections.count)
        heights.reserveCapacity(sections.count)
        grids.reserveCapacity(sections.count)
        var y = 0
        for section in sections {
            let height = section.height(atViewportWidth: size.width)
            tops.append(y)
            heights.append(height)
            grids.append(section.gridGeometry(atViewportWidth: size.width))
            y += height
        }
        sectionTops = tops
        sectionHeights = heights
        gridGeometries = grids
        contentHeight = y
    }

    /// The viewport side clamped to `[1, largestViewportLength]`.
    static func guardedViewportLength(_ length: Int) -> Int {
        min(max(length, 1), largestViewportLength)
    }

    /// An image side clamped to `[1, largestImageDimension]`.
    static func guardedImageDimension(_ length: Int) -> Int {
        min(max(length, 1), largestImageDimension)
    }

    /// The container range `[top, top + height)` of section `index`.
    public func containerRange(ofSection index: Int) -> Range<Int> {
        sectionTops[index]..<(sectionTops[index] + sectionHeights[index])
    }
}

extension FeedLayout: CustomStringConvertible {
    public var description: String {
        "FeedLayout(viewport \(viewportSize), content height \(contentHeight), sections ["
            + sections.map(\.description).joined(separator: "; ") + "])"
    }
}
