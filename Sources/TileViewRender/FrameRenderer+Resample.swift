import TileViewCore

extension FrameRenderer {
    /// Writes the background into every frame pixel outside the covered columns and rows.
    static func fillBackground(
        _ out: UnsafeMutablePointer<UInt8>, width: Int, height: Int, outside covered: (Range<Int>, Range<Int>),
        with colour: RGBA8
    ) {
        func fill(row: Int, columns: Range<Int>) {
            var p = out + (row * width + columns.lowerBound) * 4
            for _ in columns {
                p[0] = colour.r
                p[1] = colour.g
                p[2] = colour.b
                p[3] = colour.a
                p += 4
            }
        }
        for row in 0..<height {
            if covered.1.contains(row) && !covered.0.isEmpty {
                fill(row: row, columns: 0..<covered.0.lowerBound)
                fill(row: row, columns: covered.0.upperBound..<width)
            } else {
                fill(row: row, columns: 0..<width)
            }
        }
    }

    /// The two filter passes and the final compositing, over the covered part of the frame only.
    ///
    /// Across: each needed level row is premultiplied into Float once, then every covered frame
    /// column sums its taps. Down: a ring holds the last `yAxis.maxTapCount` filtered rows (the taps
    /// of successive frame rows start at non-decreasing level rows, so each level row is filtered
    /// once); each frame row sums its taps from the ring, then is composited and stored. A 1:1, integer-aligned
    /// frame is copied instead (`copy`), with the same bytes.
    static func resample<Rows: LevelRowSource>(
        rows: inout Rows, xAxis: ResampleAxis, yAxis: ResampleAxis,
        background: BackgroundPaint, into output: UnsafeMutablePointer<UInt8>, frameWidth: Int,
        copiesWhenIdentity: Bool = true, scatters: Bool = true, rowsDone: (Int) -> Void = { _ in }
    ) {
        if copiesWhenIdentity && !background.isDestination && xAxis.isIdentity && yAxis.isIdentity {
            return copy(
                rows: &rows, xAxis: xAxis, yAxis: yAxis, background: background, into: output, frameWidth: frameWidth,
                rowsDone: rowsDone)
        }
        if scatters, let openRows = scatterRows(yAxis) {
            return scatter(
                rows: &rows, xAxis: xAxis, yAxis: yAxis, openRows: openRows, background: background, into: output,
                frameWidth: frameWidth, rowsDone: rowsDone)
        }
        let columns = xAxis.outputRange.count
        let ringRows = yAxis.maxTapCount
        let across = AcrossPass(xAxis)
        let ring = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: ringRows * columns)
        let accumulated = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: columns)
        defer {
            across.deallocate()
            ring.deallocate()
            accumulated.deallocate()
        }
        let firstColumn = xAxis.outputRange.lowerBound

        do {
            xAxis.tapCount.withUnsafeBufferPointer { xCount in
                xAxis.coverage.withUnsafeBufferPointer { xCoverage in
                    Self.alphaScale.withUnsafeBufferPointer { alphaScale in
                        var nextRow = Int.min
                        for (j, frameRow) in yAxis.outputRange.enumerated() {
                            let start = yAxis.tapStart[j]
                            let count = yAxis.tapCount[j]
                            // Filter across the level rows this frame row needs that the ring lacks.
                            nextRow = max(nextRow, start)
                            while nextRow < start + count {
                                across.filter(
                                    rows.row(nextRow), xAxis, tapCount: xCount.baseAddress!,
                                    alphaScale: alphaScale.baseAddress!, into: ring + (nextRow % ringRows) * columns)
                                nextRow += 1
                            }
                            // Filter down, two taps at a time.
                            var k = 0
                            while k < count {
                                let w0 = yAxis.weights[j * yAxis.stride + k]
                                let row0 = UnsafePointer(ring + ((start + k) % ringRows) * columns)
                                if k + 1 < count {
                                    let w1 = yAxis.weights[j * yAxis.stride + k + 1]
                                    let row1 = UnsafePointer(ring + ((start + k + 1) % ringRows) * columns)
                                    if k == 0 {
                                        for x in 0..<columns { accumulated[x] = row0[x] * w0 + row1[x] * w1 }
                                    } else {
                                        for x in 0..<columns { accumulated[x] += row0[x] * w0 + row1[x] * w1 }
                                    }
                                } else if k == 0 {
                                    for x in 0..<columns { accumulated[x] = row0[x] * w0 }
                                } else {
                                    for x in 0..<columns { accumulated[x] += row0[x] * w0 }
                                }
                                k += 2
                            }
                            finish(
                                accumulated, columns: columns, coverage: xCoverage.baseAddress!,
                                rowCoverage: yAxis.coverage[j], background: background,
                                into: output + (frameRow * frameWidth + firstColumn) * 4)
                            rowsDone(frameRow + 1)
                        }
                    }
                }
            }
        }
    }

    /// A filtered frame row composited and stored: over the pixels beneath (`draw`) or over the background.
    @inline(__always)
    static func finish(
        _ row: UnsafePointer<SIMD4<Float>>, columns: Int, coverage: UnsafePointer<Float>, rowCoverage: Float,
        background: BackgroundPaint, into out: UnsafeMutablePointer<UInt8>
    ) {
        if background.isDestination {
            compositeOverDestination(row, columns: columns, coverage: coverage, rowCoverage: rowCoverage, into: out)
        } else {
            composite(
                row, columns: columns, coverage: coverage, rowCoverage: rowCoverage, background: background, into: out)
        }
    }

    /// A 1:1, integer-aligned frame (both axes `isIdentity`): each covered frame row is its level row copied, and
    /// only pixels that are not opaque go through `composite`. The bytes are those the filter passes give: with
    /// one tap of weight 1 and full coverage an opaque pixel comes out of them unchanged.
    static func copy<Rows: LevelRowSource>(
        rows: inout Rows, xAxis: ResampleAxis, yAxis: ResampleAxis, background: BackgroundPaint,
        into output: UnsafeMutablePointer<UInt8>, frameWidth: Int, rowsDone: (Int) -> Void
    ) {
        let columns = xAxis.outputRange.count
        let offset = xAxis.tapStart[0] - xAxis.sourceRange.lowerBound
        var pixel = SIMD4<Float>()
        var fullCoverage: Float = 1
        Self.alphaScale.withUnsafeBufferPointer { alphaScale in
            for (j, frameRow) in yAxis.outputRange.enumerated() {
                let source = rows.row(yAxis.tapStart[j]) + offset * 4
                let out = output + (frameRow * frameWidth + xAxis.outputRange.lowerBound) * 4
                out.update(from: source, count: columns * 4)
                for x in 0..<columns where source[x &* 4 &+ 3] != 255 {
                    premultiply(source + x * 4, count: 1, alphaScale: alphaScale.baseAddress!, into: &pixel)
                    composite(
                        &pixel, columns: 1, coverage: &fullCoverage, rowCoverage: 1, background: background,
                        into: out + x * 4)
                }
                rowsDone(frameRow + 1)
            }
        }
    }

    /// For each alpha byte a, what `premultiply` multiplies a pixel's four lanes by: a / 255 for colour, 1 for
    /// alpha.
    static let alphaScale: [SIMD4<Float>] = (0..<256).map {
        let m = Float($0) / 255
        return SIMD4<Float>(m, m, m, 1)
    }

    /// Straight RGBA8 to premultiplied Float RGBA (colour * a / 255, alpha kept on 0...255).
    @inline(__always)
    static func premultiply(
        _ bytes: UnsafePointer<UInt8>, count: Int, alphaScale: UnsafePointer<SIMD4<Float>>,
        into out: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        // Four lanes at once: each an exact byte-to-Float conversion times one factor (1 for alpha).
        let raw = UnsafeRawPointer(bytes)
        for i in 0..<count {
            let pixel = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<UInt8>.self)
            out[i] = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: pixel)) * alphaScale[Int(pixel[3])]
        }
    }

    /// One filtered row: for each covered frame column, the weighted sum of its taps.
    ///
    /// Each column's sum is added up tap after tap, in order (so the bytes never depend on how columns are
    /// grouped); four neighbouring columns with as many taps are summed side by side, four independent chains
    /// of additions that the processor overlaps instead of waiting for each addition in turn.
    @inline(__always)
    static func filterAcross(
        _ row: UnsafePointer<SIMD4<Float>>, columns: Int, tapOffset: UnsafePointer<Int>, tapCount: UnsafePointer<Int>,
        weights: UnsafePointer<SIMD4<Float>>, stride: Int, into out: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        var x = 0
        while x + 3 < columns {
            let n = tapCount[x]
            guard tapCount[x + 1] == n && tapCount[x + 2] == n && tapCount[x + 3] == n else {
                out[x] = filterColumn(row + tapOffset[x], weights: weights + x * stride, count: n)
                x += 1
                continue
            }
            let t0 = row + tapOffset[x]
            let t1 = row + tapOffset[x + 1]
            let t2 = row + tapOffset[x + 2]
            let t3 = row + tapOffset[x + 3]
            let w0 = weights + x * stride
            let w1 = w0 + stride
            let w2 = w1 + stride
            let w3 = w2 + stride
            var s0 = t0[0] * w0[0]
            var s1 = t1[0] * w1[0]
            var s2 = t2[0] * w2[0]
            var s3 = t3[0] * w3[0]
            var k = 1
            while k < n {
                s0 += t0[k] * w0[k]
                s1 += t1[k] * w1[k]
                s2 += t2[k] * w2[k]
                s3 += t3[k] * w3[k]
                k += 1
            }
            out[x] = s0
            out[x + 1] = s1
            out[x + 2] = s2
            out[x + 3] = s3
            x += 4
        }
        while x < columns {
            out[x] = filterColumn(row + tapOffset[x], weights: weights + x * stride, count: tapCount[x])
            x += 1
        }
    }

    /// One frame column's weighted sum of its `count` taps, added in order.
    @inline(__always)
    static func filterColumn(
        _ taps: UnsafePointer<SIMD4<Float>>, weights w: UnsafePointer<SIMD4<Float>>, count n: Int
    ) -> SIMD4<Float> {
        var sum = taps[0] * w[0]
        var k = 1
        while k < n {
            sum += taps[k] * w[k]
            k += 1
        }
        return sum
    }

    /// Clamps a filtered premultiplied row (0 <= colour <= alpha <= 255), scales it by coverage,
    /// composites it over the background (source over) and stores straight RGBA8, rounded to nearest
    /// (ties to even).
    /// Over an opaque background the result is opaque and needs no division, and the four lanes of a pixel go
    /// through the same operations at once (`compositeOverOpaque`).
    @inline(__always)
    static func composite(
        _ row: UnsafePointer<SIMD4<Float>>, columns: Int, coverage: UnsafePointer<Float>, rowCoverage: Float,
        background: BackgroundPaint, into out: UnsafeMutablePointer<UInt8>
    ) {
        if background.isOpaque {
            return compositeOverOpaque(
                row, columns: columns, coverage: coverage, rowCoverage: rowCoverage, background: background, into: out)
        }
        let inverse255: Float = 1.0 / 255
        var o = out
        for x in 0..<columns {
            let p = row[x]
            let a = min(max(p.w, 0), 255)
            let cov = coverage[x] * rowCoverage
            let r = min(max(p.x, 0), a) * cov
            let g = min(max(p.y, 0), a) * cov
            let b = min(max(p.z, 0), a) * cov
            let alpha = a * cov
            // The background shows through where the image is not opaque.
            let through = 1 - alpha * inverse255
            var outR = r + background.red * through
            var outG = g + background.green * through
            var outB = b + background.blue * through
            var outA = alpha + background.alpha * through
            if outA > 0 {
                let unpremultiply = 255 / outA
                outR *= unpremultiply
                outG *= unpremultiply
                outB *= unpremultiply
            } else {
                (outR, outG, outB, outA) = (0, 0, 0, 0)
            }
            o[0] = byte(outR)
            o[1] = byte(outG)
            o[2] = byte(outB)
            o[3] = byte(outA)
            o += 4
        }
    }

    /// `composite` over an opaque background: for each colour channel the scalar code's operations in its order
    /// (colour clamped to [0, a], where a is alpha clamped to [0, 255], times coverage, plus background times what
    /// shows through), and alpha 255. What shows through is computed from a as the scalar code does.
    ///
    /// Written channel by channel with scalar operations, so that the compiler puts several pixels in one vector.
    /// It was a pixel's four lanes side by side (`SIMD4`, choosing lanes through comparison masks), whose masks the
    /// compiler built lane by lane: 69 instructions a pixel, against 33 now (callgrind, the 1024 x 683 frame of a fit of the
    /// 24 MP photo). A test keeps the lanes-side-by-side form and checks that the two give the same bytes.
    @inline(__always)
    static func compositeOverOpaque(
        _ row: UnsafePointer<SIMD4<Float>>, columns: Int, coverage: UnsafePointer<Float>, rowCoverage: Float,
        background: BackgroundPaint, into out: UnsafeMutablePointer<UInt8>
    ) {
        let inverse255: Float = 1.0 / 255
        let (red, green, blue) = (background.red, background.green, background.blue)
        let channels = UnsafeRawPointer(row).assumingMemoryBound(to: Float.self)
        for x in 0..<columns {
            let p = channels + x &* 4
            let a = min(max(p[3], 0), 255)
            let cov = coverage[x] * rowCoverage
            let through = 1 - a * cov * inverse255
            let o = out + x &* 4
            o[0] = byte(min(max(p[0], 0), a) * cov + red * through)
            o[1] = byte(min(max(p[1], 0), a) * cov + green * through)
            o[2] = byte(min(max(p[2], 0), a) * cov + blue * through)
            o[3] = 255
        }
    }

    /// `composite` with each pixel's current colour as its background: the same arithmetic as over a flat
    /// background of that colour, so an image drawn onto a frame gives, pixel for pixel, the bytes a render over
    /// a background of the colour beneath would give.
    @inline(__always)
    static func compositeOverDestination(
        _ row: UnsafePointer<SIMD4<Float>>, columns: Int, coverage: UnsafePointer<Float>, rowCoverage: Float,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        var o = out
        for x in 0..<columns {
            let beneath = BackgroundPaint(RGBA8(r: o[0], g: o[1], b: o[2], a: o[3]))
            composite(
                row + x, columns: 1, coverage: coverage + x, rowCoverage: rowCoverage, background: beneath, into: o)
            o += 4
        }
    }

    /// A value in [0, 255] rounded to the nearest integer, ties to even: adding 2^23 leaves the
    /// rounded integer in the low bits of the Float (its unit in the last place is 1 there), with
    /// no conversion checks.
    @inline(__always)
    static func byte(_ value: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: (min(max(value, 0), 255) + 8_388_608).bitPattern)
    }
}
