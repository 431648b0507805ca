/// What frames do with a source's colours (docs/design.md section 14).
public enum ColorMode: String, Sendable, Equatable, CaseIterable {
    /// Convert to sRGB, as a colour-managed sRGB display shows the image (frames' default).
    case srgb
    /// Stored values, untransformed (`decode`'s default).
    case keep
}

/// How a source describes its colours, read once with its header: an ICC profile (JPEG APP2 markers, PNG iCCP),
/// else a PNG sRGB chunk, else PNG cHRM and gAMA, else EXIF InteropIndex R03 (Adobe RGB without a profile), else
/// sRGB assumed. A value: the transform it implies is looked up by `ColorTransform.cached`.
public struct ColorDescription: Sendable, Equatable {
    public enum Origin: String, Sendable, Equatable {
        /// Nothing said: sRGB (a CMYK JPEG without a profile keeps djpeg's rule).
        case assumed
        /// A PNG sRGB chunk.
        case srgbChunk
        /// An embedded ICC profile.
        case iccProfile
        /// PNG cHRM and gAMA chunks.
        case chromaticities
        /// EXIF InteroperabilityIndex "R03": Adobe RGB (1998) without a profile.
        case exifAdobeRGB
    }

    public var origin: Origin
    /// The name people know the space by: the profile's description ("Adobe RGB (1998)"), "sRGB", "sRGB
    /// (assumed)".
    public var name: String
    /// The ICC profile's bytes: the embedded one, or one made from chromaticities or for R03. Nil for sRGB.
    public var profile: [UInt8]?
    /// True when frames need no transform: the colours are sRGB's (untagged, an sRGB chunk, or a profile whose
    /// transform to sRGB moves no 8-bit value by more than one level).
    public var isSRGB: Bool
    /// Why a profile the file carries was not used (cut short, unreadable, of the wrong kind); then the file is
    /// treated as if it had none, and this is the warning.
    public var problem: String?
    /// The conversion to sRGB (nil when `isSRGB`), shared by every file with the same profile.
    public internal(set) var transform: ColorTransform?
    /// The samples the description is of: RGB, gray (decoded as R = G = B) or CMYK (whose kept values are djpeg's
    /// rule, which no profile describes).
    public internal(set) var layout: ColorLayout = .rgb

    public init(origin: Origin, name: String, profile: [UInt8]? = nil, isSRGB: Bool, problem: String? = nil) {
        self.origin = origin
        self.name = name
        self.profile = profile
        self.isSRGB = isSRGB
        self.problem = problem
    }

    /// sRGB assumed: what an untagged file is.
    public static let assumedSRGB = ColorDescription(origin: .assumed, name: "sRGB (assumed)", isSRGB: true)

    /// A CMYK JPEG without a profile: stored inks through djpeg's rule (docs/design.md section 8).
    public static let unmanagedCMYK = ColorDescription(origin: .assumed, name: "CMYK (no profile)", isSRGB: true)

    /// The profile to embed in a PNG that keeps stored values (`--color keep`, `decode`): nil when the colours are
    /// sRGB's already, and for CMYK (the values kept are djpeg's RGB of the inks, which no profile describes). A
    /// gray profile goes only into a gray PNG (`embedding(in:)`).
    public var profileToEmbed: [UInt8]? { isSRGB || layout == .cmyk || layout == .cmykInverted ? nil : profile }

    /// The warning of an unusable profile, as a decoder reports it.
    var warning: String? {
        problem.map { "its colour profile is ignored (\($0)); colours are taken as sRGB" }
    }
}

extension ColorDescription {
    /// Equal descriptions say the same (the transform follows from them).
    public static func == (a: ColorDescription, b: ColorDescription) -> Bool {
        a.origin == b.origin && a.name == b.name && a.profile == b.profile && a.isSRGB == b.isSRGB
            && a.problem == b.problem && a.layout == b.layout
    }
}

extension ColorDescription {
    /// The one description every element names (each a kept colour, nil for sRGB), when they agree and there is
    /// at least one: a frame that shows several images carries a profile only when they share it.
    public static func shared(_ descriptions: [ColorDescription?]) -> ColorDescription? {
        guard let first = descriptions.first ?? nil, let profile = first.profileToEmbed, first.layout != .gray else {
            return nil
        }
        return descriptions.allSatisfy { $0?.profileToEmbed == profile } ? first : nil
    }

    /// PNG options that carry this description's profile (none for sRGB). PNG allows a gray profile only in a gray
    /// PNG: `grayOK` says the image is opaque gray (R = G = B), and then the PNG is written gray with it; otherwise a
    /// gray profile is left out.
    public func embedding(in options: PNGEncodeOptions, grayOK: Bool = false) -> PNGEncodeOptions {
        var options = options
        guard let profile = profileToEmbed, layout != .gray || grayOK else { return options }
        if layout == .gray { options.colorType = .gray }
        options.iccProfile = profile
        options.iccProfileName = name
        return options
    }
}

/// Adobe RGB (1998) by its numbers (Adobe's specification): D65 white, its primaries, gamma 563/256. The space
/// that EXIF InteropIndex R03 names.
extension ColorDescription {
    static let adobeRGBChromaticities = (
        white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.21, 0.71), blue: (0.15, 0.06), gamma: 563.0 / 256.0
    )
}
