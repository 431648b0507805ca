import BenchSupport
import Benchmark
import Foundation
import TileViewCodecs
import TileViewCore

/// Decode of the 6000x4000 bench photo as JPEG at 1/1, 1/2, 1/4 and 1/8 and as PNG, and PNG
/// encode of a 1024x768 photo frame, from memory (the file is read before timing starts).
let benchmarks: @Sendable () -> Void = {
    if let missing = BenchImages.missing([BenchImages.photoJPEG, BenchImages.photoPNG]) {
        print(missing.message)
        return
    }
    let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident]
    Benchmark.defaultConfiguration = .init(
        metrics: metrics, timeUnits: .milliseconds, warmupIterations: 1, maxDuration: .seconds(5),
        maxIterations: 20)

    let jpeg = BenchImages.bytes(BenchImages.photoJPEG)
    for (numerator, label) in [(8, "1/1"), (4, "1/2"), (2, "1/4"), (1, "1/8")] {
        Benchmark("JPEG decode 6000x4000 at \(label)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try JPEGDecoder.decode(.bytes(jpeg), scaleNumerator: numerator))
            }
        }
    }

    let png = BenchImages.bytes(BenchImages.photoPNG)
    Benchmark("PNG decode 6000x4000", configuration: .init(maxDuration: .seconds(10), maxIterations: 10)) {
        benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try PNGDecoder.decode(.bytes(png)))
        }
    }

    let frame: ImageBuffer
    do {
        frame = try PhotoFrame.make(fromJPEG: jpeg)
    } catch {
        print("cannot make the 1024x768 frame: \(error)")
        return
    }
    let recommended = PhotoFrame.recommendedOptions
    let encodes: [(String, PNGEncodeOptions)] = [
        (
            "PNG encode 1024x768 frame, default (\(recommended.compression), \(recommended.filter))",
            recommended
        ),
        (
            "PNG encode 1024x768 frame, level 6 adaptive (libvips' choice)",
            PNGEncodeOptions(compression: .level(6), filter: .adaptive)
        ),
    ]
    for (name, options) in encodes {
        Benchmark(name, configuration: .init(maxDuration: .seconds(3), maxIterations: 100)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try PNGEncoder.encode(frame, options: options))
            }
        }
    }
}
