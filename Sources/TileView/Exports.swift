/// The library's front door: `import TileView` is the only import a program needs.
///
/// The package is split into small modules (pure geometry and zoom maths, paging, feeds, tiling,
/// rendering, codecs) so that each can be tested on its own, but a program that uses the library
/// should not have to know that split. These re-exports make every public Swift type reachable
/// through `import TileView`:
/// - `TileViewCore`: `Size`, `Point`, `Rect`, `PixelSize`, `PixelRect`, `ImageBuffer`, `RGBA8`,
///   `ImageOrientation`, `TileViewError`;
/// - `TileViewZoom`: `ZoomState`, `ZoomGesture`, `ZoomSnapshot`;
/// - `TileViewPaging`, `TileViewGallery`: page lists and maps, moves, drags, gallery plans;
/// - `TileViewFeed`: feed sections, layouts and offset ranges;
/// - `TileViewScene`: scenes (containers of coloured rects and images that zoom like an image);
/// - `TileViewTiling`, `TileViewRender`: the level pyramid, tile cache and frame renderer;
/// - `TileViewCodecs`: `DecodeOptions`, `ImageHeader`, the decoders (PNG, JPEG, and `ImageRowReader` for the
///   rest), the PNG encoder;
/// - `TileViewSystem`: files written atomically, folders, signals, locks, threads, process memory;
/// - `TileViewRun`: runs of numbered frames (`FrameRun`, `FrameWriter`, `FrameJournal`);
/// - `TileViewImage`: the image model (`TiledImage`, `ZoomContent`, `SharedTileCache`, `ImageInfo`).
///
/// Re-exporting from this module was chosen over one library product per module: the package
/// keeps a single `TileView` product, and the module layout can change without breaking the
/// programs that use it. The C modules (`CPNG`, `CJPEG`, `CImageCodecs`) are not re-exported;
/// they are implementation details of `TileViewCodecs`.
@_exported import TileViewCodecs
@_exported import TileViewCore
@_exported import TileViewFeed
@_exported import TileViewGallery
@_exported import TileViewImage
@_exported import TileViewPaging
@_exported import TileViewRender
@_exported import TileViewRun
@_exported import TileViewScene
@_exported import TileViewSystem
@_exported import TileViewTiling
@_exported import TileViewZoom
