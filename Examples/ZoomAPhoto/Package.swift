// swift-tools-version: 6.1
import PackageDescription

// An example program that uses tileview as a library: `swift run ZoomAPhoto [IMAGE] [OUT.png]`.
let package = Package(
    name: "ZoomAPhoto",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The tileview package two folders up; elsewhere use
        // .package(url: "https://github.com/tileview/tileview", from: "0.1.0").
        .package(name: "tileview", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "ZoomAPhoto",
            dependencies: [.product(name: "TileView", package: "tileview")])
    ],
    swiftLanguageModes: [.v6]
)
