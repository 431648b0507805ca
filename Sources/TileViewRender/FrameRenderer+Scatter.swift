import TileViewCore

/// The horizontal pass of a frame: the scratch row a level row is premultiplied into, and the horizontal weights
/// repeated across the four lanes (so the inner loop needs no shuffle) with each frame column's first tap as an
/// index into that row. One per render; `deallocate` when done.
struct AcrossPass {
    let converted: UnsafeMutablePointer<SIMD4<Float>>
    let weights: UnsafeMutablePointer<SIMD4<Float>>
    let tapOffset: UnsafeMutablePointer<Int>
    let sourceColumns: Int
    let columns: Int

    init(_ xAxis: ResampleAxis) {
        columns = xAxis.outputRange.count
        sourceColumns = xAxis.sourceRange.count
        converted = .allocate(capacity: sourceColumns)
        weights = .allocate(capacity: xAxis.weights.count)
        tapOffset = .allocate(capacity: columns)
        for (i, w) in xAxis.weights.enumerated() { weights[i] = SIMD4<Float>(repeating: w) }
        for x in 0..<columns { tapOffset[x] = xAxis.tapStart[x] - xAxis.sourceRange.lowerBound }
    }

    func deallocate() {
        converted.deallocate()
        weights.deallocate()
        tapOffset.deallocate()
    }

    /// One level row (straight RGBA8 from the first source column) filtered across into `out`, one premultiplied
    /// Float pixel per covered frame column.
    @inline(__always)
    func filter(
        _ row: UnsafePointer<UInt8>, _ xAxis: ResampleAxis, tapCount: UnsafePointer<Int>,
        alphaScale: UnsafePointer<SIMD4<Float>>, into out: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        FrameRenderer.premultiply(row, count: sourceColumns, alphaScale: alphaScale, into: converted)
        FrameRenderer.filterAcross(
            converted, columns: columns, tapOffset: tapOffset, tapCount: tapCount, weights: weights,
            stride: xAxis.stride, into: out)
    }
}

extension FrameRenderer {
    /// The frame rows whose sums are open at once when level rows are added into them as they come (`scatter`),
    /// when that holds fewer rows than the ring of filtered level rows (`yAxis.maxTapCount` rows, one per tap of the
    /// longest vertical filter); nil when the ring is as small.
    ///
    /// Shrinking a tall region into a few rows (a IIIF `full/12000,1`) makes every frame row's filter span
    /// thousands of level rows: a ring of them, each as wide as the frame, would need frame width x source height x
    /// 16 bytes. Open sums need frame width x 16 bytes for each frame row whose filter holds the current level
    /// row, a handful whatever the scale.
    static func scatterRows(_ yAxis: ResampleAxis) -> Int? {
        let span = openRowSpan(yAxis)
        return span + 2 < yAxis.maxTapCount ? span : nil
    }

    /// An upper bound on how far apart (in frame rows, counted inclusively) two frame rows can be whose filters
    /// are both open while a level row is added: the most frame rows, up to each frame row j, back to the first
    /// one whose filter (or an earlier one's) still reaches past the first level row of j.
    static func openRowSpan(_ yAxis: ResampleAxis) -> Int {
        let n = yAxis.outputRange.count
        guard n > 0 else { return 0 }
        var span = 1
        var low = 0
        var reach = yAxis.tapStart[0] + yAxis.tapCount[0]
        for j in 0..<n {
            let start = yAxis.tapStart[j]
            while low < j && reach <= start {
                low += 1
                reach = max(reach, yAxis.tapStart[low] + yAxis.tapCount[low])
            }
            span = max(span, j - low + 1)
        }
        return span
    }

    /// `resample`'s filter passes in the other order of memory: each level row is filtered across once and added,
    /// with its weight, into the sum of every frame row whose filter holds it; a frame row is composited as soon as
    /// its last level row is added. The sums are added in exactly the order the ring pass adds them (two taps at a
    /// time: `row0 * w0 + row1 * w1`, then the next pair added to that, an odd last tap alone), so the bytes are
    /// the same; only the scratch differs: `openRows + 2` rows of the frame's width instead of
    /// `yAxis.maxTapCount`.
    static func scatter<Rows: LevelRowSource>(
        rows: inout Rows, xAxis: ResampleAxis, yAxis: ResampleAxis, openRows: Int,
        background: BackgroundPaint, into output: UnsafeMutablePointer<UInt8>, frameWidth: Int,
        rowsDone: (Int) -> Void
    ) {
        let columns = xAxis.outputRange.count
        let frameRows = yAxis.outputRange.count
        let across = AcrossPass(xAxis)
        var previous = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: columns)
        var current = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: columns)
        let sums = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: openRows * columns)
        defer {
            across.deallocate()
            previous.deallocate()
            current.deallocate()
            sums.deallocate()
        }
        let firstColumn = xAxis.outputRange.lowerBound
        let firstRow = yAxis.outputRange.lowerBound
        let stride = yAxis.stride
        xAxis.tapCount.withUnsafeBufferPointer { xCount in
            xAxis.coverage.withUnsafeBufferPointer { xCoverage in
                yAxis.weights.withUnsafeBufferPointer { yWeights in
                    Self.alphaScale.withUnsafeBufferPointer { alphaScale in
                        // Frame rows [done, opened) may be open; rows before `done` are composited.
                        var done = 0
                        var opened = 0
                        var level = yAxis.sourceRange.lowerBound
                        while done < frameRows {
                            if opened == done { level = max(level, yAxis.tapStart[done]) }
                            while opened < frameRows && yAxis.tapStart[opened] <= level { opened += 1 }
                            let holding = (done..<opened).contains { level < yAxis.tapStart[$0] + yAxis.tapCount[$0] }
                            if holding {
                                across.filter(
                                    rows.row(level), xAxis, tapCount: xCount.baseAddress!,
                                    alphaScale: alphaScale.baseAddress!, into: current)
                            }
                            for j in done..<opened {
                                let start = yAxis.tapStart[j]
                                let count = yAxis.tapCount[j]
                                let k = level - start
                                guard k >= 0 && k < count else { continue }
                                let sum = sums + (j % openRows) * columns
                                if k & 1 == 1 {
                                    let w0 = yWeights[j * stride + k - 1]
                                    let w1 = yWeights[j * stride + k]
                                    let row0 = UnsafePointer(previous)
                                    let row1 = UnsafePointer(current)
                                    if k == 1 {
                                        for x in 0..<columns { sum[x] = row0[x] * w0 + row1[x] * w1 }
                                    } else {
                                        for x in 0..<columns { sum[x] += row0[x] * w0 + row1[x] * w1 }
                                    }
                                } else if k == count - 1 {
                                    let w0 = yWeights[j * stride + k]
                                    let row0 = UnsafePointer(current)
                                    if k == 0 {
                                        for x in 0..<columns { sum[x] = row0[x] * w0 }
                                    } else {
                                        for x in 0..<columns { sum[x] += row0[x] * w0 }
                                    }
                                }
                                if k == count - 1 {
                                    finish(
                                        sum, columns: columns, coverage: xCoverage.baseAddress!,
                                        rowCoverage: yAxis.coverage[j], background: background,
                                        into: output + ((firstRow + j) * frameWidth + firstColumn) * 4)
                                }
                            }
                            let before = done
                            while done < opened && level + 1 >= yAxis.tapStart[done] + yAxis.tapCount[done] {
                                done += 1
                            }
                            if done > before { rowsDone(firstRow + done) }
                            swap(&previous, &current)
                            level += 1
                        }
                    }
                }
            }
        }
    }
}
