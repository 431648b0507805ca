import Foundation
import Testing
import TileViewCore
import TileViewGallery
import TileViewTestSupport

@testable import TileView
@testable import TileViewBench

@Suite("Memory bench and chart")
struct GalleryMemoryBenchTests {
    @Test("the bench wraps around the folder and samples every frame")
    func benchWraps() throws {
        try TemporaryFolder.with("bench") { dir in
            try TestPages.pages(4, into: dir, width: 80, height: 60)
            let pages = try GalleryPages.reading(folder: dir.path, circular: true)
            let report = try MemoryBench.run(pages: pages, viewport: PixelSize(width: 40, height: 30), steps: 9)
            #expect(report.steps.map(\.step) == Array(0...9))
            #expect(report.steps.map(\.page) == (0...9).map { "page-\($0 % 4).png" })
            #expect(report.steps.allSatisfy { $0.resident.count == 3 && $0.residentBytes == 80 * 60 * 4 })
            #expect(report.summary.peakResidentBytes == 80 * 60 * 4 && report.summary.maxResident == 3)
            #expect(report.summary.frames == 10 && report.summary.pages == 4)
            let peak = try #require(report.summary.peakRSSBytes)
            #expect(report.steps.allSatisfy { ($0.rssBytes ?? 0) > 0 && ($0.rssBytes ?? 0) <= peak })
            #expect(report.isWithin(budgetBytes: peak) && !report.isWithin(budgetBytes: peak - 1))
        }
    }

    @Test("the chart has both series, the budget line and the legend swatches in their colours")
    func chart() {
        let mib = 1 << 20
        let steps = (0..<30).map {
            MemoryBenchReport.Step(
                step: $0, page: "p", resident: ["p"], residentBytes: (4 + $0 % 3) * mib, rssBytes: (20 + $0 / 3) * mib)
        }
        let report = MemoryBenchReport(
            steps: steps,
            summary: .init(
                frames: 30, pages: 30, maxResident: 3, peakResidentBytes: 6 * mib, peakRSSBytes: 30 * mib,
                decodePasses: 30, bytesDecoded: 0))
        let image = ChartMemoryPlot.draw(report, budgetBytes: 40 * mib)
        #expect(image.size == PixelSize(width: 640, height: 360))
        func count(_ colour: RGBA8) -> Int {
            var n = 0
            for y in 0..<image.height { for x in 0..<image.width where image[x, y] == colour { n += 1 } }
            return n
        }
        #expect(count(ChartMemoryPlot.rssColour) > 600, "a thick line across the plot plus a swatch")
        #expect(count(ChartMemoryPlot.decodedColour) > 600)
        #expect(count(ChartMemoryPlot.budgetColour) > 300)
        // The RSS line lies above the decoded line: in the middle column the blue pixels are higher up.
        let x = 340
        let blue = (0..<image.height).first { image[x, $0] == ChartMemoryPlot.rssColour }
        let orange = (0..<image.height).first { image[x, $0] == ChartMemoryPlot.decodedColour }
        #expect(blue != nil && orange != nil && blue! < orange!)
        let plain = ChartMemoryPlot.draw(report)
        #expect(
            !(0..<plain.height).contains { y in
                (0..<plain.width).contains { plain[$0, y] == ChartMemoryPlot.budgetColour }
            })
    }

    @Test("chart steps are 1, 2 or 5 times a power of ten")
    func niceSteps() {
        #expect(
            [0.3, 1, 1.5, 3, 7, 12, 49, 51, 180].map(ChartMemoryPlot.niceStep) == [1, 1, 2, 5, 10, 20, 50, 100, 200])
    }
}
