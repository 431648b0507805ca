import ArgumentParser
import TileViewCore

/// A `WxH` viewport argument in whole pixels.
struct ViewportSize: ExpressibleByArgument, CustomStringConvertible {
    static let largest = 16384
    let width: Int
    let height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
            (1...Self.largest).contains(w), (1...Self.largest).contains(h)
        else { return nil }
        self.init(width: w, height: h)
    }

    static var defaultCompletionKind: CompletionKind { .default }
    var description: String { "\(width)x\(height)" }
    var size: Size { Size(width: Double(width), height: Double(height)) }
    var pixelSize: PixelSize { PixelSize(width: width, height: height) }
}

extension RGBA8: ExpressibleByArgument {
    public init?(argument: String) { self.init(hex: argument) }
}
