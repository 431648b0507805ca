#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process as a whole: becoming another program, ending at once, where the running executable is, and the
/// system's numbers for the errors the server's start-up names.
public enum ProcessControl {
    /// Replaces this process with the program at `path`, given `arguments` (its first word included). Returns only
    /// when that fails, with the system's reason.
    public static func become(_ path: String, arguments: [String]) -> String {
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        execv(path, argv)
        let reason = String(cString: strerror(errno))
        for pointer in argv { free(pointer) }
        return reason
    }

    /// Ends the process with `status` now, without waiting for other threads (exit handlers still run).
    public static func exitNow(_ status: Int32) -> Never { exit(status) }

    /// The running executable's path (`/proc/self/exe`, symbolic links resolved), or nil where the system does
    /// not say.
    public static var executablePath: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The system's error numbers a server's start-up tells apart.
    public enum ErrorNumber {
        public static let addressInUse = EADDRINUSE
        public static let permissionDenied = EACCES
        public static let addressNotAvailable = EADDRNOTAVAIL
    }
}
