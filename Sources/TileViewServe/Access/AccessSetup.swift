import HummingbirdBcrypt

/// What `tileview-serve` does with the access options (docs/design.md section 18): reads the files into `AccessRules`,
/// and the two tool runs, `--hash-password NAME` and `--sign PATH`.
public enum AccessSetup {
    /// The rules of `--users`, `--tokens`, `--session-key` and `--sign-key`, or nil when neither `--users` nor
    /// `--tokens` is given (no login asked).
    public static func rules(
        usersFile: String?, tokensFile: String?, sessionKeyFile: String?, signKeyFile: String?, sessionHours: Int
    ) throws(AccessFileError) -> AccessRules? {
        guard usersFile != nil || tokensFile != nil else { return nil }
        var users: [String: String] = [:]
        if let usersFile {
            users = try AccessFiles.users(parsing: try AccessFiles.text(usersFile, option: "--users"), file: usersFile)
        }
        var tokens: [[UInt8]] = []
        if let tokensFile {
            tokens = try AccessFiles.tokens(
                parsing: try AccessFiles.text(tokensFile, option: "--tokens"), file: tokensFile)
        }
        let sessionKey = try sessionKeyFile.map { path throws(AccessFileError) in
            try AccessFiles.key(at: path, option: "--session-key")
        }
        let signKey = try signKeyFile.map { path throws(AccessFileError) in
            try AccessFiles.key(at: path, option: "--sign-key")
        }
        return AccessRules(
            users: users, tokenDigests: tokens, sessionKey: sessionKey, signKey: signKey,
            sessionSeconds: sessionHours * 3600)
    }

    /// `NAME:HASH` for `--users`, the password read from one line of standard input.
    public static func hashLine(name: String, password: String?, cost: Int) throws(AccessFileError) -> String {
        guard let password, !password.isEmpty else {
            throw AccessFileError("--hash-password reads the password from one line of standard input, and got none")
        }
        guard password.utf8.count <= 72 else {
            throw AccessFileError(
                "--hash-password: bcrypt uses the first 72 bytes of a password; this one has \(password.utf8.count)")
        }
        return name + ":" + Bcrypt.hash(password, cost: UInt8(cost))
    }

    /// A share link for `path` (a query kept), valid `seconds` from now, `base` (`--public-url`) before it.
    public static func signedLink(
        path: String, seconds: Int, keyFile: String, base: String = "", now: Int = AccessRules.unixTime()
    ) throws(AccessFileError) -> String {
        let key = try AccessFiles.key(at: keyFile, option: "--sign-key")
        guard ShareScope(path: String(path.prefix { $0 != "?" && $0 != "#" })) != nil else {
            throw AccessFileError(
                "--sign \(path): a share link opens /view/ID, /gallery, /gallery/FOLDER or /browse/FOLDER (or an image's "
                    + "/iiif/3/ID or /dzi/ID.dzi), identifiers percent-encoded as one segment (albums%2Fbeach.jpg)")
        }
        return base + ShareLink.link(path, expires: now + seconds, key: key)
    }
}
