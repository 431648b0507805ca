import ArgumentParser
import TileView

/// The `tileview` command: decode, zoom, page and render images the way a phone's viewer does.
@main
struct TileViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tileview",
        abstract: "Decode, zoom and page through images the way a phone's photo viewer does, headless.",
        version: "0.1.0"
    )
}
