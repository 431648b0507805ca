#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Facts about the process and the system it runs on.
public enum SystemInfo {
    /// The number of processors this process may run on (at least 1).
    public static var availableProcessors: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// Whether standard error is a terminal (progress lines are shown only then).
    public static var standardErrorIsTerminal: Bool { isatty(2) != 0 }
}

/// The text of the current `errno`.
package func errnoText() -> String { String(cString: strerror(errno)) }
