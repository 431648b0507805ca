import TileViewCore

/// The size part of a IIIF image request (Image API 3.0 section 4.2): how large the returned region is.
public struct IIIFSize: Hashable, Sendable, CustomStringConvertible {
    /// The form of the size, without the `^` prefix.
    public enum Form: Hashable, Sendable {
        /// `max`: the region's size, or the largest the limits allow.
        case max
        /// `w,`: exactly this width, the height keeping the aspect ratio.
        case width(Int)
        /// `,h`: exactly this height, the width keeping the aspect ratio.
        case height(Int)
        /// `pct:n`: n percent of the region's width and height.
        case percent(Double)
        /// `w,h`: exactly this width and height, distorting if need be.
        case exact(width: Int, height: Int)
        /// `!w,h`: as large as possible within w x h, keeping the aspect ratio.
        case bestFit(width: Int, height: Int)
    }

    /// The form.
    public var form: Form
    /// Whether the size had the `^` prefix, which allows a result larger than the region.
    public var allowsUpscaling: Bool

    public init(_ form: Form, allowsUpscaling: Bool = false) {
        self.form = form
        self.allowsUpscaling = allowsUpscaling
    }

    /// Parses `max`, `w,`, `,h`, `pct:n`, `w,h` or `!w,h`, each optionally prefixed with `^`.
    ///
    /// Throws a 400 error for any other text, or a width, height or percentage of 0.
    public init(parsing text: String) throws(ImageRequestError) {
        func fail(_ problem: String) -> ImageRequestError { .badRequest("size", text, problem) }
        let expected = "expected max, w,, ,h, pct:n, w,h or !w,h, each optionally prefixed with ^"
        var rest = Substring(text)
        allowsUpscaling = rest.first == "^"
        if allowsUpscaling { rest = rest.dropFirst() }

        func integer(_ part: Substring, _ role: String) throws(ImageRequestError) -> Int {
            guard let value = IIIFNumber.integer(part) else {
                throw fail("the \(role) \"\(part)\" is not a non-negative integer")
            }
            guard value > 0 else { throw fail("the \(role) must be greater than 0") }
            guard value <= IIIFSize.largestSide else {
                throw fail("the \(role) \(value) is over \(IIIFSize.largestSide), larger than any image served")
            }
            return value
        }

        if rest == "max" {
            form = .max
        } else if rest.hasPrefix("pct:") {
            let number = rest.dropFirst(4)
            guard let value = IIIFNumber.decimal(number) else {
                throw fail("the percentage \"\(number)\" is not a non-negative decimal number")
            }
            guard value > 0 else { throw fail("the percentage must be greater than 0") }
            form = .percent(value)
        } else {
            let bang = rest.first == "!"
            if bang { rest = rest.dropFirst() }
            let parts = rest.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, !(parts[0].isEmpty && parts[1].isEmpty) else { throw fail(expected) }
            switch (parts[0].isEmpty, parts[1].isEmpty) {
            case (false, false):
                let w = try integer(parts[0], "width")
                let h = try integer(parts[1], "height")
                form = bang ? .bestFit(width: w, height: h) : .exact(width: w, height: h)
            case (false, true):
                guard !bang else { throw fail("!w,h needs both a width and a height") }
                form = .width(try integer(parts[0], "width"))
            default:
                guard !bang else { throw fail("!w,h needs both a width and a height") }
                form = .height(try integer(parts[1], "height"))
            }
        }
    }

    /// The size's text form.
    public var description: String {
        let body =
            switch form {
            case .max: "max"
            case .width(let w): "\(w),"
            case .height(let h): ",\(h)"
            case .percent(let n): "pct:\(IIIFNumber.text(n))"
            case .exact(let w, let h): "\(w),\(h)"
            case .bestFit(let w, let h): "!\(w),\(h)"
            }
        return (allowsUpscaling ? "^" : "") + body
    }

    /// The largest side a size may ask for (2^30): anything larger is refused as it is parsed, so that no
    /// arithmetic on sizes can overflow.
    public static let largestSide = 1 << 30

    /// The output size for a region of `region` pixels under `limits` (section 4.2).
    ///
    /// A side derived from the aspect ratio (`w,`, `,h`, `!w,h`) is the region's side scaled and rounded to the
    /// nearest pixel, at least 1; `pct:n` rounds both sides. `max` and `!w,h` are fitted within the limits;
    /// every other form throws a 400 error when its result exceeds them. Without `^`, `max` and `!w,h` never
    /// exceed the region (`!w,h` is "as large as possible but not larger than the extracted region, w or h": a
    /// box larger than the region gives the region at its own size), and any other form larger than the region in
    /// either side throws a 400 error. A result with a side of 0 throws a 400 error.
    public func resolve(region: PixelSize, limits: IIIFLimits) throws(ImageRequestError) -> PixelSize {
        func fail(_ problem: String) -> ImageRequestError { .badRequest("size", description, problem) }
        let rw = Double(region.width)
        let rh = Double(region.height)
        // Sides computed in floating point are checked before they become integers: a huge request must be a
        // 400, not an overflow.
        func whole(_ value: Double) throws(ImageRequestError) -> Int {
            let rounded = value.rounded()
            guard rounded.isFinite, rounded <= Double(IIIFSize.largestSide) else {
                throw fail("the result would be over \(IIIFSize.largestSide) pixels on a side")
            }
            return Int(rounded)
        }
        func derived(_ value: Double) throws(ImageRequestError) -> Int { Swift.max(1, try whole(value)) }

        let result: PixelSize
        switch form {
        case .max:
            let scale = Swift.min(allowsUpscaling ? Double.infinity : 1, limits.largestScale(for: region))
            result = scale.isInfinite ? region : limits.fitted(region, scale: scale)
        case .width(let w):
            result = PixelSize(width: w, height: try derived(rh * Double(w) / rw))
        case .height(let h):
            result = PixelSize(width: try derived(rw * Double(h) / rh), height: h)
        case .percent(let n):
            result = PixelSize(width: try whole(rw * n / 100), height: try whole(rh * n / 100))
        case .exact(let w, let h):
            result = PixelSize(width: w, height: h)
        case .bestFit(let w, let h):
            let boxScale = Swift.min(Double(w) / rw, Double(h) / rh)
            // Without ^ the result is at most the region (Image API 3.0 section 4.2): a thumbnail box larger than
            // a small image gives the image as it is, not an error.
            let scale = Swift.min(boxScale, allowsUpscaling ? Double.infinity : 1, limits.largestScale(for: region))
            if scale < boxScale {
                result = scale >= 1 ? region : limits.fitted(region, scale: scale)
            } else if Double(w) / rw <= Double(h) / rh {
                result = PixelSize(width: w, height: Swift.min(h, try derived(rh * Double(w) / rw)))
            } else {
                result = PixelSize(width: Swift.min(w, try derived(rw * Double(h) / rh)), height: h)
            }
        }

        guard result.width >= 1, result.height >= 1 else {
            throw fail("the result \(result) for a \(region) region is less than 1 pixel")
        }
        if !allowsUpscaling, result.width > region.width || result.height > region.height {
            throw fail("the result \(result) is larger than the \(region) region; prefix ^ to upscale")
        }
        if let problem = limits.violation(result) {
            throw fail("the result \(result) \(problem)")
        }
        return result
    }
}

/// The server's limits on the size of a returned image (Image API 3.0 section 5.2): `maxWidth`, `maxHeight`
/// and `maxArea`. A `maxHeight` without a `maxWidth` is not allowed by the spec; when only `maxWidth` is set,
/// the height is limited to it as well.
public struct IIIFLimits: Hashable, Sendable {
    /// The largest width * height, or nil for none.
    public var maxArea: Int?
    /// The largest width, or nil for none.
    public var maxWidth: Int?
    /// The largest height, or nil for none (then `maxWidth` limits the height too).
    public var maxHeight: Int?

    /// Limits of `maxArea` pixels (4096 x 4096 unless given), and optionally a width and height.
    public init(maxArea: Int? = 4096 * 4096, maxWidth: Int? = nil, maxHeight: Int? = nil) {
        self.maxArea = maxArea
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
    }

    /// The height limit in effect: `maxHeight`, or else `maxWidth`.
    public var effectiveMaxHeight: Int? { maxHeight ?? maxWidth }

    /// Whether `size` is within every limit.
    public func allows(_ size: PixelSize) -> Bool { violation(size) == nil }

    /// What limit `size` exceeds, or nil.
    func violation(_ size: PixelSize) -> String? {
        if let maxWidth, size.width > maxWidth { return "is wider than maxWidth \(maxWidth)" }
        if let maxHeight = effectiveMaxHeight, size.height > maxHeight {
            return "is taller than maxHeight \(maxHeight)"
        }
        if let maxArea, size.pixelCount > maxArea { return "has more pixels than maxArea \(maxArea)" }
        return nil
    }

    /// The largest factor by which `size` can be scaled and stay within the limits (infinite without limits).
    func largestScale(for size: PixelSize) -> Double {
        var scale = Double.infinity
        if let maxWidth { scale = min(scale, Double(maxWidth) / Double(size.width)) }
        if let maxHeight = effectiveMaxHeight { scale = min(scale, Double(maxHeight) / Double(size.height)) }
        if let maxArea { scale = min(scale, (Double(maxArea) / Double(size.width) / Double(size.height)).squareRoot()) }
        return scale
    }

    /// `size` scaled by `scale` (at most `largestScale(for:)`), each side rounded down and at least 1, then
    /// trimmed until it is within the limits.
    func fitted(_ size: PixelSize, scale: Double) -> PixelSize {
        var result = PixelSize(
            width: max(1, Int((Double(size.width) * scale).rounded(.down))),
            height: max(1, Int((Double(size.height) * scale).rounded(.down))))
        if let maxWidth { result.width = min(result.width, maxWidth) }
        if let maxHeight = effectiveMaxHeight { result.height = min(result.height, maxHeight) }
        if let maxArea, result.pixelCount > maxArea {
            if result.width >= result.height {
                result.width = max(1, maxArea / result.height)
            } else {
                result.height = max(1, maxArea / result.width)
            }
        }
        return result
    }
}
