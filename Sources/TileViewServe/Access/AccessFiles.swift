import FoundationEssentials

/// A `--users`, `--tokens`, `--session-key` or `--sign-key` file that cannot be used: the message names the file
/// and, for a line, its number (`tileview-serve` prints it and exits 64).
public struct AccessFileError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The files of docs/design.md section 18's access rules.
public enum AccessFiles {
    /// `name:bcrypt-hash` lines (`htpasswd -nB name`, or `tileview serve --hash-password name`): `$2y$`, `$2b$` or
    /// `$2a$`, a two-digit cost from 04 to 31, then 53 characters of salt and hash. Blank lines and lines starting
    /// with `#` are skipped. A name holds no `:`, space or control character and appears once.
    public static func users(parsing text: String, file: String) throws(AccessFileError) -> [String: String] {
        var users: [String: String] = [:]
        for (number, line) in lines(text) {
            guard let colon = line.firstIndex(of: ":") else {
                throw AccessFileError("\(file):\(number): expected name:bcrypt-hash (no ':' in the line)")
            }
            let name = String(line[..<colon])
            let hash = String(line[line.index(after: colon)...])
            guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7f }) else {
                throw AccessFileError("\(file):\(number): the user name is empty or holds a space or control character")
            }
            guard isBcryptHash(hash) else {
                throw AccessFileError(
                    "\(file):\(number): '\(name)' has no bcrypt hash ($2y$, $2b$ or $2a$, cost 04 to 31, 53 characters "
                        + "of salt and hash; make one with tileview serve --hash-password \(name))")
            }
            guard users[name] == nil else { throw AccessFileError("\(file):\(number): '\(name)' is listed twice") }
            users[name] = hash
        }
        return users
    }

    /// One token a line as the SHA-256 of the token in 64 hex digits (`printf %s TOKEN | sha256sum`; the ` -` that
    /// sha256sum prints after it is allowed). Blank lines and lines starting with `#` are skipped.
    public static func tokens(parsing text: String, file: String) throws(AccessFileError) -> [[UInt8]] {
        var digests: [[UInt8]] = []
        for (number, line) in lines(text) {
            var digest = Substring(line)
            if digest.hasSuffix("  -") { digest = digest.dropLast(3) }
            guard digest.count == 64, let bytes = AccessCrypto.bytes(hex: digest) else {
                throw AccessFileError(
                    "\(file):\(number): expected the SHA-256 of a token in 64 hex digits (printf %s TOKEN | sha256sum)")
            }
            digests.append(bytes)
        }
        return digests
    }

    /// The bytes of a key file (`--session-key`, `--sign-key`), all of them, at least 32.
    public static func key(at path: String, option: String) throws(AccessFileError) -> [UInt8] {
        let bytes = try read(path, option: option)
        guard bytes.count >= AccessRules.minimumKeyBytes else {
            throw AccessFileError(
                "\(option) \(path): a key needs at least \(AccessRules.minimumKeyBytes) bytes, the file has \(bytes.count) "
                    + "(make one with: head -c 32 /dev/urandom > \(path))")
        }
        return bytes
    }

    public static func read(_ path: String, option: String) throws(AccessFileError) -> [UInt8] {
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw AccessFileError("\(option) \(path): cannot be read")
        }
    }

    /// `--users` and `--tokens` text as UTF-8.
    public static func text(_ path: String, option: String) throws(AccessFileError) -> String {
        let bytes = try read(path, option: option)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw AccessFileError("\(option) \(path): is not UTF-8 text")
        }
        return text
    }

    /// The lines that count, numbered from 1, without a trailing carriage return or surrounding spaces.
    static func lines(_ text: String) -> [(Int, String)] {
        var out: [(Int, String)] = []
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .enumerated()
        {
            var line = raw.drop { $0 == " " || $0 == "\t" }
            while let last = line.last, last == " " || last == "\t" || last == "\r" { line = line.dropLast() }
            if line.isEmpty || line.hasPrefix("#") { continue }
            out.append((index + 1, String(line)))
        }
        return out
    }

    static func isBcryptHash(_ hash: String) -> Bool {
        let bytes = Array(hash.utf8)
        guard bytes.count == 60, bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "2"),
            [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "y")].contains(bytes[2]), bytes[3] == UInt8(ascii: "$"),
            bytes[6] == UInt8(ascii: "$"), let cost = AccessRules.cost(ofHash: hash), (4...31).contains(cost)
        else { return false }
        let alphabet = Set("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        return bytes[7...].allSatisfy(alphabet.contains)
    }
}
