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
        if let known = known(path) { return known }
        let header = try read(path)
        remember(header, of: path)
        return header
    }

    /// The header of `path` if it was read already.
    public func known(_ path: String) -> ImageHeader? { headers.withLock { $0[path] } }

    /// Keeps `header` as the header of `path`.
    public func remember(_ header: ImageHeader, of path: String) { headers.withLock { $0[path] = header } }
}
