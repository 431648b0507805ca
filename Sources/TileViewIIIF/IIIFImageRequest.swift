import TileViewCore

/// The rotation part of a IIIF image request (Image API 3.0 section 4.3): mirror first (`!`), then rotate
/// clockwise by `degrees`.
public struct IIIFRotation: Hashable, Sendable, CustomStringConvertible {
    /// Whether the image is mirrored about its vertical axis before it is rotated.
    public var mirrored: Bool
    /// The clockwise rotation, from 0 up to 360.
    public var degrees: Double

    public init(degrees: Double, mirrored: Bool = false) { (self.degrees, self.mirrored) = (degrees, mirrored) }

    /// Parses `n` or `!n`, n a non-negative decimal from 0 up to 360. Throws a 400 error for anything else.
    public init(parsing text: String) throws(ImageRequestError) {
        var rest = Substring(text)
        mirrored = rest.first == "!"
        if mirrored { rest = rest.dropFirst() }
        guard let value = IIIFNumber.decimal(rest) else {
            throw .badRequest("rotation", text, "expected n or !n, n a number of degrees from 0 to 360")
        }
        guard value <= 360 else { throw .badRequest("rotation", text, "the angle must not be greater than 360") }
        degrees = value
    }

    /// The rotation as a quarter turn this service offers (0, 90, 180 or 270; 360 is 0), or nil for any other
    /// angle.
    public var quarterTurnDegrees: Int? {
        switch degrees {
        case 0, 360: 0
        case 90: 90
        case 180: 180
        case 270: 270
        default: nil
        }
    }

    /// The rotation's text form.
    public var description: String { (mirrored ? "!" : "") + IIIFNumber.text(degrees) }
}

/// The quality part of a IIIF image request (Image API 3.0 section 4.4).
public enum IIIFQuality: String, Hashable, Sendable, CaseIterable {
    case `default`, color, gray, bitonal

    /// Whether this service offers the quality: all but `bitonal`.
    public var isOffered: Bool { self != .bitonal }
}

/// The format part of a IIIF image request (Image API 3.0 section 4.5).
public enum IIIFFormat: String, Hashable, Sendable, CaseIterable {
    case jpg, tif, png, gif, jp2, pdf, webp

    /// Whether this service offers the format: `jpg` and `png` (level 2), and `webp` (listed in `extraFormats`).
    public var isOffered: Bool { self == .jpg || self == .png || self == .webp }

    /// The media type of the format.
    public var mediaType: String {
        switch self {
        case .jpg: "image/jpeg"
        case .tif: "image/tiff"
        case .png: "image/png"
        case .gif: "image/gif"
        case .jp2: "image/jp2"
        case .pdf: "application/pdf"
        case .webp: "image/webp"
        }
    }
}

/// A IIIF Image API 3.0 image request, `{region}/{size}/{rotation}/{quality}.{format}`, that this service
/// offers.
public struct IIIFImageRequest: Hashable, Sendable, CustomStringConvertible {
    public var region: IIIFRegion
    public var size: IIIFSize
    public var rotation: IIIFRotation
    public var quality: IIIFQuality
    public var format: IIIFFormat

    /// A request from its parts, unchecked.
    public init(
        region: IIIFRegion, size: IIIFSize, rotation: IIIFRotation, quality: IIIFQuality, format: IIIFFormat
    ) {
        self.region = region
        self.size = size
        self.rotation = rotation
        self.quality = quality
        self.format = format
    }

    /// Parses the four path parts as they come after percent-decoding; `qualityAndFormat` is
    /// `{quality}.{format}`.
    ///
    /// Throws a 400 error for the first part (in path order) that is not valid syntax, then a 501 error for
    /// the first that is valid but not offered: a rotation other than a multiple of 90 degrees, the `bitonal`
    /// quality, a format other than `jpg` and `png`.
    public init(
        region: String, size: String, rotation: String, qualityAndFormat: String
    ) throws(ImageRequestError) {
        self.region = try IIIFRegion(parsing: region)
        self.size = try IIIFSize(parsing: size)
        self.rotation = try IIIFRotation(parsing: rotation)
        guard let dot = qualityAndFormat.lastIndex(of: ".") else {
            throw .badRequest("quality and format", qualityAndFormat, "expected {quality}.{format}")
        }
        let qualityText = qualityAndFormat[..<dot]
        let formatText = qualityAndFormat[qualityAndFormat.index(after: dot)...]
        guard let quality = IIIFQuality(rawValue: String(qualityText)) else {
            throw .badRequest("quality", qualityText, "expected default, color, gray or bitonal")
        }
        guard let format = IIIFFormat(rawValue: String(formatText)) else {
            throw .badRequest("format", formatText, "expected jpg, png, tif, gif, jp2, pdf or webp")
        }
        self.quality = quality
        self.format = format

        guard self.rotation.quarterTurnDegrees != nil else {
            throw .notImplemented("rotation", rotation, "only 0, 90, 180 and 270, optionally mirrored, are offered")
        }
        guard quality.isOffered else {
            throw .notImplemented("quality", qualityText, "only default, color and gray are offered")
        }
        guard format.isOffered else {
            throw .notImplemented("format", formatText, "only jpg, png and webp are offered")
        }
    }

    /// Parses a path `{region}/{size}/{rotation}/{quality}.{format}` (the part after the identifier, already
    /// percent-decoded part by part), with the errors of `init(region:size:rotation:qualityAndFormat:)`.
    public init(path: String) throws(ImageRequestError) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4 else {
            throw .badRequest(
                "request", path, "expected {region}/{size}/{rotation}/{quality}.{format}, got \(parts.count) parts")
        }
        try self.init(
            region: String(parts[0]), size: String(parts[1]), rotation: String(parts[2]),
            qualityAndFormat: String(parts[3]))
    }

    /// The request's path form.
    public var description: String { "\(region)/\(size)/\(rotation)/\(quality.rawValue).\(format.rawValue)" }

    /// What the request asks of an image whose oriented size is `imageSize`, under `limits`.
    ///
    /// Throws a 400 error when the region lies outside the image or the size is impossible (see
    /// `IIIFRegion.resolve(imageSize:)` and `IIIFSize.resolve(region:limits:)`), and a 501 error for a rotation
    /// that is not a quarter turn (possible only for a request built from its parts).
    public func resolve(imageSize: PixelSize, limits: IIIFLimits = IIIFLimits()) throws(ImageRequestError)
        -> IIIFResolved
    {
        let regionRect = try region.resolve(imageSize: imageSize)
        let scaled = try size.resolve(region: regionRect.size, limits: limits)
        guard let degrees = rotation.quarterTurnDegrees else {
            throw .notImplemented(
                "rotation", rotation.description, "only 0, 90, 180 and 270, optionally mirrored, are offered")
        }
        guard quality.isOffered else {
            throw .notImplemented("quality", quality.rawValue, "only default, color and gray are offered")
        }
        guard format.isOffered else {
            throw .notImplemented("format", format.rawValue, "only jpg, png and webp are offered")
        }
        return IIIFResolved(
            region: regionRect, scaledSize: scaled, rotationDegrees: degrees, mirrored: rotation.mirrored,
            quality: quality, format: format)
    }
}

/// A IIIF image request resolved against one image: what to cut, how large to scale it, how to turn it and
/// what to encode.
public struct IIIFResolved: Hashable, Sendable {
    /// The region in the oriented image's pixels, inside the image and not empty.
    public var region: PixelRect
    /// The size the region is scaled to, before rotation.
    public var scaledSize: PixelSize
    /// The clockwise rotation after mirroring: 0, 90, 180 or 270.
    public var rotationDegrees: Int
    /// Whether the scaled region is mirrored about its vertical axis before rotating.
    public var mirrored: Bool
    public var quality: IIIFQuality
    public var format: IIIFFormat

    public init(
        region: PixelRect, scaledSize: PixelSize, rotationDegrees: Int, mirrored: Bool, quality: IIIFQuality,
        format: IIIFFormat
    ) {
        self.region = region
        self.scaledSize = scaledSize
        self.rotationDegrees = rotationDegrees
        self.mirrored = mirrored
        self.quality = quality
        self.format = format
    }

    /// The size of the returned image: the scaled size, width and height swapped for 90 and 270 degrees.
    public var outputSize: PixelSize {
        rotationDegrees % 180 == 0
            ? scaledSize : PixelSize(width: scaledSize.height, height: scaledSize.width)
    }
}
