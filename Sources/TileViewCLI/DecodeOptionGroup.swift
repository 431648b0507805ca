import ArgumentParser
import TileView
import TileViewCodecs
import TileViewCore

/// The decoding flags shared by every subcommand that reads images.
public struct DecodeOptionGroup: ParsableArguments {
    public init() {}

    @Flag(name: .customLong("no-orient"), help: "Keep the stored pixel layout: do not apply the EXIF orientation.")
    public var noOrient = false

    @Flag(help: "Render what decoded from damaged or truncated data, with a warning, instead of failing.")
    public var lenient = false

    @Option(name: .customLong("max-pixels"), help: "Refuse images with more pixels than this, before decoding.")
    public var maxPixels: Int = 1_000_000_000

    @Option(
        name: .customLong("max-memory"),
        help: ArgumentHelp(
            "Refuse, before allocating, a run whose frames and decoding would need more than this (default: 3/4 of physical memory, and the room under ulimit -v).",
            valueName: "MiB"))
    public var maxMemory: Int?

    @Option(
        help: ArgumentHelp(
            "srgb: show colours as a colour-managed sRGB screen does, converting from the file's ICC profile (or PNG sRGB/cHRM/gAMA, or EXIF R03); keep: stored values, and a PNG written from one profile carries it (default: srgb; decode: keep).",
            valueName: "srgb|keep"))
    public var color: ColorMode?

    @Flag(help: "Also print libpng's benign warnings about ancillary chunks (colour profile, gamma, text...).")
    public var verbose = false

    public func validate() throws {
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be a positive number") }
        if let maxMemory, maxMemory <= 0 { throw ValidationError("--max-memory must be a positive number of MiB") }
    }

    /// The run's memory limit in bytes (`MemoryLimit`).
    public var memoryLimitBytes: Int { MemoryLimit.bytes(requestedMiB: maxMemory) }

    /// The decoding options, with no memory set aside for frames (decoding may use the whole limit).
    public var decodeOptions: DecodeOptions { decodeOptions(leaving: MemoryEstimate()) }

    /// The decoding options of a run whose frames need `frames`: decoding one image may hold what the limit
    /// leaves beside them.
    public func decodeOptions(leaving frames: MemoryEstimate) -> DecodeOptions {
        let limit = memoryLimitBytes
        return DecodeOptions(
            applyOrientation: !noOrient, lenient: lenient, maxPixels: maxPixels,
            maxMemoryBytes: max(0, limit - frames.bytes), memoryLimitBytes: limit, color: color ?? .srgb)
    }

    /// Refuses a run whose frames alone (`estimate`, of which `frameBytes` scale with the viewport) exceed the
    /// memory limit: exit 1 naming the viewport, what the run needs, and the largest viewport that fits.
    public func requireRoom(
        for estimate: MemoryEstimate, frameBytes: Int, viewport: PixelSize, job: String
    ) throws(TileViewError) {
        let limit = memoryLimitBytes
        guard estimate.bytes > limit else { return }
        var reason = "\(job) needs \(estimate), over the memory limit of \(MemoryEstimate.mebibytes(limit))"
        if let fit = estimate.largestViewport(like: viewport, frameBytes: frameBytes, limit: limit) {
            reason += "; a viewport up to \(fit) fits"
        }
        throw TileViewError(
            .input, path: "--viewport \(viewport)", reason: reason + " (--max-memory MiB raises the limit)")
    }
}

extension ColorMode: ExpressibleByArgument {}
