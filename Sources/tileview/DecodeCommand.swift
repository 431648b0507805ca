import ArgumentParser
import TileView
import TileViewCLI
import TileViewCodecs

/// `tileview decode FILE -o OUT.png`: the full image, 8-bit, as PNG.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode a whole image and write it as an 8-bit PNG (RGB when opaque, else RGBA).",
        usage: "tileview decode <file> -o <output.png> [--compression <0-9>] [<decoding options>]",
        discussion: "The output is written atomically: on any failure no output file is left behind."
    )

    @Argument(help: "An image file: PNG, JPEG, WebP, HEIC or AVIF, TIFF, GIF (the format comes from the content).")
    var file: String

    @Option(name: .shortAndLong, help: "The PNG file to write.")
    var output: String

    @OptionGroup var decoding: DecodeOptionGroup

    @Option(
        help:
            "zlib level of the PNG, 0 (none) to 9 (smallest), with zlib's default strategy; without it, only runs of a repeated byte are coded (what zlib's Z_RLE finds, by tileview's own deflate: faster, and on photos smaller than level 2)."
    )
    var compression: Int?

    func validate() throws {
        guard (0...9).contains(compression ?? 0) else { throw ValidationError("--compression must be 0 to 9") }
        try OutputNames.requirePNG(output)
    }

    func run() throws {
        Report.verbose = decoding.verbose
        try Report.failures {
            // The whole image, its decoder's working memory and its PNG encoding (about as large again), checked
            // from the header the decoder reads (the file is read once).
            let limit = decoding.memoryLimitBytes
            // Stored values and the source's profile by default (docs/design.md section 14); --color srgb converts.
            var decodeOptions = decoding.decodeOptions
            decodeOptions.color = decoding.color ?? .keep
            // A HEIF grid's rows of tiles are decoded at once (the command has the processors to itself).
            let parts = DecodeParts.threads
            let decoded = try ImageFiles.decode(file: file, options: decodeOptions, parts: parts) {
                (header) throws(CodecError) in
                var memory = MemoryEstimate()
                memory.add("image and decoder", bytes: header.wholeDecodeBytes)
                if header.decoderPartBytes > 0 { memory.add("tiles decoded at once", bytes: parts.unitBytes(header)) }
                memory.add("PNG encoding", bytes: MemoryEstimate.frameBytes(header.orientedSize))
                if memory.bytes > limit {
                    throw CodecError(
                        .tooLarge,
                        "decoding \(header.orientedSize) whole needs \(memory), over the memory limit of \(MemoryEstimate.mebibytes(limit)) (--max-memory MiB raises it; tileview zoom shows any part of it in far less)"
                    )
                }
            }
            for warning in decoded.warnings { Report.warning("\(file): \(warning)") }
            var options = PNGEncodeOptions()
            if let compression { options.compression = .level(compression) }
            if decodeOptions.color == .keep {
                options = decoded.header.color.embedding(in: options, grayOK: decoded.image.isOpaque)
            }
            try ImageFiles.writePNG(decoded.image, to: output, options: options)
        }
    }
}
