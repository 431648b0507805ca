/// A decoded thumbnail buffer handed from a cell leaving the resident set to a cell entering it.
///
/// Only cells of the same pixel size swap buffers, so the buffer is overwritten in place, never reallocated.
public struct CellBufferReuse: Hashable, Sendable, CustomStringConvertible {
    /// The cell giving up its buffer.
    public let from: CellID
    /// The cell decoding into it.
    public let to: CellID

    public init(from: CellID, to: CellID) { (self.from, self.to) = (from, to) }

    public var description: String { "\(from)->\(to)" }
}
