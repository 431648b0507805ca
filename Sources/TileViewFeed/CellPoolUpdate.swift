import TileViewCore

/// What one move of the feed changes among the decoded cells: which enter, which leave, which buffers are reused.
///
/// Built from the resident cells before and after the move (`init(from:to:)`), both in feed order:
/// - `entering`: resident after, not before: decode them;
/// - `leaving`: resident before, not after: their buffers are recycled or freed;
/// - `reuses`: each entering cell, in feed order, takes the buffer of the first leaving cell of the same pixel
///   size not taken yet (cell sizes differ by at most a pixel within a grid, so most buffers find a taker);
/// - `allocations`: entering cells that found no buffer to reuse; `releases`: leaving cells whose buffer nobody
///   took, so it is freed.
public struct CellPoolUpdate: Hashable, Sendable, CustomStringConvertible {
    /// The cells resident after the move, in feed order, with viewport rects at the new offset.
    public let resident: [CellRef]
    /// Resident after, not before, in feed order.
    public let entering: [CellRef]
    /// Resident before, not after, in feed order, with the rects they had.
    public let leaving: [CellRef]
    /// Buffers passed from leaving to entering cells of the same size.
    public let reuses: [CellBufferReuse]
    /// Entering cells that need a new buffer.
    public let allocations: [CellRef]
    /// Leaving cells whose buffer is freed.
    public let releases: [CellRef]

    /// The plan for going from the resident cells `previous` to `next` (each in feed order, without repeats).
    public init(from previous: [CellRef], to next: [CellRef]) {
        let before = Set(previous.map(\.id))
        let after = Set(next.map(\.id))
        resident = next
        let entering = next.filter { !before.contains($0.id) }
        let leaving = previous.filter { !after.contains($0.id) }
        self.entering = entering
        self.leaving = leaving

        var freeBySize: [PixelSize: [Int]] = [:]  // leaving indexes per size, in feed order
        for (index, cell) in leaving.enumerated() { freeBySize[cell.pixelSize, default: []].append(index) }
        var nextFreeBySize: [PixelSize: Int] = [:]
        var taken = [Bool](repeating: false, count: leaving.count)
        var reuses: [CellBufferReuse] = []
        var allocations: [CellRef] = []
        for cell in entering {
            let candidates = freeBySize[cell.pixelSize] ?? []
            let position = nextFreeBySize[cell.pixelSize, default: 0]
            if position < candidates.count {
                nextFreeBySize[cell.pixelSize] = position + 1
                taken[candidates[position]] = true
                reuses.append(CellBufferReuse(from: leaving[candidates[position]].id, to: cell.id))
            } else {
                allocations.append(cell)
            }
        }
        self.reuses = reuses
        self.allocations = allocations
        releases = leaving.indices.filter { !taken[$0] }.map { leaving[$0] }
    }

    /// Whether the move changes nothing that is decoded.
    public var isUnchanged: Bool { entering.isEmpty && leaving.isEmpty }

    public var description: String {
        func list(_ cells: [CellRef]) -> String { "[" + cells.map(\.id.description).joined(separator: " ") + "]" }
        return "resident \(resident.count) entering \(list(entering)) leaving \(list(leaving)) reuses "
            + "[" + reuses.map(\.description).joined(separator: " ") + "]"
    }
}
