import TileViewCore

/// The region part of a IIIF image request (Image API 3.0 section 4.1): which rectangle of the full image.
public enum IIIFRegion: Hashable, Sendable, CustomStringConvertible {
    /// `full`: the whole image.
    case full
    /// `square`: a square as large as the shorter side, centred on the longer side.
    case square
    /// `x,y,w,h` in image pixels; width and height are greater than 0.
    case pixels(x: Int, y: Int, width: Int, height: Int)
    /// `pct:x,y,w,h` in percent of the image's width and height; width and height are greater than 0.
    case percent(x: Double, y: Double, width: Double, height: Double)

    /// Parses `full`, `square`, `x,y,w,h` (non-negative integers) or `pct:x,y,w,h` (non-negative decimals).
    ///
    /// Throws a 400 error for any other text or for a width or height of 0.
    public init(parsing text: String) throws(ImageRequestError) {
        func fail(_ problem: String) -> ImageRequestError { .badRequest("region", text, problem) }
        switch text {
        case "full":
            self = .full
            return
        case "square":
            self = .square
            return
        default: break
        }
        /// The four comma-separated numbers of `list`, each read by `read`; the width and height above 0.
        func four<T: Comparable & Numeric>(
            _ list: Substring, _ kind: String, _ read: (Substring) -> T?, form: String
        ) throws(ImageRequestError) -> [T] {
            let parts = list.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 4 else { throw fail(form) }
            var values: [T] = []
            for part in parts {
                guard let value = read(part) else { throw fail("\"\(part)\" is not a non-negative \(kind)") }
                values.append(value)
            }
            guard values[2] > 0, values[3] > 0 else { throw fail("width and height must be greater than 0") }
            return values
        }
        if text.hasPrefix("pct:") {
            let body = text.dropFirst(4)
            let count = body.split(separator: ",", omittingEmptySubsequences: false).count
            let v = try four(
                body, "decimal number", IIIFNumber.decimal, form: "expected pct:x,y,w,h with 4 numbers, got \(count)")
            self = .percent(x: v[0], y: v[1], width: v[2], height: v[3])
        } else {
            let v = try four(
                Substring(text), "integer", IIIFNumber.integer, form: "expected full, square, x,y,w,h or pct:x,y,w,h")
            self = .pixels(x: v[0], y: v[1], width: v[2], height: v[3])
        }
    }

    /// The region's text form.
    public var description: String {
        switch self {
        case .full: "full"
        case .square: "square"
        case .pixels(let x, let y, let w, let h): "\(x),\(y),\(w),\(h)"
        case .percent(let x, let y, let w, let h):
            "pct:" + [x, y, w, h].map(IIIFNumber.text).joined(separator: ",")
        }
    }

    /// The region in pixels of an image of `imageSize`, clipped to the image (section 4.1).
    ///
    /// `square` is centred (the odd pixel, if any, on the right or bottom). Percentages scale the left and right
    /// (top and bottom) edges by the image's width (height) and round each to the nearest pixel; a region that
    /// starts inside the image keeps at least one pixel. Throws a 400 error when the region lies entirely outside
    /// the image (or the image is empty).
    public func resolve(imageSize: PixelSize) throws(ImageRequestError) -> PixelRect {
        let image = PixelRect(size: imageSize)
        func outside() -> ImageRequestError {
            .badRequest("region", description, "lies entirely outside the \(imageSize) image")
        }
        guard !imageSize.isEmpty else { throw outside() }
        switch self {
        case .full:
            return image
        case .square:
            let side = min(imageSize.width, imageSize.height)
            return PixelRect(
                x: (imageSize.width - side) / 2, y: (imageSize.height - side) / 2, width: side, height: side)
        case .pixels(let x, let y, let w, let h):
            guard x < imageSize.width, y < imageSize.height else { throw outside() }
            return PixelRect(
                x: x, y: y, width: min(w, imageSize.width - x), height: min(h, imageSize.height - y))
        case .percent(let x, let y, let w, let h):
            guard let xs = Self.edges(x, w, imageSize.width), let ys = Self.edges(y, h, imageSize.height) else {
                throw outside()
            }
            return PixelRect(x: xs.lower, y: ys.lower, width: xs.upper - xs.lower, height: ys.upper - ys.lower)
        }
    }

    /// The pixel span [lower, upper) of a percent start and length along a side of `extent` pixels, or nil when
    /// it starts at or beyond the end.
    private static func edges(_ start: Double, _ length: Double, _ extent: Int) -> (lower: Int, upper: Int)? {
        let scale = Double(extent) / 100
        let lowerValue = (start * scale).rounded()
        guard lowerValue < Double(extent) else { return nil }
        let lower = Int(lowerValue)
        let upperValue = min(((start + length) * scale).rounded(), Double(extent))
        return (lower, max(Int(upperValue), lower + 1))
    }
}
