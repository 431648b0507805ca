import Testing
import TileViewCore
import TileViewIIIF
import TileViewTestSupport

/// Laws of region and size resolution over random images, regions, sizes and limits.
@Suite struct IIIFLawTests {
    static func randomImage(_ rng: inout SplitMix64) -> PixelSize {
        PixelSize(width: rng.int(1...9000), height: rng.int(1...9000))
    }

    static func randomRegion(_ rng: inout SplitMix64, _ image: PixelSize) -> String {
        switch rng.int(below: 4) {
        case 0: return "full"
        case 1: return "square"
        case 2:
            return "\(rng.int(0...image.width + 20)),\(rng.int(0...image.height + 20)),"
                + "\(rng.int(1...image.width + 50)),\(rng.int(1...image.height + 50))"
        default:
            func pct(_ low: Double, _ high: Double) -> String { String((rng.uniform(low, high) * 100).rounded() / 100) }
            return "pct:\(pct(0, 110)),\(pct(0, 110)),\(pct(0.01, 120)),\(pct(0.01, 120))"
        }
    }

    static func randomSize(_ rng: inout SplitMix64) -> String {
        let caret = rng.chance(0.4) ? "^" : ""
        let w = rng.int(1...6000)
        let h = rng.int(1...6000)
        switch rng.int(below: 6) {
        case 0: return caret + "max"
        case 1: return caret + "\(w),"
        case 2: return caret + ",\(h)"
        case 3: return caret + "pct:\(rng.int(1...150))"
        case 4: return caret + "\(w),\(h)"
        default: return caret + "!\(w),\(h)"
        }
    }

    static func randomLimits(_ rng: inout SplitMix64) -> IIIFLimits {
        switch rng.int(below: 3) {
        case 0: return IIIFLimits()
        case 1: return IIIFLimits(maxArea: rng.int(1...20_000_000), maxWidth: rng.int(1...8000))
        default:
            return IIIFLimits(maxArea: nil, maxWidth: rng.int(1...8000), maxHeight: rng.int(1...8000))
        }
    }

    @Test func resolvedRequestsLieInsideTheImageAndWithinTheLimits() {
        var resolvedCount = 0
        sweep("region inside image, size within limits", seed: 0x1111, cases: 4000) { rng in
            let image = Self.randomImage(&rng)
            let limits = Self.randomLimits(&rng)
            let path =
                "\(Self.randomRegion(&rng, image))/\(Self.randomSize(&rng))/\(rng.pick(["0", "!90"]))/default.jpg"
            guard case .success(let resolved) = resolve(path, image, limits) else { return nil }
            resolvedCount += 1
            if resolved.region.isEmpty || !PixelRect(size: image).contains(resolved.region) {
                return "\(path) on \(image): region \(resolved.region)"
            }
            let s = resolved.scaledSize
            if s.width < 1 || s.height < 1 || !limits.allows(s) {
                return "\(path) on \(image) with \(limits): size \(s)"
            }
            if !path.contains("/^"), s.width > resolved.region.width || s.height > resolved.region.height {
                return "\(path) on \(image): \(s) upscales \(resolved.region)"
            }
            return nil
        }
        // Not vacuous: a good share of the random requests resolve.
        #expect(resolvedCount >= 1000, "only \(resolvedCount) of 4000 requests resolved")
    }

    @Test func maxAlwaysResolves() {
        sweep("max and ^max always resolve", seed: 0x2222, cases: 3000) { rng in
            let image = Self.randomImage(&rng)
            let limits = Self.randomLimits(&rng)
            let caret = rng.chance(0.5) ? "^" : ""
            let path = "full/\(caret)max/0/default.jpg"
            guard case .success(let resolved) = resolve(path, image, limits) else {
                return "\(path) on \(image) with \(limits) failed"
            }
            if caret.isEmpty, limits.allows(image), resolved.scaledSize != image {
                return "\(path) on \(image): \(resolved.scaledSize), not the image size"
            }
            return nil
        }
    }

    @Test func bestFitFitsWithOneSideEqual() throws {
        try forEachSeed(1...400) { seed, rng in
            let image = Self.randomImage(&rng)
            let w = rng.int(1...3000)
            let h = rng.int(1...3000)
            let limits = IIIFLimits(maxArea: nil)
            let resolved = try resolve("full/^!\(w),\(h)/0/default.jpg", image, limits).get()
            let s = resolved.scaledSize
            #expect(s.width <= w && s.height <= h, "seed \(seed): \(s) in \(w)x\(h)")
            #expect(s.width == w || s.height == h, "seed \(seed): \(s) in \(w)x\(h)")
            // The aspect ratio is kept to within the rounding of the derived side.
            let derivedError =
                s.width == w
                ? abs(Double(s.height) - Double(image.height) * Double(w) / Double(image.width))
                : abs(Double(s.width) - Double(image.width) * Double(h) / Double(image.height))
            #expect(derivedError <= 0.5 || min(s.width, s.height) == 1, "seed \(seed): \(s) from \(image)")
        }
    }

    @Test func percentOfFullRoundsEachSide() {
        forEachSeed(1...400) { seed, rng in
            let image = Self.randomImage(&rng)
            let n = Double(rng.int(1...10000)) / 100
            let expected = PixelSize(
                width: Int((Double(image.width) * n / 100).rounded()),
                height: Int((Double(image.height) * n / 100).rounded()))
            let result = resolve("full/pct:\(n)/0/default.jpg", image, IIIFLimits(maxArea: nil))
            if expected.width < 1 || expected.height < 1 {
                #expect(result.failureStatus == .badRequest, "seed \(seed)")
            } else {
                #expect((try? result.get().scaledSize) == expected, "seed \(seed): pct:\(n) of \(image)")
            }
        }
    }

    @Test func widthFormKeepsTheAspectRatio() throws {
        try forEachSeed(1...400) { seed, rng in
            let image = Self.randomImage(&rng)
            let w = rng.int(1...image.width)
            let s = try resolve("full/\(w),/0/default.jpg", image, IIIFLimits(maxArea: nil)).get().scaledSize
            #expect(s.width == w)
            let exact = Double(image.height) * Double(w) / Double(image.width)
            #expect(s.height == max(1, Int(exact.rounded())), "seed \(seed)")
        }
    }
}
