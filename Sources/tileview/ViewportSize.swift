import ArgumentParser
import TileViewCore
import TileViewRender

/// A `WxH` viewport argument in whole pixels, each side from 1 to `largest`.
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

    /// Parses `--viewport`; the error names the accepted form and range (the `transform` of the option).
    static func parse(_ argument: String) throws -> ViewportSize {
        guard let size = ViewportSize(argument: argument) else {
            throw ValidationError("--viewport must be WxH with each side from 1 to \(largest), got \(argument)")
        }
        return size
    }

    static var defaultCompletionKind: CompletionKind { .default }
    var description: String { "\(width)x\(height)" }
    var size: Size { Size(width: Double(width), height: Double(height)) }
    var pixelSize: PixelSize { PixelSize(width: width, height: height) }
}

extension RGBA8: ExpressibleByArgument {
    public init?(argument: String) { self.init(hex: argument) }
}

/// `--filter`: how image pixels are drawn. `smooth` is the renderer's automatic choice (Lanczos-3 when shrinking,
/// Catmull-Rom otherwise); `nearest` shows sharp pixel squares past 1:1 and stays smooth below.
enum FrameFilter: String, ExpressibleByArgument, CaseIterable {
    case smooth
    case nearest

    var resampleFilter: ResampleFilter { self == .nearest ? .nearest : .automatic }
}
