import ArgumentParser
import TileViewCodecs

/// The decoding flags shared by every subcommand that reads images.
struct DecodeOptionGroup: ParsableArguments {
    @Flag(name: .customLong("no-orient"), help: "Keep the stored pixel layout: do not apply the EXIF orientation.")
    var noOrient = false

    @Flag(help: "Render what decoded from damaged or truncated data, with a warning, instead of failing.")
    var lenient = false

    @Option(name: .customLong("max-pixels"), help: "Refuse images with more pixels than this, before decoding.")
    var maxPixels: Int = 1_000_000_000

    @Flag(help: "Also print libpng's benign warnings about ancillary chunks (colour profile, gamma, text...).")
    var verbose = false

    func validate() throws {
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be a positive number") }
    }

    var decodeOptions: DecodeOptions {
        DecodeOptions(applyOrientation: !noOrient, lenient: lenient, maxPixels: maxPixels)
    }
}
