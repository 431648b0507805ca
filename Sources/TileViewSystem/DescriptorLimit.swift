#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's limit on open descriptors (RLIMIT_NOFILE), which a server's connections count against.
public enum DescriptorLimit {
    /// Raises the soft limit to the hard one (a server is the process that needs them), and returns the soft limit in
    /// force after, or nil when it cannot be read.
    @discardableResult
    public static func raiseToHard() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// Descriptors kept free of connections: the listening socket, standard streams, the files being decoded (one
    /// per render and per entropy index kept), the log.
    public static let reserved = 64
}
