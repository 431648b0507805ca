import TileViewCore

/// A page that shows in the viewport: which page, which slot of the content plane, and its frame.
public struct VisiblePage: Hashable, Sendable, CustomStringConvertible {
    /// The page's position in the layout (circular slots wrapped to 0..<n).
    public let position: PageMap.Cell
    /// The slot the page occupies in content space.
    public let slot: PageMap.Cell
    /// The page's frame in viewport space, gap insets applied; it may reach past the viewport's edges.
    public let frame: Rect

    public var description: String { "\(position) in slot \(slot) at \(frame)" }
}
