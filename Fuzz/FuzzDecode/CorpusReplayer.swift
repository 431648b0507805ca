import Foundation
import TileViewCodecs

/// Replays files and folders (crash reproducers, a fuzz corpus, the shared corpus) through the
/// fuzz checks, one line per file, and checks that a file source decodes as its bytes do.
enum CorpusReplayer {
    static let usage = """
        usage: FuzzDecode PATH...
          Runs every PNG and JPEG decoding path over each file (folders are walked) and checks
          the laws between them; a broken law stops the process. Build with TILEVIEW_FUZZ=1 for
          the libFuzzer harness (scripts/fuzz.sh).
        """

    /// Returns the exit status: 0 when every file was replayed, 64 for a usage error, 1 when a path cannot be read.
    static func run(arguments: [String]) -> Int32 {
        guard !arguments.isEmpty, !arguments.contains(where: { $0 == "-h" || $0 == "--help" }) else {
            print(usage)
            return arguments.isEmpty ? 64 : 0
        }
        var replayed = 0
        var unreadable = 0
        for path in arguments.flatMap(files(at:)) {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
                unreadable += 1
                continue
            }
            var exercise = DecodeExercise(bytes: [UInt8](data))
            let summary = exercise.run()
            checkFileSourceAgrees(path: path, bytes: [UInt8](data))
            print("ok \(path): \(summary)")
            replayed += 1
        }
        print("replayed \(replayed) files")
        return unreadable == 0 ? 0 : 1
    }

    /// The regular files at `path`: itself, or those below it in name order.
    static func files(at path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return [path] }
        guard isFolder.boolValue else { return [path] }
        let walker = FileManager.default.enumerator(atPath: path)
        var found: [String] = []
        while let relative = walker?.nextObject() as? String {
            let full = (path as NSString).appendingPathComponent(relative)
            var isSubfolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: full, isDirectory: &isSubfolder), !isSubfolder.boolValue {
                found.append(full)
            }
        }
        return found.sorted()
    }

    /// A file source (read by the shim as it decodes) gives the same outcome and pixels as the
    /// file's bytes in memory.
    static func checkFileSourceAgrees(path: String, bytes: [UInt8]) {
        if let header = try? ImageHeader.read(from: .bytes(bytes)), DecodeExercise.refusedByMemoryPlan(header) {
            return  // as `DecodeExercise.run`
        }
        let options = DecodeExercise.strictOptions
        let fromFile = Result { () throws(CodecError) in try ImageDecoder.decode(.file(path: path), options: options) }
        let fromBytes = Result { () throws(CodecError) in try ImageDecoder.decode(.bytes(bytes), options: options) }
        switch (fromFile, fromBytes) {
        case (.success(let file), .success(let memory)):
            // The same header, but for the file's bytes a WebP decoder holds when it reads a file into memory; the
            // same pixels, but where the library leaves a damaged file's pixels undefined (see `undefinedOnDamage`).
            var header = memory.header
            header.decoderWorkingBytes = file.header.decoderWorkingBytes
            let samePixels = DecodeExercise.undefinedOnDamage.contains(file.header.format) || file.image == memory.image
            law(samePixels && file.header == header, "\(path): file and bytes decode differently")
        case (.failure(let file), .failure(let memory)):
            law(file.kind == memory.kind, "\(path): file fails as \(file.kind), bytes as \(memory.kind)")
        case (.success, .failure(let error)), (.failure(let error), .success):
            fatalError("law broken: \(path): only one of file and bytes decodes (\(error.kind): \(error.message))")
        }
    }
}
