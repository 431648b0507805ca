import TileViewCore
import TileViewPaging
import TileViewTestSupport

/// Random layouts, moves and sizes for the seeded sweeps.
enum RandomLayouts {
    /// A linear list, a circular list (1 to 12 pages) or a map of up to 7 x 7 cells with holes and ragged rows.
    static func layout(_ rng: inout SplitMix64) -> PageLayout {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return .linear(Int.random(in: 1...12, using: &rng))
        case 1: return .circular(Int.random(in: 1...12, using: &rng))
        default: return .map(map(&rng))
        }
    }

    /// A map with a random hole density; rows may be shorter than others; at least one page.
    static func map(_ rng: inout SplitMix64) -> PageMap {
        let rowCount = Int.random(in: 1...7, using: &rng)
        let columnCount = Int.random(in: 1...7, using: &rng)
        let holeChance = Double.random(in: 0.1...0.6, using: &rng)
        var next = 0
        var rows: [[String?]] = []
        for _ in 0..<rowCount {
            let length = Bool.random(using: &rng) ? columnCount : Int.random(in: 0...columnCount, using: &rng)
            rows.append(
                (0..<length).map { _ in
                    guard Double.random(in: 0..<1, using: &rng) >= holeChance else { return nil }
                    next += 1
                    return "p\(next)"
                })
        }
        if next == 0 {
            let row = Int.random(in: 0..<rowCount, using: &rng)
            if rows[row].isEmpty { rows[row] = [nil] }
            rows[row][Int.random(in: 0..<rows[row].count, using: &rng)] = "p1"
        }
        do {
            return try PageMap(rows: rows)
        } catch {
            fatalError("generated map without pages: \(rows)")
        }
    }

    static func move(_ rng: inout SplitMix64) -> PageMove {
        PageMove.steps.randomElement(using: &rng)!
    }

    /// A page in the layout, chosen at random.
    static func start(_ layout: PageLayout, _ rng: inout SplitMix64) -> PageMap.Cell {
        layout.positions.randomElement(using: &rng)!
    }

    /// A page size between 40 and 900 points, whole or fractional.
    static func pageSize(_ rng: inout SplitMix64) -> Size {
        func length() -> Double {
            let value = Double.random(in: 40...900, using: &rng)
            return Bool.random(using: &rng) ? value.rounded() : value
        }
        return Size(width: length(), height: length())
    }

    static func pager(_ layout: PageLayout, _ rng: inout SplitMix64) -> Pager {
        Pager(layout: layout, start: start(layout, &rng))!
    }
}
