import Foundation
import TileViewServe
import TileViewTestSupport

/// A served folder made once per test process: two sample photos (one in a sub-folder), a corrupt JPEG between
/// them, a dotfile, a FIFO, and beside the root a secret file and symbolic links that point out of the root.
enum ServeFixture {
    struct Layout: Sendable {
        let parent: URL
        let root: URL
        let secret: URL
    }

    static let layout: Layout = {
        let parent = try! TemporaryFolder.untilExit("serve")
        let root = parent.appendingPathComponent("root")
        let fm = FileManager.default
        try! fm.createDirectory(at: root.appendingPathComponent("albums"), withIntermediateDirectories: true)
        func copy(_ source: URL, to name: String) {
            try! fm.copyItem(at: source, to: root.appendingPathComponent(name))
        }
        let rocket = Fixtures.sampleImages.appendingPathComponent("rocket.jpg")
        copy(rocket, to: "rocket.jpg")
        copy(Fixtures.sampleImages.appendingPathComponent("coffee.png"), to: "albums/coffee.png")
        copy(Fixtures.corpusRoot.appendingPathComponent("bad/gen_corrupt_huffman_data.jpg"), to: "broken.jpg")
        copy(rocket, to: ".hidden.jpg")
        let secret = parent.appendingPathComponent("secret.jpg")
        try! fm.copyItem(at: rocket, to: secret)
        try! fm.createSymbolicLink(at: root.appendingPathComponent("escape.jpg"), withDestinationURL: secret)
        try! fm.createSymbolicLink(at: root.appendingPathComponent("up"), withDestinationURL: parent)
        try! fm.createSymbolicLink(
            at: root.appendingPathComponent("inside.jpg"), withDestinationURL: root.appendingPathComponent("rocket.jpg")
        )
        mkfifo(root.appendingPathComponent("pipe.jpg").path, 0o644)
        return Layout(parent: parent, root: root, secret: secret)
    }()

    static var root: ServeRoot { try! ServeRoot(path: layout.root.path) }

    /// Ways of naming something outside the root (or a hidden or special file inside it), as a URL segment.
    static let escapes: [String] = [
        "..%2Fsecret.jpg", "%2E%2E%2Fsecret.jpg", "%2e%2e%2fsecret.jpg", "..%2F..%2Fetc%2Fpasswd",
        "%2Fetc%2Fpasswd", "%2F" + layout.secret.path.dropFirst().replacingOccurrences(of: "/", with: "%2F"),
        "albums%2F..%2F..%2Fsecret.jpg", "albums%2F%2E%2E%2F%2E%2E%2Fsecret.jpg", ".%2F..%2Fsecret.jpg",
        "%2E%2Fsecret.jpg", "escape.jpg", "up%2Fsecret.jpg", "up%2F..%2Fsecret.jpg", ".hidden.jpg",
        "%2Ehidden.jpg", "albums%2F.%2Fcoffee.png", "albums%2F%2Fcoffee.png", "%2Frocket.jpg", "rocket.jpg%00.png",
        "rocket.jpg%00", "..", "%2E%2E", ".", "%252E%252E%252Fsecret.jpg", "..%252Fsecret.jpg",
        "%c0%ae%c0%ae%2Fsecret.jpg",
        "%C0%AE%C0%AE%2Fsecret.jpg", "..%5Csecret.jpg", "pipe.jpg", "albums", "albums%2F", "%", "%2", "%zz.jpg",
        "nonexistent.jpg", "secret.jpg", "..%2Froot%2F..%2Fsecret.jpg", "rocket.jpg%2F", "rocket.jpg%2F..",
    ]
}
