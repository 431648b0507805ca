import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// `tileview bench memory` end to end.
@Suite("tileview bench memory")
struct BenchCommandTests {
    struct Report: Decodable {
        struct Step: Decodable {
            let step, residentBytes: Int
            let page: String
            let resident: [String]
            let rssBytes: Int?
        }

        struct Summary: Decodable {
            let frames, pages, maxResident, peakResidentBytes: Int
            let peakRSSBytes: Int?
        }

        let steps: [Step]
        let summary: Summary
        let budgetBytes: Int?
        let withinBudget: Bool?
    }

    @Test("reports resident pages, decoded bytes and RSS per step, wrapping around the folder, and the peaks")
    func memoryReport() throws {
        try TemporaryFolder.with("bench-memory") { dir in
            try TestPages.write(
                ["b1.png", "b2.png", "b10.png"], into: dir.appendingPathComponent(".").standardized, width: 60,
                height: 40)
            let result = try CommandRunner.run(
                [
                    "bench", "memory", "--dir", ".", "--viewport", "30x20", "--steps", "5", "--budget-mb", "4096",
                    "--json",
                    "--plot", "chart.png",
                ], in: dir)
            #expect(result.status == 0, "\(result)")
            let report = try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
            #expect(report.steps.map(\.page) == ["b1.png", "b2.png", "b10.png", "b1.png", "b2.png", "b10.png"])
            #expect(
                report.steps.allSatisfy {
                    $0.resident.count == 3 && $0.residentBytes == 60 * 40 * 4 && ($0.rssBytes ?? 0) > 0
                })
            #expect(report.summary.frames == 6 && report.summary.pages == 3 && report.summary.maxResident == 3)
            #expect(report.budgetBytes == 4096 << 20 && report.withinBudget == true)
            let chart = try ImageDecoder.decode(.file(path: dir.appendingPathComponent("chart.png").path)).image
            #expect(chart.size == PixelSize(width: 640, height: 360))
        }
    }

    @Test("passing the budget exits 1 and says so on standard error")
    func overBudget() throws {
        try TemporaryFolder.with("bench-budget") { dir in
            try TestPages.write(["a.png", "b.png"], into: dir)
            let result = try CommandRunner.run(
                ["bench", "memory", "--dir", ".", "--steps", "2", "--budget-mb", "1"], in: dir)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("over the budget of 1.0 MiB"), "\(result.stderr)")
            #expect(result.stdout.contains("peak RSS"), "the table is printed before the verdict")
            let usage = try CommandRunner.run(["bench", "memory", "--dir", ".", "--steps", "-1"], in: dir)
            #expect(usage.status == 64)
        }
    }
}
