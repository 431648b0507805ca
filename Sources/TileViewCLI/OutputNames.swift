import ArgumentParser

/// Output files are PNG: a name that says another image format would hold PNG bytes under the wrong name.
public enum OutputNames {
    /// Extensions of image formats other than PNG.
    static let otherFormats: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "webp", "gif", "tif", "tiff", "heic", "heif", "avif", "bmp", "jxl", "jp2",
    ]

    /// Refuses (exit 64) an output file named like another image format: `-o a.jpg` would be a PNG named .jpg.
    /// A name without an extension, `.png`, or an extension that names no image format is accepted.
    public static func requirePNG(_ path: String, option: String = "-o") throws {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return }
        let ext = name[name.index(after: dot)...].lowercased()
        guard otherFormats.contains(ext) else { return }
        let stem = name[..<dot]
        throw ValidationError(
            "\(option) \(path): tileview writes PNG files, and a .\(ext) name would hold PNG bytes; name it \(stem).png"
        )
    }
}
