import Foundation

/// What a run of frames left in its folder.
public enum FrameFolder {
    /// The numbered frames in `folder` (`frame-0000.png` onward; with `allPNGs`, every PNG file, as a batch's
    /// `NAME.png`), by name, and the temporary files there (a write cut short: `.NAME.tmp-XXXXXX`).
    public static func contents(
        _ folder: URL, allPNGs: Bool = false
    ) throws -> (frames: [String: Data], temporaries: [String]) {
        var frames: [String: Data] = [:]
        var temporaries: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            if name.contains(".tmp-") {
                temporaries.append(name)
            } else if allPNGs ? name.hasSuffix(".png") && !name.hasPrefix(".") : name.hasPrefix("frame-") {
                frames[name] = try Data(contentsOf: folder.appendingPathComponent(name))
            }
        }
        return (frames, temporaries)
    }
}
