// swift-tools-version: 6.1
import PackageDescription

// `TILEVIEW_FUZZ=1 swift build --product FuzzDecode ...` builds the libFuzzer harness with
// coverage instrumentation; a plain build makes the same target a corpus replayer.
let fuzzing = Context.environment["TILEVIEW_FUZZ"] != nil
let fuzzSettings: [SwiftSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer"]), .define("FUZZING")] : []
let fuzzCSettings: [CSetting] = fuzzing ? [.unsafeFlags(["-fsanitize=fuzzer-no-link"])] : []
let fuzzLinker: [LinkerSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer"])] : []
// Coverage for the Swift code under test (the Exif parser, band reading, orientation), so that
// libFuzzer is guided by it and not only by the C shim and the harness.
let fuzzCoverage: [SwiftSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer"])] : []
// The pixel loops (decoding, colour, resampling, tiles, encoding) are optimised in debug builds too: the tests run
// the debug `tileview` hundreds of times, and unoptimised loops made them several times slower. Everything else
// (the jobs, the commands, the server) stays debuggable. Only where this package is built itself: SwiftPM refuses
// unsafe flags in a dependency pinned by version, and a package that depends on tileview is checked out under a
// `checkouts` folder (SwiftPM's and Xcode's), where these settings are left out.
let builtAsDependency = Context.packageDirectory.contains("/checkouts/")
let optimizedInDebug: [SwiftSetting] =
    fuzzing || builtAsDependency ? [] : [.unsafeFlags(["-O"], .when(configuration: .debug))]
let optimizedCInDebug: [CSetting] =
    fuzzing || builtAsDependency ? [] : [.unsafeFlags(["-O2"], .when(configuration: .debug))]

let package = Package(
    name: "tileview",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tileview", targets: ["tileview"]),
        .executable(name: "tileview-serve", targets: ["tileview-serve"]),
        .library(name: "TileView", targets: ["TileView"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        // The server's connections (HTTP/1.0, draining, the connection cap) and TLS.
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.25.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // Hummingbird's own: the server's one line when it stops (a service told of the graceful shutdown).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
    ],
    targets: [
        // Pure modules: no Foundation, no C. The standard library's rounding calls libm, which
        // nothing else links on Linux when Foundation is absent.
        .target(
            name: "TileViewCore", swiftSettings: fuzzCoverage + optimizedInDebug,
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        .target(name: "TileViewZoom", dependencies: ["TileViewCore"]),
        .target(name: "TileViewPaging", dependencies: ["TileViewCore"]),
        .target(name: "TileViewFeed", dependencies: ["TileViewCore"]),
        .target(name: "TileViewTiling", dependencies: ["TileViewCore"], swiftSettings: optimizedInDebug),
        .target(
            name: "TileViewRender", dependencies: ["TileViewCore", "TileViewTiling"], swiftSettings: optimizedInDebug),
        .target(name: "TileViewGallery", dependencies: ["TileViewCore", "TileViewPaging", "TileViewZoom"]),
        .target(name: "TileViewIIIF", dependencies: ["TileViewCore"]),
        .target(name: "TileViewScene", dependencies: ["TileViewCore"]),

        // The one C front door: system libraries and the setjmp shim.
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .systemLibrary(
            name: "CJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg-dev"]), .brew(["jpeg-turbo"])]),
        // Little CMS 2: colour profiles (docs/design.md section 14).
        .systemLibrary(
            name: "CLCMS2", pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"]), .brew(["little-cms2"])]),
        // The other formats (docs/design.md section 15): WebP, HEIF/HEIC and AVIF, TIFF, GIF.
        .systemLibrary(
            name: "CWebP", pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
        .systemLibrary(
            name: "CTIFF", pkgConfig: "libtiff-4",
            providers: [.apt(["libtiff-dev"]), .brew(["libtiff"])]),
        // zlib (libpng's own dependency) for the checksums of the PNG writer of the default compression.
        .target(
            name: "CImageCodecs", dependencies: ["CPNG", "CJPEG", "CLCMS2", "CWebP", "CTIFF"],
            cSettings: fuzzCSettings + optimizedCInDebug,
            // giflib (libgif-dev) has no pkg-config file: linked by name. libheif (libheif-dev, for its header) is
            // not linked: heif_decoder.c opens it at the first HEIF or AVIF file (dlopen; libdl is in glibc).
            linkerSettings: [.linkedLibrary("z"), .linkedLibrary("gif"), .linkedLibrary("dl")]),
        .target(
            name: "TileViewCodecs", dependencies: ["TileViewCore", "CImageCodecs"],
            swiftSettings: fuzzCoverage + optimizedInDebug),

        // Every system call outside the C door: files written atomically, folders, signals, threads, locks,
        // process memory.
        .target(name: "TileViewSystem", dependencies: ["TileViewCore", "TileViewCodecs", "CImageCodecs"]),
        // Runs of numbered frames: the output folder, the journal, resuming, shards, signals, the writer.
        .target(
            name: "TileViewRun", dependencies: ["TileViewCore", "TileViewCodecs", "TileViewGallery", "TileViewSystem"]),

        // The image model: tiled images and scenes' content protocol, the shared tile cache, rendering a view.
        .target(
            name: "TileViewImage",
            dependencies: [
                "TileViewCore", "TileViewCodecs", "TileViewTiling", "TileViewRender", "TileViewZoom", "TileViewSystem",
            ], swiftSettings: optimizedInDebug),

        // Integration and the command.
        .target(
            name: "TileView",
            dependencies: [
                "TileViewCore", "TileViewZoom", "TileViewPaging", "TileViewGallery", "TileViewFeed", "TileViewTiling",
                "TileViewRender", "TileViewCodecs", "TileViewScene", "TileViewSystem", "TileViewRun", "TileViewImage",
            ]),
        // The server: IIIF and Deep Zoom over the library, on Hummingbird.
        .target(
            name: "TileViewServe",
            dependencies: [
                "TileView", "TileViewIIIF", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The viewer's script and style sheet and the view API's OpenAPI document, compiled into the binary
            // (`PackageResources`): the server needs no files beside itself.
            resources: [
                .embedInCode("Resources/viewer.js"), .embedInCode("Resources/viewer.css"),
                .embedInCode("Resources/openapi.json"),
            ]),
        // `tileview bench memory`: paging through a folder with memory measured per step, and its chart.
        .target(name: "TileViewBench", dependencies: ["TileView"]),
        // The arguments both executables parse, and their reporting.
        .target(
            name: "TileViewCLI",
            dependencies: ["TileView", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // `tileview` has no HTTP stack: every command's start-up scans the binary's conformance records and
        // relocates it, and Hummingbird, SwiftNIO and Foundation double both. `tileview serve` becomes
        // `tileview-serve`, which has the server.
        .executableTarget(
            name: "tileview",
            dependencies: [
                "TileView", "TileViewCLI", "TileViewBench",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "tileview-serve",
            dependencies: [
                "TileView", "TileViewCLI", "TileViewServe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "FuzzDecode", dependencies: ["TileViewCodecs"], path: "Fuzz/FuzzDecode",
            swiftSettings: fuzzSettings, linkerSettings: fuzzLinker),

        // Tests: one target per module plus shared support.
        .target(
            name: "TileViewTestSupport", dependencies: ["TileViewCore", "TileViewCodecs"],
            path: "Tests/TileViewTestSupport"),
        .testTarget(name: "TileViewCoreTests", dependencies: ["TileViewCore", "TileViewTestSupport"]),
        .testTarget(name: "TileViewZoomTests", dependencies: ["TileViewZoom", "TileViewTestSupport"]),
        .testTarget(name: "TileViewPagingTests", dependencies: ["TileViewPaging", "TileViewTestSupport"]),
        .testTarget(name: "TileViewGalleryTests", dependencies: ["TileViewGallery", "TileViewTestSupport"]),
        .testTarget(name: "TileViewFeedTests", dependencies: ["TileViewFeed", "TileViewTestSupport"]),
        .testTarget(name: "TileViewTilingTests", dependencies: ["TileViewTiling", "TileViewTestSupport"]),
        .testTarget(name: "TileViewRenderTests", dependencies: ["TileViewRender", "TileViewTestSupport"]),
        .testTarget(name: "TileViewIIIFTests", dependencies: ["TileViewIIIF", "TileViewTestSupport"]),
        .testTarget(name: "TileViewSceneTests", dependencies: ["TileViewScene", "TileViewTestSupport"]),
        .testTarget(name: "TileViewCodecsTests", dependencies: ["TileViewCodecs", "TileViewTestSupport"]),
        .testTarget(name: "TileViewTests", dependencies: ["TileView", "TileViewBench", "TileViewTestSupport"]),
        .testTarget(
            name: "TileViewServeTests",
            dependencies: [
                "TileViewServe", "TileViewTestSupport", .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]),
        .testTarget(name: "TileViewCLITests", dependencies: ["TileViewCodecs", "TileViewZoom", "TileViewTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
