import Foundation
import Testing
import TileViewTestSupport

/// The README's five-minute tour, run as written: the commands of the `sh` block under "## A five-minute tour",
/// taken from README.md itself (so the README cannot drift from what the commands do), each run from a folder that
/// holds `SampleImages/` as the repository root does. Each must exit 0 and say nothing of a gesture that changes
/// nothing; every file named by `-o` lands; every `--frames` folder holds frames; and no two frames the tour writes
/// with `-o` are the same picture (a tap that zooms shows something else than fit).
@Suite("README tour")
struct ReadmeTourTests {
    /// The tour's command lines, comments and blank lines left out.
    static func tourCommands() throws -> [String] {
        let readme = try String(
            contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let heading = try #require(lines.firstIndex(of: "## A five-minute tour"), "README.md has no tour")
        let open = try #require(lines[heading...].firstIndex(of: "```sh"), "the tour has no sh block")
        let close = try #require(lines[(open + 1)...].firstIndex(of: "```"), "the tour's block is not closed")
        return lines[(open + 1)..<close].map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// Words of a command line as a shell splits them (spaces; single and double quotes).
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inWord = false
        for character in line {
            if let q = quote {
                if character == q { quote = nil } else { current.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    @Test("the tour's commands run as written and each shows what the README says")
    func tour() throws {
        let commands = try Self.tourCommands()
        #expect(commands.count >= 5, "\(commands)")
        try TemporaryFolder.with("tour") { dir in
            try FileManager.default.createSymbolicLink(
                at: dir.appendingPathComponent("SampleImages"), withDestinationURL: Fixtures.sampleImages)
            var pictures: [String: Data] = [:]
            for line in commands {
                let words = Self.words(line)
                try #require(words.first == "tileview", "a tour command must start with tileview: \(line)")
                let result = try CommandRunner.run(Array(words.dropFirst()), in: dir, timeout: 120)
                #expect(result.status == 0, "\(line)\n\(result)")
                #expect(!result.stderr.contains("changes nothing"), "\(line)\n\(result.stderr)")
                for (n, word) in words.enumerated() where n + 1 < words.count {
                    let path = dir.appendingPathComponent(words[n + 1])
                    if word == "-o" || word == "--output" {
                        #expect(words[n + 1].hasPrefix("tour/"), "\(line) writes outside tour/")
                        var isFolder: ObjCBool = false
                        #expect(FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder), "\(line)")
                        if !isFolder.boolValue, path.pathExtension == "png" {
                            let bytes = try Data(contentsOf: path)
                            for (other, earlier) in pictures where earlier == bytes {
                                Issue.record("\(line): the same picture as \(other)")
                            }
                            pictures[line] = bytes
                        }
                    }
                    if word == "--frames" {
                        let frames = (try? FileManager.default.contentsOfDirectory(atPath: path.path)) ?? []
                        #expect(frames.contains("frame-0000.png") && frames.count > 2, "\(line): \(frames)")
                    }
                }
            }
            #expect(pictures.count >= 2, "the tour writes fewer than two pictures with -o")
        }
    }
}
