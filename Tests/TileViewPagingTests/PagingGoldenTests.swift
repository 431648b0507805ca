import Foundation
import Testing
import TileViewPaging
import TileViewTestSupport

/// Step traces of fixed walks, compared with `Tests/Goldens/paging/*.txt` (`RECORD_GOLDENS=1` rewrites them).
@Suite("Paging goldens")
struct PagingGoldenTests {
    /// One line per step: the move, the page (as written), its cell, and the resident plan by page name.
    static func trace(_ layout: PageLayout, start: PageMap.Cell?, moves: String) throws -> String {
        func name(_ cell: PageMap.Cell) -> String {
            if case .map(let map) = layout { return map.page(at: cell) ?? "?" }
            return "\(cell.column)"
        }
        func names(_ cells: [PageMap.Cell]) -> String { cells.isEmpty ? "-" : cells.map(name).joined(separator: " ") }
        var pager = try #require(Pager(layout: layout, start: start))
        var steps = [pager.initialStep]
        for move in try PageMoveList(parsing: moves) { steps.append(pager.apply(move)) }
        var lines = ["# \(layout.isMap ? "map" : "\(layout)") moves: \(moves)"]
        for (index, step) in steps.enumerated() {
            lines.append(
                "step \(index) \(step.move?.description ?? "start") page \(name(step.position)) cell \(step.position)"
                    + " \(step.moved ? "moved" : "stayed") axis \(step.axis) resident \(names(step.plan.resident))"
                    + " load \(names(step.plan.load)) evict \(names(step.plan.evict))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func check(_ name: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try Golden.assertText(text, "paging/\(name)", sourceLocation: sourceLocation)
    }

    @Test("the classic map walk matches its golden trace")
    func classicMap() throws {
        let moves = "left,right,down,down,up,up,left,left,down,up,right,prev,prev,next,up,next,next,next,next,next,next"
        try Self.check(
            "classic-map-walk.txt",
            try Self.trace(.map(try ClassicMap.map()), start: try ClassicMap.cell("6"), moves: moves))
    }

    @Test("linear and circular walks match their golden traces")
    func lists() throws {
        let moves = "prev,next,next,next,next,right,left,up,prev,prev,prev"
        try Self.check("linear-4-walk.txt", try Self.trace(.linear(4), start: nil, moves: moves))
        try Self.check("circular-5-walk.txt", try Self.trace(.circular(5), start: nil, moves: moves))
        try Self.check("circular-2-walk.txt", try Self.trace(.circular(2), start: nil, moves: moves))
    }
}
