/// Joining file paths as the user wrote them (no normalisation: `out` and `out/` both give `out/name`).
public enum Paths {
    /// `folder/name`, without doubling a trailing slash.
    public static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
