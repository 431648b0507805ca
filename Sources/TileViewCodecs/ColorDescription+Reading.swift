/// What a file's header says about its colours, as the decoders find it: the inputs of docs/design.md section 14's
/// order.
struct ColorFacts {
    /// The ICC profile (JPEG APP2 markers joined, PNG iCCP), or nil.
    var icc: [UInt8]?
    /// Why the file's ICC markers could not be joined into a profile.
    var iccProblem: String?
    /// A PNG sRGB chunk.
    var srgbChunk = false
    /// PNG cHRM with gAMA (gamma as the decoding exponent).
    var chromaticities:
        (
            white: (Double, Double), red: (Double, Double), green: (Double, Double),
            blue: (Double, Double), gamma: Double
        )?
    /// The EXIF TIFF structure (for InteropIndex R03).
    var exif: [UInt8]?
    /// The layout of the decoded pixels a transform reads.
    var layout: ColorLayout
    /// What the chromaticities are called in the description (a HEIF nclx box's are named for it).
    var chromaticitiesName = "PNG cHRM and gAMA"
}

extension ColorDescription {
    /// The description of a file, and the transform to sRGB its frames take (nil when the colours are sRGB's). A
    /// profile lcms2 cannot use is recorded as `problem` and the file is read as if it had none.
    static func read(_ facts: ColorFacts) -> (ColorDescription, ColorTransform?) {
        var (description, transform) = resolve(facts)
        description.transform = transform
        description.layout = facts.layout
        return (description, transform)
    }

    private static func resolve(_ facts: ColorFacts) -> (ColorDescription, ColorTransform?) {
        var problem = facts.iccProblem
        if let icc = facts.icc {
            switch ColorTransform.cached(icc: icc, layout: facts.layout) {
            case .transform(let transform):
                let name = transform.profileDescription.isEmpty ? "ICC profile" : transform.profileDescription
                let description = ColorDescription(
                    origin: .iccProfile, name: name, profile: icc,
                    isSRGB: transform.isIdentity)
                return (description, transform.isIdentity ? nil : transform)
            case .failure(let error):
                problem = error.message
            }
        }
        var description: ColorDescription
        var transform: ColorTransform?
        let isCMYK = facts.layout == .cmyk || facts.layout == .cmykInverted
        if facts.srgbChunk {
            description = ColorDescription(origin: .srgbChunk, name: "sRGB", isSRGB: true)
        } else if let c = facts.chromaticities, !isCMYK,
            case .transform(let made) = ColorTransform.cached(
                white: c.white, red: c.red, green: c.green, blue: c.blue, gamma: c.gamma,
                name: facts.chromaticitiesName,
                layout: facts.layout)
        {
            description = ColorDescription(
                origin: .chromaticities, name: made.isIdentity ? "sRGB" : facts.chromaticitiesName,
                profile: made.madeProfile, isSRGB: made.isIdentity)
            transform = made.isIdentity ? nil : made
        } else if facts.layout == .rgb, let exif = facts.exif, ExifColorHint.isAdobeRGB(inTIFF: exif),
            case .transform(let made) = Self.adobeRGB
        {
            description = ColorDescription(
                origin: .exifAdobeRGB, name: "Adobe RGB (1998)", profile: made.madeProfile, isSRGB: false)
            transform = made
        } else {
            description = isCMYK ? .unmanagedCMYK : .assumedSRGB
        }
        description.problem = problem
        return (description, transform)
    }

    /// Adobe RGB (1998) made from its numbers, for R03.
    static var adobeRGB: ColorTransform.Lookup {
        let c = adobeRGBChromaticities
        return ColorTransform.cached(
            white: c.white, red: c.red, green: c.green, blue: c.blue, gamma: c.gamma, name: "Adobe RGB (1998)",
            layout: .rgb)
    }
}
