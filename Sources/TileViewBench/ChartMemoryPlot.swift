import TileView
import TileViewCore

/// The chart `tileview bench memory --plot` writes: resident decoded bytes and RSS over the steps.
///
/// Layout: a white canvas; a legend of coloured swatches across the top (RSS blue, PEAK RSS blue dashes,
/// DECODED orange, BUDGET red when a budget is given); the plot area below with the y axis in MiB (0 at the
/// bottom, grid lines at round steps, labelled) and the x axis in steps (labelled at round steps); one thick
/// line per sampled series, the process's peak RSS (VmHWM, which also covers the moments between samples) and
/// the budget as dashed lines. No fonts: labels are drawn with `ChartFont`'s 5 x 7 pixel digits and capitals.
public enum ChartMemoryPlot {
    public static let rssColour = RGBA8(r: 31, g: 119, b: 180)
    public static let decodedColour = RGBA8(r: 255, g: 127, b: 14)
    public static let budgetColour = RGBA8(r: 214, g: 39, b: 40)
    static let axisColour = RGBA8(r: 40, g: 40, b: 40)
    static let gridColour = RGBA8(r: 225, g: 225, b: 225)
    static let white = RGBA8(r: 255, g: 255, b: 255)

    /// Draws the chart of `report` (and `budgetBytes`, if any) at `size` (at least 200 x 120).
    public static func draw(
        _ report: MemoryBenchReport, budgetBytes: Int? = nil, size: PixelSize = PixelSize(width: 640, height: 360)
    ) -> ImageBuffer {
        let width = max(200, size.width)
        let height = max(120, size.height)
        var canvas = ChartCanvas(width: width, height: height, background: white)
        let mib = Double(1 << 20)
        let rss = report.steps.map { Double($0.rssBytes ?? 0) / mib }
        let decoded = report.steps.map { Double($0.residentBytes) / mib }
        let budget = budgetBytes.map { Double($0) / mib }
        let top = (rss + decoded + [budget ?? 0, Double(report.summary.peakRSSBytes ?? 0) / mib]).max() ?? 0
        let yStep = niceStep(top / 5)
        let yMax = max(yStep, (top / yStep).rounded(.up) * yStep)
        let steps = max(1, report.steps.count - 1)
        let xStep = Int(niceStep(Double(steps) / 8))

        // Plot area: room for the y labels on the left, the legend above, the x labels below.
        let left = 48
        let right = width - 16
        let plotTop = 40
        let bottom = height - 28
        func px(_ step: Int) -> Int { left + Int((Double(step) / Double(steps) * Double(right - left)).rounded()) }
        func py(_ value: Double) -> Int { bottom - Int((value / yMax * Double(bottom - plotTop)).rounded()) }

        // Grid and y labels (MiB).
        var value = 0.0
        while value <= yMax + yStep / 2 {
            let y = py(value)
            canvas.line(from: (left, y), to: (right, y), gridColour)
            let label = format(value)
            canvas.text(label, x: left - 6 - ChartFont.textWidth(label), y: y - 3, axisColour)
            value += yStep
        }
        canvas.text("MIB", x: 6, y: plotTop - 14, axisColour)
        // x labels (steps).
        var step = 0
        while step <= steps {
            let x = px(step)
            canvas.line(from: (x, bottom), to: (x, bottom + 4), axisColour)
            let label = String(step)
            canvas.text(label, x: x - ChartFont.textWidth(label) / 2, y: bottom + 8, axisColour)
            step += max(1, xStep)
        }
        canvas.text("STEP", x: right - ChartFont.textWidth("STEP"), y: bottom + 18, axisColour)
        // Axes.
        canvas.line(from: (left, plotTop), to: (left, bottom), axisColour)
        canvas.line(from: (left, bottom), to: (right, bottom), axisColour)

        // Series.
        if let budget {
            canvas.line(from: (left, py(budget)), to: (right, py(budget)), budgetColour, thickness: 2, dash: 6)
        }
        let peak = report.summary.peakRSSBytes.map { Double($0) / mib }
        if let peak { canvas.line(from: (left, py(peak)), to: (right, py(peak)), rssColour, thickness: 1, dash: 3) }
        for (series, colour) in [(decoded, decodedColour), (rss, rssColour)] where !series.isEmpty {
            if series.count == 1 {
                canvas.fill(x: px(0) - 2, y: py(series[0]) - 2, width: 5, height: 5, colour)
            }
            for i in series.indices.dropFirst() {
                canvas.line(from: (px(i - 1), py(series[i - 1])), to: (px(i), py(series[i])), colour, thickness: 3)
            }
        }

        // Legend: swatches and names.
        var legend: [(String, RGBA8, dashed: Bool)] = [("RSS", rssColour, false)]
        if peak != nil { legend.append(("PEAK RSS", rssColour, true)) }
        legend.append(("DECODED", decodedColour, false))
        if budget != nil { legend.append(("BUDGET", budgetColour, true)) }
        var x = left
        for (name, colour, dashed) in legend {
            if dashed {
                canvas.line(from: (x, 19), to: (x + 17, 19), colour, thickness: 2, dash: 3)
            } else {
                canvas.fill(x: x, y: 12, width: 18, height: 14, colour)
            }
            canvas.text(name, x: x + 24, y: 12, axisColour, scale: 2)
            x += 24 + ChartFont.textWidth(name, scale: 2) + 20
        }
        return canvas.image
    }

    /// 1, 2 or 5 times a power of ten, at least `raw` (and at least 1).
    public static func niceStep(_ raw: Double) -> Double {
        guard raw.isFinite, raw > 1 else { return 1 }
        var power = 1.0
        while power * 10 <= raw { power *= 10 }
        for factor in [1.0, 2.0, 5.0, 10.0] where factor * power >= raw { return factor * power }
        return 10 * power
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
