import TileViewCore

/// Where one section shows in the viewport at a container offset, and how far it is scrolled inside that frame.
///
/// For a section spanning container rows `[top, top + H)` and the viewport showing `[y, y + h)`:
/// - `frame` (viewport space) has x 0 and width w; its y is `clamp(top - y, 0, h)` and its height the number of
///   rows the section shares with the viewport, `max(0, min(top + H, y + h) - max(top, y))`. So a section
///   partly above the top is pinned at y 0, and a section off screen has height 0 with y 0 when it lies above
///   the viewport and y h when it lies below (a section of height 0 inside the viewport keeps its own y).
/// - `contentOffset` is `max(0, y - top)`: 0 for a section whose top is in or below the viewport, and for a
///   section above the top `y - top`, the row of the section shown at the frame's top (this can exceed H when
///   the section has left the viewport entirely, as a nested scroll view's offset would).
public struct SectionFrame: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The section's position in the feed, from 0.
    public let index: Int
    /// The visible part of the section, viewport space.
    public let frame: PixelRect
    /// How far the section is scrolled inside its frame, in the section's own pixels.
    public let contentOffset: Int

    /// Whether any of the section shows (`frame.height > 0`).
    public var isVisible: Bool { frame.height > 0 }

    public var description: String { "section \(index): frame \(frame), contentOffset \(contentOffset)" }
}
