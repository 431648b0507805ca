import TileViewCore

/// The container offsets a feed at rest can have, and clamping to them.
extension FeedLayout {
    /// The largest valid container offset: `max(0, contentHeight - h)`.
    public var maximumContainerOffset: Int { max(0, contentHeight - viewportSize.height) }

    /// The valid container offsets, `0...max(0, contentHeight - h)`.
    public var containerOffsetRange: ClosedRange<Int> { 0...maximumContainerOffset }

    /// `y` clamped to `containerOffsetRange`: offsets above the top become 0, offsets past the end the last one.
    public func clampedContainerOffset(_ y: Int) -> Int {
        min(max(y, 0), maximumContainerOffset)
    }

    /// The container rows the viewport shows at offset `y` (clamped first): `[y, y + h)`.
    public func viewportContainerRange(atContainerOffset y: Int) -> Range<Int> {
        let offset = clampedContainerOffset(y)
        return offset..<(offset + viewportSize.height)
    }
}
