import TileViewCore

/// The frame and content offset of every section at a container offset.
extension FeedLayout {
    /// One `SectionFrame` per section, in feed order, for container offset `y` (clamped first).
    ///
    /// The visible frames tile the top `min(h, contentHeight)` rows of the viewport in feed order, without gap
    /// or overlap; every other frame has height 0. See `SectionFrame` for the exact rules. O(sections).
    public func frames(atContainerOffset y: Int) -> [SectionFrame] {
        let offset = clampedContainerOffset(y)
        let h = viewportSize.height
        var frames: [SectionFrame] = []
        frames.reserveCapacity(sections.count)
        for index in sections.indices {
            let top = sectionTops[index]
            let bottom = top + sectionHeights[index]
            let visibleHeight = max(0, min(bottom, offset + h) - max(top, offset))
            let frameY = min(max(top - offset, 0), h)
            frames.append(
                SectionFrame(
                    index: index,
                    frame: PixelRect(x: 0, y: frameY, width: viewportSize.width, height: visibleHeight),
                    contentOffset: max(0, offset - top)))
        }
        return frames
    }

    /// The indexes of the sections sharing at least one row with the viewport at offset `y` (clamped first).
    public func visibleSections(atContainerOffset y: Int) -> [Int] {
        sections(intersectingContainerRange: viewportContainerRange(atContainerOffset: y))
    }

    /// The indexes of the sections sharing at least one row with the container range `range`, in feed order
    /// (a section of height 0 shares none).
    public func sections(intersectingContainerRange range: Range<Int>) -> [Int] {
        sections.indices.filter { index in
            let top = sectionTops[index]
            return max(top, range.lowerBound) < min(top + sectionHeights[index], range.upperBound)
        }
    }
}
