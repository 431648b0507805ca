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
}
