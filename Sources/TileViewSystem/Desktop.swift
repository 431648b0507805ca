#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The user's desktop, when there is one: opening a URL in its browser.
public enum Desktop {
    /// Whether a graphical session is present (an X11 or Wayland display).
    public static var isPresent: Bool {
        let names: [String] = ["DISPLAY", "WAYLAND_DISPLAY"]
        return names.contains { (name: String) -> Bool in getenv(name).map { $0.pointee != 0 } ?? false }
    }

    /// Asks the desktop to open `url` (`xdg-open` on Linux, `open` on macOS) without waiting for it; false when
    /// there is no desktop or the opener could not be started.
    @discardableResult
    public static func open(_ url: String) -> Bool {
        guard isPresent else { return false }
        #if canImport(Darwin)
            let opener = "open"
        #else
            let opener = "xdg-open"
        #endif
        var pid = pid_t()
        let words: [String] = [opener, url]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { (word: String) in strdup(word) } + [nil]
        defer { for argument in arguments { free(argument) } }
        return posix_spawnp(&pid, opener, nil, nil, arguments, environ) == 0
    }
}
