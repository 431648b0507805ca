import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// `--color` on the commands (docs/design.md section 14): `keep` draws stored values and writes the source's profile
/// into the PNG when every image shown has the same one; `decode` keeps and embeds by default; `info` names the space;
/// `serve` is sRGB only.
@Suite("--color on the commands")
struct ColorCommandTests {
    static let folder = Fixtures.corpusRoot.appendingPathComponent("color")
    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    static let keep = DecodeOptions(color: .keep)

    /// A copy of a JPEG without its APP2 (ICC) segments: the same stored values, untagged.
    static func untaggedCopy(of name: String, in dir: URL) throws -> String {
        let out = JPEGSegments.removing(0xE2, from: try Fixtures.bytes(folder.appendingPathComponent(name)))
        let url = dir.appendingPathComponent("untagged-" + name)
        try Data(out).write(to: url)
        return url.path
    }

    @Test("zoom --color keep draws today's stored values and carries the profile; srgb carries none")
    func zoomKeep() throws {
        try TemporaryFolder.with("color-keep") { dir in
            let bare = try Self.untaggedCopy(of: "adobergb.jpg", in: dir)
            let kept = dir.appendingPathComponent("kept.png").path
            let converted = dir.appendingPathComponent("srgb.png").path
            let plain = dir.appendingPathComponent("plain.png").path
            let args = ["--viewport", "160x120", "--tap", "40,30"]
            #expect(
                try CommandRunner.run(["zoom", Self.path("adobergb.jpg")] + args + ["--color", "keep", "-o", kept])
                    .status == 0)
            #expect(try CommandRunner.run(["zoom", Self.path("adobergb.jpg")] + args + ["-o", converted]).status == 0)
            #expect(try CommandRunner.run(["zoom", bare] + args + ["-o", plain]).status == 0)
            let source = try ImageHeader.read(from: .file(path: Self.path("adobergb.jpg"))).color
            let keptPNG = try ImageDecoder.decode(.file(path: kept), options: Self.keep)
            let plainPNG = try ImageDecoder.decode(.file(path: plain), options: Self.keep)
            #expect(keptPNG.image == plainPNG.image, "stored values: the frame of the untagged copy")
            #expect(keptPNG.header.color.profile == source.profile, "the source's profile, as iCCP")
            let srgbPNG = try ImageDecoder.decode(.file(path: converted), options: Self.keep)
            #expect(srgbPNG.header.color.origin == .assumed, "an sRGB frame carries no profile")
            #expect(srgbPNG.image != keptPNG.image)
            // A viewer that manages colour shows the kept frame as the converted one.
            let shown = try ImageDecoder.decode(.file(path: kept))
            let difference = ColorDifferenceStatistics(shown.image.pixels, srgbPNG.image.pixels)
            #expect(difference.mean <= 1, "\(difference)")
        }
    }

    @Test("decode keeps stored values and embeds the profile by default; --color srgb converts and embeds none")
    func decodeDefaults() throws {
        try TemporaryFolder.with("color-decode") { dir in
            for name in ["adobergb.jpg", "gray.jpg", "cmyk.jpg", "chrm-gama.png", "r03.jpg", "untagged.jpg"] {
                let stored = dir.appendingPathComponent("stored.png").path
                let converted = dir.appendingPathComponent("converted.png").path
                #expect(try CommandRunner.run(["decode", Self.path(name), "-o", stored]).status == 0)
                #expect(
                    try CommandRunner.run(["decode", Self.path(name), "--color", "srgb", "-o", converted]).status == 0)
                let source = try ImageDecoder.decode(.file(path: Self.path(name)), options: Self.keep)
                let storedPNG = try ImageDecoder.decode(.file(path: stored), options: Self.keep)
                #expect(storedPNG.image == source.image, "\(name): stored values")
                // Its profile (a gray one in a gray PNG); none for CMYK, whose kept values are djpeg's RGB of the inks.
                #expect(storedPNG.header.color.profile == source.header.color.profileToEmbed, "\(name): its profile")
                #expect(
                    (storedPNG.header.color.profile == nil) == (name == "cmyk.jpg" || name == "untagged.jpg"), "\(name)"
                )
                if name == "gray.jpg" { #expect(storedPNG.header.colorType == "gray") }
                let convertedPNG = try ImageDecoder.decode(.file(path: converted), options: Self.keep)
                #expect(convertedPNG.header.color.origin == .assumed, "\(name)")
                #expect(convertedPNG.image == (try ImageDecoder.decode(.file(path: Self.path(name)))).image, "\(name)")
                // Another run writes the same file (a profile made from chromaticities or for R03 carries no date).
                // (lcms2 stamps a made profile with the second it was made: one second apart, a stamp would differ.)
                if name == "chrm-gama.png" || name == "r03.jpg" {
                    let twice = dir.appendingPathComponent("twice.png").path
                    sleep(1)
                    #expect(try CommandRunner.run(["decode", Self.path(name), "-o", twice]).status == 0)
                    #expect(
                        try Data(contentsOf: URL(fileURLWithPath: twice))
                            == Data(contentsOf: URL(fileURLWithPath: stored)),
                        "\(name)")
                }
                // Round trip: the decoded PNG, decoded again, is the same file.
                let again = dir.appendingPathComponent("again.png").path
                #expect(try CommandRunner.run(["decode", stored, "-o", again]).status == 0)
                #expect(
                    try Data(contentsOf: URL(fileURLWithPath: again)) == Data(contentsOf: URL(fileURLWithPath: stored)),
                    "\(name)")
            }
        }
    }

    @Test("gallery --color keep carries a profile only when every page shown has it")
    func galleryKeep() throws {
        try TemporaryFolder.with("color-gallery") { dir in
            func frame0(_ files: [String]) throws -> ColorDescription {
                let out = dir.appendingPathComponent("out-\(files.count)-\(files.last!.count)").path
                let run = try CommandRunner.run(
                    ["gallery"] + files.map(Self.path) + [
                        "--viewport", "120x80", "--moves", "next", "--color", "keep", "-o", out,
                    ])
                #expect(run.status == 0, "\(run)")
                return try ImageHeader.read(from: .file(path: out + "/frame-0000.png")).color
            }
            let same = try frame0(["adobergb.jpg", "multi-app2.jpg"])
            #expect(same.profile == (try ImageHeader.read(from: .file(path: Self.path("adobergb.jpg")))).color.profile)
            let mixed = try frame0(["adobergb.jpg", "untagged.jpg"])
            #expect(mixed.profile == nil)
        }
    }

    @Test("info names the colour space; a profile it cannot use is named with the reason")
    func infoColor() throws {
        let run = try CommandRunner.run(["info", "--json", Self.path("prophoto.jpg"), Self.path("untagged.jpg")])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("\"color\" : \"ProPhoto RGB\""), "\(run.stdout)")
        #expect(run.stdout.contains("\"color\" : \"sRGB (assumed)\""), "\(run.stdout)")
        let bad = try CommandRunner.run(["info", Self.path("truncated-profile.jpg")])
        #expect(bad.status == 0)
        #expect(bad.stdout.contains("sRGB (assumed) (profile ignored: the ICC profile is cut short"), "\(bad.stdout)")
    }

    @Test("serve refuses --color keep: its answers are sRGB")
    func serveIsSRGB() throws {
        let run = try CommandRunner.run(["serve", Self.folder.path, "--color", "keep"])
        #expect(run.status == 64, "\(run)")
        #expect(run.stderr.contains("--color keep does not apply to serve"), "\(run.stderr)")
    }

    @Test("a profile it cannot use is a warning naming the file, shown without --verbose")
    func warningNamesFile() throws {
        try TemporaryFolder.with("color-warn") { dir in
            let out = dir.appendingPathComponent("f.png").path
            let run = try CommandRunner.run([
                "zoom", Self.path("truncated-profile.jpg"), "--viewport", "100x80", "-o", out,
            ])
            #expect(run.status == 0)
            #expect(
                run.stderr.contains(Self.path("truncated-profile.jpg")) && run.stderr.contains("cut short"),
                "\(run.stderr)")
        }
    }
}
