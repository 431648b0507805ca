// TileView: the integration layer: tiled images backed by decoders, the page loader,
// render-to-file and statistics. File I/O lives here and in the command, never in the pure modules.
