import CImageCodecs
import Synchronization
import TileViewCore

/// The pixels a colour transform reads (`tv_color_layout`): RGBA8, gray replicated to RGBA8, or CMYK ink, stored or
/// inverted (an Adobe APP14 marker).
public enum ColorLayout: Int, Sendable, Hashable {
    case rgb = 0
    case gray = 1
    case cmyk = 2
    case cmykInverted = 3

    var shim: tv_color_layout { tv_color_layout(rawValue: UInt32(rawValue)) }
}

/// A transform to sRGB built by lcms2 from a profile, with what lcms2 says of the profile. Immutable: one transform
/// serves every thread that decodes the same kind of file (lcms2 keeps no state between calls).
public final class ColorTransform: Sendable {
    private nonisolated(unsafe) let handle: OpaquePointer
    public let layout: ColorLayout
    /// The profile's description ("Adobe RGB (1998)"), possibly empty.
    public let profileDescription: String
    /// The rendering intent used (0 perceptual, 1 relative colorimetric, 2 saturation, 3 absolute).
    public let intent: Int
    /// True when the transform moves no 8-bit value by more than one level: the profile is sRGB's.
    public let isIdentity: Bool
    /// The bytes of a profile made from chromaticities (to embed); nil for a transform of an embedded profile.
    let madeProfile: [UInt8]?

    private init(handle: OpaquePointer, layout: ColorLayout, info: tv_color_info, madeProfile: [UInt8]?) {
        self.handle = handle
        self.layout = layout
        profileDescription = withUnsafeBytes(of: info.description) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        intent = Int(info.intent)
        isIdentity = info.identity != 0
        self.madeProfile = madeProfile
    }

    deinit { tv_color_free(handle) }

    /// The transform of an ICC profile; throws when lcms2 cannot use it (the message says why).
    public convenience init(icc profile: [UInt8], layout: ColorLayout) throws(CodecError) {
        var handle: OpaquePointer?
        var info = tv_color_info()
        var error = tv_error()
        let status = profile.withUnsafeBufferPointer {
            tv_color_from_icc($0.baseAddress, $0.count, layout.shim, &handle, &info, &error)
        }
        guard status == TV_OK, let handle else { throw CodecError(profileStatus: status, error: error) }
        self.init(handle: handle, layout: layout, info: info, madeProfile: nil)
    }

    /// The transform of an RGB space given by its white point, primaries (CIE xy) and decoding gamma; the profile
    /// made of them is kept to embed (`madeProfile`).
    convenience init(
        white: (Double, Double), red: (Double, Double), green: (Double, Double), blue: (Double, Double),
        gamma: Double, name: String, layout: ColorLayout
    ) throws(CodecError) {
        var c = tv_chromaticities()
        (c.white_x, c.white_y, c.red_x, c.red_y) = (white.0, white.1, red.0, red.1)
        (c.green_x, c.green_y, c.blue_x, c.blue_y) = (green.0, green.1, blue.0, blue.1)
        c.gamma = gamma
        withUnsafeMutableBytes(of: &c.name) { raw in
            for (i, byte) in name.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        var handle: OpaquePointer?
        var info = tv_color_info()
        var error = tv_error()
        var bytes: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = tv_color_from_chromaticities(&c, layout.shim, &handle, &info, &bytes, &length, &error)
        guard status == TV_OK, let handle else { throw CodecError(profileStatus: status, error: error) }
        let made = bytes.map { Array(UnsafeBufferPointer(start: $0, count: length)) }
        tv_free(bytes)
        self.init(handle: handle, layout: layout, info: info, madeProfile: made)
    }

    /// Converts `rows` rows of `width` pixels, `rowBytes` apart, in place.
    public func apply(to pixels: UnsafeMutableRawPointer, width: Int, rows: Int, rowBytes: Int) {
        tv_color_apply(handle, pixels.assumingMemoryBound(to: UInt8.self), rowBytes, UInt32(width), UInt32(rows))
    }

    /// Converts the pixels of `image` (RGBA8 in an RGB or gray layout) in place.
    public func apply(to image: inout ImageBuffer) {
        precondition(layout == .rgb || layout == .gray, "CMYK transforms read ink, not RGBA")
        let (width, height) = (image.width, image.height)
        image.pixels.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            apply(to: base, width: width, rows: height, rowBytes: width * 4)
        }
    }

    /// The C handle, for a decoder that applies the transform to the rows it reads.
    var shimHandle: OpaquePointer { handle }
}

// MARK: - One transform per profile

extension ColorTransform {
    /// What a profile (or chromaticities) gave: the transform, or why there is none. Failures are kept too, so that
    /// a bad profile is parsed once.
    enum Lookup {
        case transform(ColorTransform)
        case failure(CodecError)
    }

    /// Transforms by profile digest and layout. lcms2 builds a transform in 1 to 50 ms (a CMYK table more), and a
    /// tile decode opens the file again for each band: the cache makes that a hash. Bounded: past 64 entries the
    /// oldest goes.
    private static let cache = Mutex(Remembered<String, Lookup>(capacity: 64))

    static func cached(key: String, make: () throws(CodecError) -> ColorTransform) -> Lookup {
        if let found = cache.withLock({ $0[key] }) { return found }
        let made: Lookup
        do throws(CodecError) { made = .transform(try make()) } catch { made = .failure(error) }
        return cache.withLock { cache in
            if let raced = cache[key] { return raced }
            cache.remember(made, for: key)
            return made
        }
    }

    /// The transform of an ICC profile, cached by its SHA-256 and layout.
    static func cached(icc profile: [UInt8], layout: ColorLayout) -> Lookup {
        cached(key: "icc \(layout.rawValue) \(SHA256.fastHex(profile))") { () throws(CodecError) in
            try ColorTransform(icc: profile, layout: layout)
        }
    }

    /// The transform of chromaticities, cached by their numbers.
    static func cached(
        white: (Double, Double), red: (Double, Double), green: (Double, Double), blue: (Double, Double),
        gamma: Double, name: String, layout: ColorLayout
    ) -> Lookup {
        let key = "xy \(layout.rawValue) \(white) \(red) \(green) \(blue) \(gamma) \(name)"
        return cached(key: key) { () throws(CodecError) in
            try ColorTransform(
                white: white, red: red, green: green, blue: blue, gamma: gamma, name: name, layout: layout)
        }
    }
}

extension CodecError {
    /// A profile the colour shim refused: the shim's message as it is (it names the profile's fault).
    init(profileStatus status: tv_status, error: tv_error) {
        let text = withUnsafeBytes(of: error.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        switch status {
        case TV_ERR_TRUNCATED: self.init(.truncated, text)
        case TV_ERR_UNSUPPORTED: self.init(.unsupported, text)
        case TV_ERR_LIMIT, TV_ERR_NOMEM: self.init(.tooLarge, text)
        default: self.init(.corrupt, text)
        }
    }
}
