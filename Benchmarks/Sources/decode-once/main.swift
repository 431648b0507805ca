import Foundation
import TileViewCodecs

// decode-once FILE [SCALE]: decodes FILE once, the way `tileview decode` reads it (a file
// source, oriented RGBA8 in memory), and exits: a whole process to time against djpeg.
// SCALE is 1/1 (default), 1/2, 1/4, 1/8 or M/8 (JPEG only). Prints the decoded size.
let arguments = Array(CommandLine.arguments.dropFirst())
guard (1...2).contains(arguments.count) else {
    FileHandle.standardError.write(Data("usage: decode-once FILE [1/1|1/2|1/4|1/8|M/8]\n".utf8))
    exit(64)
}
let path = arguments[0]
let numerator: Int
switch arguments.count > 1 ? arguments[1] : "1/1" {
case "1/1", "8/8": numerator = 8
case "1/2": numerator = 4
case "1/4": numerator = 2
case "1/8": numerator = 1
case let text where text.hasSuffix("/8") && Int(text.dropLast(2)).map({ (1...16).contains($0) }) == true:
    numerator = Int(text.dropLast(2))!
default:
    FileHandle.standardError.write(Data("decode-once: the scale must be 1/1, 1/2, 1/4, 1/8 or M/8\n".utf8))
    exit(64)
}
do {
    let source = ImageSource.file(path: path)
    let decoded: DecodedImage
    switch try ImageFormat.detect(in: source) {
    case .jpeg: decoded = try JPEGDecoder.decode(source, scaleNumerator: numerator)
    case .png where numerator == 8: decoded = try PNGDecoder.decode(source)
    case .png:
        FileHandle.standardError.write(Data("decode-once: PNG has no scaled decode\n".utf8))
        exit(64)
    }
    print("\(decoded.image.width)x\(decoded.image.height)")
} catch {
    FileHandle.standardError.write(Data("decode-once: \(path): \(error)\n".utf8))
    exit(1)
}
