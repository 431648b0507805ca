import ArgumentParser
import TileView
import TileViewCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `tileview serve ROOT`: checks the arguments, then becomes `tileview-serve` with the same words (`execv`: the
/// same process, so its pid, signals and exit status are the server's).
///
/// The HTTP server lives in its own executable because every command pays, before it reads an argument, for the
/// size of the binary: the loader relocates it, and each protocol conformance the argument parser looks up by
/// reflection scans all of its conformance records. With Hummingbird, SwiftNIO and Foundation linked in, the
/// binary had 8,284 records and 105,581 relocations, and `tileview --version` took 7.1 ms; without them, 4,131
/// and 41,553, and 3.6 ms (docs/benchmarks.md, "Start-up without the server").
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: ServeOptions.abstract, discussion: ServeOptions.discussion)

    @OptionGroup var options: ServeOptions

    func run() async throws {
        let server = ServerExecutable.path
        // The words after `serve`: the root command takes no options of its own before its subcommand.
        let words = CommandLine.arguments
        let rest = words.firstIndex(of: "serve").map { Array(words[($0 + 1)...]) } ?? []
        let argv: [UnsafeMutablePointer<CChar>?] = ([server] + rest).map { strdup($0) } + [nil]
        execv(server, argv)
        let reason = String(cString: strerror(errno))
        Report.error("\(server): \(reason) (tileview serve runs the tileview-serve installed beside tileview)")
        throw ExitCode.failure
    }
}

/// Where `tileview-serve` is: beside the running `tileview` (`/proc/self/exe`, symbolic links resolved; where
/// that is missing, the folder of the command's first word).
enum ServerExecutable {
    static var path: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let own =
            count > 0
            ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments[0]
        return Paths.join(own.lastIndex(of: "/").map { String(own[..<$0]) } ?? ".", "tileview-serve")
    }
}
