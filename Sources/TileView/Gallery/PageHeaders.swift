import TileViewCodecs

/// The headers of a gallery's page files, read once: planning reads a page's header to know its size, and the
/// loader later opens the page from the same header instead of reading the file's start again.
public final class PageHeaders: Sendable {
    private let headers = Locked<[String: ImageHeader]>([:])

    public init() {}

    /// The header of `path`, read with `read` the first time it is asked for.
    public func header(
        of path: String, read: (String) throws(TileViewError) -> ImageHeader
    ) throws(TileViewError) -> ImageHeader {
        if let known = headers.withLock({ $0[path] }) { return known }
        let header = try read(path)
        headers.withLock { $0[path] = header }
        return header
    }
}
