import ArgumentParser
import TileView
import TileViewCLI

/// The `tileview` command: decode, zoom, page and render images the way a phone's viewer does.
@main
struct TileViewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tileview",
        abstract: "Decode, zoom and page through images the way a phone's photo viewer does, headless.",
        discussion: """
            Exit status: 0 success; 1 a file could not be read, decoded or written (the message on \
            standard error names the file and the reason); 64 a usage error.
            """,
        version: TileViewVersion.string,
        subcommands: [
            InfoCommand.self, DecodeCommand.self, ZoomCommand.self, GalleryCommand.self, FeedCommand.self,
            BenchCommand.self, ServeCommand.self, IndexCommand.self,
        ]
    )

    /// `tileview serve ...` becomes `tileview-serve` before any argument is parsed here: the server parses and
    /// checks them itself, naming itself `tileview serve` in its messages, so a start pays for one parse instead
    /// of two (about 8 ms, docs/benchmarks.md "Start-up without the server"). Every other command runs as
    /// ArgumentParser runs it.
    static func main() async {
        let words = CommandLine.arguments
        if words.count > 1, words[1] == "serve" { ServeCommand.becomeServer(arguments: Array(words[2...])) }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
