/// Decodes an image file, whichever format the bytes are (`ImageFormat`), to upright RGBA8.
public enum ImageDecoder {
    /// The whole image, decoded by the format's decoder (see `PNGDecoder.decode` and
    /// `JPEGDecoder.decode`): format sniffed from the content, pixel limit checked from the
    /// header before any pixel memory, orientation applied unless disabled. `accepting` sees the header as
    /// the decoder read it, before any pixel memory, and may refuse the image by throwing (a caller's memory
    /// check: the file is read once). `parts`: how a HEIF grid's rows of tiles may be decoded at once
    /// (`ImageRowReader.parts`; other formats decode as without it).
    public static func decode(
        _ source: ImageSource, options: DecodeOptions = DecodeOptions(), parts: DecodeParts? = nil,
        accepting: (ImageHeader) throws(CodecError) -> Void = { _ in }
    ) throws(CodecError) -> DecodedImage {
        switch try ImageFormat.detect(in: source) {
        case .png: return try PNGDecoder.decode(source, options: options, accepting: accepting)
        case .jpeg: return try JPEGDecoder.decode(source, options: options, accepting: accepting)
        case let format:
            return try ImageRowReader.decode(
                source, format: format, options: options, parts: parts, accepting: accepting)
        }
    }
}
