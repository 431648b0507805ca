import Foundation

/// The large images the benchmarks decode, made by `scripts/make-bench-images.sh`.
///
/// The folder is `$BENCH_IMAGES` when set, else `bench-images/` at the root of the tileview
/// package (found from this file's path, so any working directory works).
public enum BenchImages {
    /// 6000x4000 baseline JPEG, quality 90, 4:2:0.
    public static let photoJPEG = "photo-6000x4000.jpg"
    /// The same pixels as an RGB PNG (zlib level 6).
    public static let photoPNG = "photo-6000x4000.png"

    public static var folder: String {
        if let folder = ProcessInfo.processInfo.environment["BENCH_IMAGES"], !folder.isEmpty { return folder }
        // <root>/Benchmarks/Sources/BenchSupport/BenchImages.swift -> <root>/bench-images
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        return root.appendingPathComponent("bench-images").path
    }

    /// The path of `name` in the folder.
    public static func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }

    /// The names among `names` that are missing, and a message that says how to make them.
    public static func missing(_ names: [String]) -> (names: [String], message: String)? {
        let absent = names.filter { !FileManager.default.fileExists(atPath: path($0)) }
        guard !absent.isEmpty else { return nil }
        let message = """
            skipping: \(absent.joined(separator: ", ")) not found in \(folder).
            Make them with scripts/make-bench-images.sh (from the tileview root), or point BENCH_IMAGES at a \
            folder that holds them.
            """
        return (absent, message)
    }

    /// The bytes of `name`; stops the process with the missing-image message when it is absent.
    public static func bytes(_ name: String) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path(name)) else {
            FileHandle.standardError.write(Data((missing([name])?.message ?? "cannot read \(path(name))").utf8 + [10]))
            exit(2)
        }
        return [UInt8](data)
    }
}
