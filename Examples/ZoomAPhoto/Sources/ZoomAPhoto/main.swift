import Foundation
import TileView

// Zooms into a photo the way a phone's viewer does: the image starts at fit, a double tap at
// (520, 340) in an 800x600 viewport zooms in one step about that point, and the frame the
// viewport shows is written as PNG. Prints the zoom state as JSON (the keys of `tileview zoom --json`).
//
//     swift run ZoomAPhoto [IMAGE] [OUT.png]
let arguments = Array(CommandLine.arguments.dropFirst())
let input = arguments.count > 0 ? arguments[0] : "../../SampleImages/retina.jpg"
let output = arguments.count > 1 ? arguments[1] : "retina.zoomed.png"

do {
    let image = try TiledImage(path: input)
    var state = ZoomState(imageSize: image.imageSize.asSize, viewportSize: Size(width: 800, height: 600))
    state.apply(.doubleTap(viewportPoint: Point(x: 520, y: 340)))
    let frame = try image.render(state)
    try ImageFiles.writePNG(frame.image, to: output)

    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    print(String(decoding: try encoder.encode(state.snapshot), as: UTF8.self))
} catch {
    FileHandle.standardError.write(Data("ZoomAPhoto: \(error)\n".utf8))
    exit(1)
}
