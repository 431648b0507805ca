import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// docs/design.md section 14's laws on the colour corpus (Tests/Corpus/color, made by scripts/make-color-corpus.sh; its
/// README says what each file is): a frame of a tagged photo shows what a colour-managed sRGB display shows.
/// The oracle is a frame of the same photo converted to sRGB by lcms2 beforehand (`NAME.srgb.png`), rendered
/// the same way: CIEDE2000 mean <= 1 and 99th percentile <= 4 between the two frames.
@Suite("Colour laws (docs/design.md section 14) on Tests/Corpus/color")
struct ColorLawTests {
    static let folder = Fixtures.corpusRoot.appendingPathComponent("color")

    /// Every file of the corpus with a reference `NAME.srgb.png`: an embedded profile (JPEG APP2, one or three
    /// markers; PNG iCCP) in RGB, gray and CMYK, a PNG sRGB chunk, PNG cHRM + gAMA, EXIF R03 without a profile,
    /// an sRGB profile, and a truncated profile (unusable: treated as absent).
    static let taggedFiles = [
        "adobergb.jpg", "applergb.jpg", "widegamut.jpg", "prophoto.jpg", "romm.jpg", "gray.jpg", "cmyk.jpg",
        "multi-app2.jpg", "truncated-profile.jpg", "r03.jpg", "srgb-tagged.jpg", "adobergb.png", "prophoto16.png",
        "srgb-chunk.png", "chrm-gama.png", "gray-iccp.png",
    ]

    /// The corpus photos are 216x144: fit frames at 1:1, shrunk to 2/3 and enlarged by 16/9 (3:2 viewports, so
    /// no margins dilute the figures), so that resampling after the conversion is covered both ways.
    static let viewports = ["216x144", "144x96", "384x256"]

    /// The fit frame of `file` in `viewport`, written to `out`; the run's result.
    static func render(_ file: URL, viewport: String, to out: URL) throws -> CommandRunner.Result {
        try CommandRunner.run(["zoom", file.path, "--viewport", viewport, "-o", out.path])
    }

    @Test("the corpus holds every tagged file and its reference, and no reference of a file not listed here")
    func corpusComplete() throws {
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: Self.folder.path))
        for file in Self.taggedFiles + ["untagged.jpg"] {
            #expect(names.contains(file), "\(file) is missing: run scripts/make-color-corpus.sh")
        }
        for file in Self.taggedFiles {
            #expect(names.contains(file + ".srgb.png"), "\(file).srgb.png is missing")
        }
        let references = names.filter { $0.hasSuffix(".srgb.png") }.map { String($0.dropLast(".srgb.png".count)) }
        #expect(Set(references) == Set(Self.taggedFiles), "a reference without a law test, or the reverse")
    }

    @Test(
        "a frame of a tagged file matches the same frame of its lcms2 sRGB rendering: CIEDE2000 mean <= 1, p99 <= 4",
        arguments: taggedFiles, viewports)
    func matchesReference(file: String, viewport: String) throws {
        try TemporaryFolder.with("color-law") { dir in
            let tagged = dir.appendingPathComponent("tagged.png")
            let reference = dir.appendingPathComponent("reference.png")
            let run = try Self.render(Self.folder.appendingPathComponent(file), viewport: viewport, to: tagged)
            #expect(run.status == 0, "\(file) \(viewport): \(run)")
            let refRun = try Self.render(
                Self.folder.appendingPathComponent(file + ".srgb.png"), viewport: viewport, to: reference)
            #expect(refRun.status == 0, "\(file).srgb.png \(viewport): \(refRun)")
            guard run.status == 0, refRun.status == 0 else { return }
            if file != "truncated-profile.jpg" {
                #expect(!run.stderr.contains("warning"), "\(file): a usable colour description warns: \(run.stderr)")
            }
            let a = try ImageDecoder.decode(.file(path: tagged.path)).image
            let b = try ImageDecoder.decode(.file(path: reference.path)).image
            try #require(a.size == b.size, "\(file) \(viewport): frames of \(a.size) and \(b.size)")
            let stats = ColorDifferenceStatistics(a, b)
            #expect(stats.mean <= 1 && stats.p99 <= 4, "\(file) at \(viewport): \(stats)")
        }
    }

    /// The fit frames of `file` and of untagged.jpg (the same pixels, no colour description) in `viewport`, written
    /// to a temporary folder: `body` gets both runs and both frames' files.
    static func renderBesideUntagged(
        _ file: String, viewport: String,
        _ body: (_ run: CommandRunner.Result, _ untaggedRun: CommandRunner.Result, _ frame: URL, _ untaggedFrame: URL)
            throws -> Void
    ) throws {
        try TemporaryFolder.with("color-law") { dir in
            let frame = dir.appendingPathComponent("frame.png")
            let untagged = dir.appendingPathComponent("untagged.png")
            let run = try render(folder.appendingPathComponent(file), viewport: viewport, to: frame)
            let untaggedRun = try render(
                folder.appendingPathComponent("untagged.jpg"), viewport: viewport, to: untagged)
            try body(run, untaggedRun, frame, untagged)
        }
    }

    @Test("srgb-tagged.jpg (an sRGB profile) and untagged.jpg (none) give byte-identical frames", arguments: viewports)
    func srgbProfileKeepsBytes(viewport: String) throws {
        try Self.renderBesideUntagged("srgb-tagged.jpg", viewport: viewport) { a, b, tagged, untagged throws in
            #expect(a.status == 0 && b.status == 0, "\(a)\n\(b)")
            #expect(a.stderr.isEmpty, "\(a)")
            #expect(try Fixtures.bytes(tagged) == Fixtures.bytes(untagged), "an sRGB source keeps today's bytes")
        }
    }

    @Test(
        "truncated-profile.jpg renders (exit 0) with a warning naming the file, exactly as the same pixels untagged",
        arguments: viewports)
    func truncatedProfileIsIgnored(viewport: String) throws {
        try Self.renderBesideUntagged("truncated-profile.jpg", viewport: viewport) { a, b, truncated, untagged throws in
            #expect(a.status == 0, "\(a)")
            #expect(b.status == 0, "\(b)")
            #expect(a.stderr.contains("warning") && a.stderr.contains("truncated-profile.jpg"), "\(a)")
            guard a.status == 0, b.status == 0 else { return }
            #expect(
                try Fixtures.bytes(truncated) == Fixtures.bytes(untagged), "the unusable profile is treated as absent")
        }
    }
}
