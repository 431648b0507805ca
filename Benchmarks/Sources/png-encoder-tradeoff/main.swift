import BenchSupport
import Foundation
import TileViewCodecs
import TileViewCore

// png-encoder-tradeoff [ROUNDS [JPEG SCALE]]: encodes the 1024x768 photo frame
// (BenchSupport.PhotoFrame; or the middle 1024x768 of JPEG decoded at SCALE/8) at every zlib
// level 1...9 with every row filter, ROUNDS times each (default 15), and prints the
// median time and the size as Markdown tables. Configurations are visited round-robin, so a
// change of machine load during the run touches all of them alike. Every PNG is decoded again
// and compared with the frame before it is counted.
let filters: [PNGFilter] = [.none, .sub, .up, .average, .paeth, .adaptive]
let levels = Array(1...9)

// png-encoder-tradeoff sizes LEVEL SCALE JPEG...: no timing; the total size, per filter, of the
// middle 1024x768 of each JPEG decoded at SCALE/8, at zlib level LEVEL. Shows whether a filter's
// lead holds across many photographs.
if CommandLine.arguments.count > 4 && CommandLine.arguments[1] == "sizes" {
    let level = Int(CommandLine.arguments[2]) ?? 2
    let numerator = Int(CommandLine.arguments[3]) ?? 4
    let files = CommandLine.arguments.dropFirst(4)
    var totals = [PNGFilter: Int]()
    var wins = [PNGFilter: Int]()
    for path in files {
        guard let data = FileManager.default.contents(atPath: path) else { continue }
        let frame = try PhotoFrame.middle(ofJPEG: [UInt8](data), scaleNumerator: numerator)
        var sizes = [PNGFilter: Int]()
        for filter in filters {
            let options = PNGEncodeOptions(compression: .level(level), filter: filter)
            sizes[filter] = try PNGEncoder.encode(frame, options: options).count
        }
        for (filter, size) in sizes { totals[filter, default: 0] += size }
        let single = filters.filter { $0 != .adaptive }
        if let best = single.min(by: { sizes[$0]! < sizes[$1]! }) { wins[best, default: 0] += 1 }
    }
    let smallest = Double(totals.values.min() ?? 1)
    print("\(files.count) frames, level \(level), scale \(numerator)/8: total size per filter\n")
    print("| filter | total KiB | vs smallest | smallest single filter on |")
    print("|---|---:|---:|---:|")
    for filter in filters {
        let total = Double(totals[filter] ?? 0)
        let ratio = String(format: "%+.1f%%", 100 * (total / smallest - 1))
        let won = filter == .adaptive ? "-" : "\(wins[filter] ?? 0) frames"
        print("| \(filter.rawValue) | \(Int(total / 1024)) | \(ratio) | \(won) |")
    }
    exit(0)
}

let rounds = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 15 : 15

struct Configuration: Hashable {
    var level: Int
    var filter: PNGFilter
    var options: PNGEncodeOptions { PNGEncodeOptions(colorType: .auto, compression: .level(level), filter: filter) }
}

let frame: ImageBuffer
do {
    if CommandLine.arguments.count > 3, let numerator = Int(CommandLine.arguments[3]) {
        let path = CommandLine.arguments[2]
        guard let data = FileManager.default.contents(atPath: path) else {
            FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
            exit(1)
        }
        frame = try PhotoFrame.middle(ofJPEG: [UInt8](data), scaleNumerator: numerator)
    } else {
        frame = try PhotoFrame.make(fromJPEG: BenchImages.bytes(BenchImages.photoJPEG))
    }
} catch {
    FileHandle.standardError.write(Data("cannot make the frame: \(error)\n".utf8))
    exit(1)
}
let configurations = levels.flatMap { level in filters.map { Configuration(level: level, filter: $0) } }

var sizes: [Configuration: Int] = [:]
for configuration in configurations {
    let png = try PNGEncoder.encode(frame, options: configuration.options)
    let back = try PNGDecoder.decode(.bytes(png)).image
    guard back == frame else {
        FileHandle.standardError.write(
            Data("level \(configuration.level) \(configuration.filter): round trip differs\n".utf8))
        exit(1)
    }
    sizes[configuration] = png.count
}

var times: [Configuration: [Double]] = [:]
let clock = ContinuousClock()
for _ in 0..<rounds {
    for configuration in configurations {
        let options = configuration.options
        let elapsed = try clock.measure { _ = try PNGEncoder.encode(frame, options: options) }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        times[configuration, default: []].append(seconds * 1000)
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

func format(_ value: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", value) }

let raw = Double(frame.width * frame.height * 3)
let medians = Dictionary(uniqueKeysWithValues: configurations.map { ($0, median(times[$0]!)) })
let header = "| level | " + filters.map { $0.rawValue }.joined(separator: " | ") + " |"
let rule = "|---|" + String(repeating: "---:|", count: filters.count)
print("Frame \(frame.width)x\(frame.height) RGB (\(Int(raw)) bytes raw), \(rounds) rounds, median ms per encode:\n")
print(header)
print(rule)
for level in levels {
    let cells = filters.map { format(medians[Configuration(level: level, filter: $0)]!, 1) }
    print("| \(level) | " + cells.joined(separator: " | ") + " |")
}
print("\nSize in KiB (percent of raw RGB):\n")
print(header)
print(rule)
for level in levels {
    let cells = filters.map { filter -> String in
        let size = Double(sizes[Configuration(level: level, filter: filter)]!)
        return "\(format(size / 1024, 0)) (\(format(100 * size / raw, 1))%)"
    }
    print("| \(level) | " + cells.joined(separator: " | ") + " |")
}

// The configurations no other beats on both time and size.
let front = configurations.filter { candidate in
    !configurations.contains { other in
        other != candidate && medians[other]! <= medians[candidate]! && sizes[other]! <= sizes[candidate]!
            && (medians[other]! < medians[candidate]! || sizes[other]! < sizes[candidate]!)
    }
}.sorted { medians[$0]! < medians[$1]! }
print("\nNot beaten on both time and size (fastest first):\n")
print("| level | filter | ms | KiB |")
print("|---:|---|---:|---:|")
for configuration in front {
    let size = Double(sizes[configuration]!) / 1024
    print(
        "| \(configuration.level) | \(configuration.filter.rawValue) | \(format(medians[configuration]!, 1)) | \(format(size, 0)) |"
    )
}
