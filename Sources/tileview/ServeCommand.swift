import ArgumentParser
import TileView
import TileViewCLI

/// `tileview serve ROOT`: checks the arguments, then becomes `tileview-serve` with the same words (`execv`: the
/// same process, so its pid, signals and exit status are the server's), its first word `tileview serve` so that
/// the server's usage and help name the command the user typed.
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
        // The words after `serve`: the root command takes no options of its own before its subcommand.
        let words = CommandLine.arguments
        Self.becomeServer(arguments: words.firstIndex(of: "serve").map { Array(words[($0 + 1)...]) } ?? [])
    }

    /// The name `tileview-serve` goes by when `tileview serve` starts it (its first word).
    static let displayName = "tileview serve"

    /// Becomes `tileview-serve` with `arguments`; on failure, says why and exits 1.
    static func becomeServer(arguments: [String]) -> Never {
        let server = ServerExecutable.path
        let reason = ProcessControl.become(server, arguments: [displayName] + arguments)
        Report.error("\(server): \(reason) (tileview serve runs the tileview-serve installed beside tileview)")
        ProcessControl.exitNow(1)
    }
}

/// Where `tileview-serve` is: beside the running `tileview` (`/proc/self/exe`, symbolic links resolved; where
/// that is missing, the folder of the command's first word).
enum ServerExecutable {
    static var path: String {
        let own = ProcessControl.executablePath ?? CommandLine.arguments[0]
        return Paths.join(own.lastIndex(of: "/").map { String(own[..<$0]) } ?? ".", "tileview-serve")
    }
}
