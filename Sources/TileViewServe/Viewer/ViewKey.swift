import TileView

/// The key view tokens are signed with when `--sign-key` gives none (docs/design.md section 18).
public enum ViewKey {
    /// The key file's name in the cache folder.
    public static let fileName = "view-key"
    public static let bytes = 32

    /// 32 random bytes: tokens valid for this process only.
    public static func random() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The key kept in `folder` (the cache folder, which replicas share and restarts keep): read when it is there,
    /// else made (32 random bytes, readable by the owner only) by whichever process gets there first.
    public static func kept(in folder: String) throws(TileViewError) -> [UInt8] {
        let path = folder + "/" + fileName
        try AtomicFile.makeDirectory(folder)
        _ = try AtomicFile.createOnce(random(), at: path)
        let key = try TextFile.readBytes(path, limit: 4096)
        guard key.count >= bytes else {
            throw TileViewError(.input, path: path, reason: "holds \(key.count) bytes, under a key's \(bytes)")
        }
        return key
    }
}
