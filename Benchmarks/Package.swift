// swift-tools-version: 6.1
import PackageDescription

// tileview's benchmarks, in their own package so that the root package's `swift build` does
// not build the benchmark framework. Run from this folder:
//   swift package benchmark --target DecodeBenchmarks
// The large images come from ../scripts/make-bench-images.sh (or BENCH_IMAGES=DIR).
// A path dependency is known by its folder's name (the checkout may be called anything, not
// only "tileview").
let root = Context.packageDirectory.split(separator: "/").dropLast().last.map(String.init) ?? "tileview"

let package = Package(
    name: "tileview-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Where the bench images are, and the 1024x768 photo frame the encoder is measured on.
        .target(name: "BenchSupport", dependencies: [.product(name: "TileView", package: root)]),
        .executableTarget(
            name: "DecodeBenchmarks",
            dependencies: ["BenchSupport", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/DecodeBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // One decode per process, for side-by-side runs against djpeg (scripts/bench-decode.sh).
        .executableTarget(name: "decode-once", dependencies: ["BenchSupport"]),
        // Time and size of every zlib level and row filter (scripts/measure-png-encoder.sh).
        .executableTarget(name: "png-encoder-tradeoff", dependencies: ["BenchSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
