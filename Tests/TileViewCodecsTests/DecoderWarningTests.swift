import Testing
import TileViewCodecs

@Suite("decoder warnings: benign or not")
struct DecoderWarningTests {
    @Test(
        "libpng's notes about ancillary chunks are benign",
        arguments: [
            "iCCP: known incorrect sRGB profile", "iCCP: profile 'ICC Profile': 'GRAY': Gray color space not permitted",
            "sRGB: out of place", "gAMA: gamma value does not match sRGB", "cHRM: invalid values", "tEXt: CRC error",
            "zTXt: CRC error", "iTXt: bad keyword", "pHYs: invalid", "tIME: duplicate", "bKGD: invalid",
            "sBIT: invalid", "eXIf: duplicate", "iCCP: known incorrect sRGB profile (3 times)",
        ])
    func benign(_ text: String) {
        #expect(DecoderWarning.isBenign(text))
        #expect(DecoderWarning.isBenign(line: "photos/a.png: \(text)"))
    }

    @Test(
        "libjpeg warnings, critical chunks and lenient failures are not benign",
        arguments: [
            "Premature end of JPEG file", "Corrupt JPEG data: premature end of data segment",
            "Corrupt JPEG data: 12 extraneous bytes before marker 0xd9", "IDAT: Too much image data",
            "IHDR: bad", "PLTE: invalid palette", "Interlace handling should be turned on when using png_read_image",
            "truncated PNG data: the file ends before the image is complete (the last 65 of 300 rows are left transparent)",
            "3 more warnings", "", "iCCP", "iCCP:x", "i2CP: x",
        ])
    func notBenign(_ text: String) {
        #expect(!DecoderWarning.isBenign(text))
        #expect(!DecoderWarning.isBenign(line: "photos/a.png: \(text)"))
    }
}
