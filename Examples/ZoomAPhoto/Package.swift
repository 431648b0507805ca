// swift-tools-version: 6.1
import PackageDescription

// An example program that uses tileview as a library: `swift run ZoomAPhoto [IMAGE] [OUT.png]`.
let package = Package(
    name: "ZoomAPhoto",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The tileview package two folders up; elsewhere use (the repository carries no tag yet)
        // .package(url: "https://github.com/tileview/tileview", branch: "main").
        .package(name: "tileview", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "ZoomAPhoto",
            dependencies: [.product(name: "TileView", package: "tileview")])
    ],
    swiftLanguageModes: [.v6]
)
