import TileViewCore

extension ImageHeader {
    /// The memory a decoder must hold at once for this image, whatever rect and level a frame asks for, beyond
    /// the pixels it delivers: an interlaced (Adam7) PNG is decoded whole (4 bytes a pixel); a progressive JPEG
    /// keeps every DCT coefficient (2 bytes a sample: 1.5 samples a pixel for 4:2:0, 2 for 4:2:2 and 4:4:0, one
    /// per component otherwise). Sequential files are read in bands, which this does not count. The other formats
    /// say what their decoder holds (`decoderWorkingBytes`).
    public var decodeWorkingBytes: Int {
        if format != .png && format != .jpeg { return decoderWorkingBytes }
        let pixels = storedSize.pixelCount
        if format == .png && isInterlaced {
            return pixels.multipliedReportingOverflow(by: 4).overflow ? .max : pixels * 4
        }
        guard format == .jpeg && isProgressive else { return 0 }
        let chroma: Double =
            switch chromaSubsampling {
            case "4:2:0": 0.25
            case "4:2:2", "4:4:0": 0.5
            default: 1
            }
        let samples = 1 + Double(max(0, components - 1)) * chroma
        let bytes = Double(pixels) * samples * 2
        return bytes >= Double(Int.max) ? .max : Int(bytes)
    }

    /// Why the decoder holds `decodeWorkingBytes` at once, in a few words ("a progressive JPEG keeps every
    /// coefficient").
    public var decodeWorkingReason: String {
        switch format {
        case .png: "an interlaced PNG is decoded whole"
        case .jpeg: "a progressive JPEG keeps every coefficient"
        default: decodesWhole ? "a \(format) image is decoded whole" : "a strip or a row of tiles"
        }
    }

    /// What decoding the whole image into one RGBA buffer holds at its peak: the buffer and the decoder's working
    /// memory (`tileview decode`, before its PNG encoding, which needs about as much again).
    public var wholeDecodeBytes: Int {
        let (buffer, overflow) = orientedSize.pixelCount.multipliedReportingOverflow(by: 4)
        guard !overflow else { return .max }
        let (sum, more) = buffer.addingReportingOverflow(decodeWorkingBytes)
        return more ? .max : sum
    }
}
