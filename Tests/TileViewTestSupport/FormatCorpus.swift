import Foundation

/// One file of the formats corpus (`Tests/Corpus/formats/manifest.json`, made by `scripts/make-format-corpus.sh`):
/// WebP, HEIF, AVIF, TIFF and GIF files with what libvips decodes them to.
public struct FormatRecord: Decodable, Sendable, CustomStringConvertible {
    public let file: String
    /// "webp", "heif", "avif", "tiff" or "gif".
    public let format: String
    /// "ok", "error" (must fail cleanly) or "ok-lossy" (damaged: any picture of the size, or an error).
    public let expected: String
    public let category: String?
    /// Stored size (the claimed size for an error file).
    public let width: Int?
    public let height: Int?
    /// 1...8 (TIFF Orientation, WebP Exif); HEIF's irot/imir are applied by the decoder, so 1.
    public let orientation: Int?
    public let orientedWidth: Int?
    public let orientedHeight: Int?
    public let bitDepth: Int?
    /// "rgb", "rgba", "gray", "palette", "cmyk", ... (CMYK references are converted to sRGB through the profile).
    public let color: String?
    public let hasAlpha: Bool?
    /// Pages, frames or top-level images.
    public let frames: Int?
    /// SHA-256 of the stored values as RGBA8, and after conversion to sRGB through the file's profile.
    public let sha256Rgba8: String?
    public let sha256Rgba8Srgb: String?
    /// RGBA8 PNGs of the same pixels (small files only), for comparisons within `tolerance`.
    public let referencePng: String?
    public let referencePngSrgb: String?
    /// The largest per-channel difference a correct decoder may show.
    public let tolerance: Int?
    public let toleranceSrgb: Int?
    /// A pyramid's reduced copies, [width, height] each.
    public let levels: [[Int]]?
    /// The SHA-256 of each reduced copy's pixels, as libvips decodes it.
    public let levelsSha256Rgba8: [String]?

    public var url: URL { FormatCorpus.root.appendingPathComponent(file) }
    public var description: String { file }
}

public enum FormatCorpus {
    public static let root = Fixtures.corpusRoot.appendingPathComponent("formats")

    /// Every record, in manifest order.
    public static let records: [FormatRecord] = Fixtures.manifestFiles(
        FormatRecord.self, at: root.appendingPathComponent("manifest.json"), what: "the formats corpus manifest")

    public static func record(_ file: String) -> FormatRecord {
        guard let found = records.first(where: { $0.file == file }) else { fatalError("\(file) is not in the corpus") }
        return found
    }
}
