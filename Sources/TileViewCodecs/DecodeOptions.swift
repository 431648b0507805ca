/// How a decoder treats orientation, damaged data and very large images.
public struct DecodeOptions: Sendable, Equatable {
    /// Turn the pixels upright by the EXIF orientation (JPEG APP1, PNG eXIf). The streaming
    /// readers always deliver stored pixels and ignore this.
    public var applyOrientation: Bool
    /// Keep what could be decoded and report libjpeg warnings and decoding errors in
    /// `warnings` instead of failing; rows after an error are transparent. Strict (false): any
    /// libjpeg warning is an error. libpng reads image data in blocks of up to 8 KB that must
    /// arrive whole, so a truncated PNG also loses the rows of its last partial block.
    public var lenient: Bool
    /// Largest stored width * height accepted; checked from the header before any pixel
    /// memory is allocated.
    public var maxPixels: Int
    /// The most memory decoding one image may hold at once (`ImageHeader.decodeWorkingBytes`): an image that
    /// needs more is refused from its header, before anything is allocated. A run sets it to what its memory
    /// limit leaves beside its frames (`--max-memory`).
    public var maxMemoryBytes: Int
    /// The run's whole memory limit, quoted when an image is refused.
    public var memoryLimitBytes: Int
    /// `.srgb`: decoded pixels are converted to sRGB from the source's colour description (docs/design.md section 14),
    /// as frames show them; `.keep`: stored values.
    public var color: ColorMode

    public init(
        applyOrientation: Bool = true, lenient: Bool = false, maxPixels: Int = 1_000_000_000,
        maxMemoryBytes: Int = .max, memoryLimitBytes: Int = .max, color: ColorMode = .srgb
    ) {
        self.color = color
        self.applyOrientation = applyOrientation
        self.lenient = lenient
        self.maxPixels = maxPixels
        self.maxMemoryBytes = maxMemoryBytes
        self.memoryLimitBytes = memoryLimitBytes
    }
}

extension DecodeOptions: CustomStringConvertible {
    /// The options that change pixels, as a frame journal names a job with them: the memory limits change only
    /// whether a run is refused, so a run resumed under another limit (or on another machine) is the same job.
    public var description: String {
        "DecodeOptions(applyOrientation: \(applyOrientation), lenient: \(lenient), maxPixels: \(maxPixels)"
            + (color == .srgb ? ")" : ", color: \(color))")
    }
}
