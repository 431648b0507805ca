import TileViewCodecs
import TileViewCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading small files whole (page maps, gallery scripts, frames a journal names), with errors that name the file.
public enum TextFile {
    /// The largest text file read: a script or a map is far smaller; anything larger is the wrong file.
    public static let largestBytes = 16 << 20

    /// The whole file as UTF-8 text (invalid sequences become U+FFFD).
    public static func read(_ path: String) throws(TileViewError) -> String {
        String(decoding: try readBytes(path), as: UTF8.self)
    }

    /// The whole file's bytes, refused when over `limit` bytes.
    public static func readBytes(_ path: String, limit: Int = largestBytes) throws(TileViewError) -> [UInt8] {
        let file: UnsafeMutablePointer<FILE>
        do throws(CodecError) {
            file = try RegularFile.open(path)
        } catch {
            throw TileViewError(error, path: path)
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n > 0 { bytes += chunk[0..<n] }
            if n < chunk.count {
                if ferror(file) != 0 { throw TileViewError(.read, path: path, reason: "cannot read: \(errnoText())") }
                break
            }
            if bytes.count > limit {
                throw TileViewError(.input, path: path, reason: "is over \(limit >> 20) MiB: not a text file")
            }
        }
        return bytes
    }
}
