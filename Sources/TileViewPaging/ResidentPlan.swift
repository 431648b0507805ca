/// The pages to keep decoded after a step, and what changed: pages entering load, pages leaving are evicted.
///
/// All three lists are in page order. `resident` never holds more than three pages (a pager guarantees it);
/// `load` is `resident` minus the pages resident before, `evict` the pages resident before minus `resident`.
public struct ResidentPlan: Hashable, Sendable, CustomStringConvertible {
    public typealias Cell = PageMap.Cell

    /// The pages that hold decoded pixels after the step.
    public let resident: [Cell]
    /// The pages entering the resident set: decode them.
    public let load: [Cell]
    /// The pages leaving the resident set: free every byte they decoded.
    public let evict: [Cell]

    /// The diff from the resident set `previous` to `resident`.
    public init(from previous: [Cell], to resident: [Cell]) {
        let before = Set(previous)
        let after = Set(resident)
        self.resident = after.sorted()
        load = after.subtracting(before).sorted()
        evict = before.subtracting(after).sorted()
    }

    /// Whether the step changes nothing that is decoded.
    public var isUnchanged: Bool { load.isEmpty && evict.isEmpty }

    public var description: String {
        func list(_ cells: [Cell]) -> String { "[" + cells.map(\.description).joined(separator: " ") + "]" }
        return "resident \(list(resident)) load \(list(load)) evict \(list(evict))"
    }
}
