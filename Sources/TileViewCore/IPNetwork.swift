/// An IPv4 or IPv6 address read from text, as the 128 bits of IPv6 (an IPv4 address is IPv4-mapped,
/// `::ffff:a.b.c.d`, so that a dual-stack socket's `::ffff:192.0.2.7` and `192.0.2.7` are one client).
///
/// Read: IPv4 as four decimal numbers 0 to 255 without leading zeros (`010` is octal to some readers, so it is
/// refused); IPv6 as eight groups of one to four hex digits, one `::` for a run of zero groups, a dotted IPv4 address
/// as the last 32 bits, and a zone (`%eth0`) dropped. Anything else is nil.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// The high and low 64 bits.
    public let high: UInt64
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    public init?(_ text: some StringProtocol) {
        var text = Substring(text)
        if let zone = text.firstIndex(of: "%") { text = text[..<zone] }
        if !text.contains(":") {
            guard let v4 = Self.ipv4(text) else { return nil }
            self.init(high: 0, low: 0xFFFF_0000_0000 | UInt64(v4))
            return
        }
        guard let groups = Self.ipv6Groups(text) else { return nil }
        self.init(
            high: groups[0..<4].reduce(0) { $0 << 16 | UInt64($1) },
            low: groups[4..<8].reduce(0) { $0 << 16 | UInt64($1) })
    }

    /// Whether it is an IPv4 address (IPv4-mapped).
    public var isIPv4: Bool { high == 0 && low >> 32 == 0xFFFF }

    /// `192.0.2.7`, or IPv6 as eight hex groups (`2001:db8:0:0:0:0:0:1`: no `::`, which no reader needs).
    public var description: String {
        if isIPv4 { return (0..<4).map { String(low >> (24 - 8 * $0) & 0xFF) }.joined(separator: ".") }
        return (0..<8).map { String(group($0), radix: 16) }.joined(separator: ":")
    }

    /// Group `index` (0 to 7) of the eight 16-bit groups.
    func group(_ index: Int) -> UInt16 {
        UInt16(truncatingIfNeeded: (index < 4 ? high : low) >> (48 - 16 * (index % 4)))
    }

    /// Who a client is, for counting what it does (failed logins): an IPv4 address whole, an IPv6 one by its /64,
    /// the network one host is given (any of its 2^64 addresses is the same client).
    public var clientKey: String {
        if isIPv4 { return description }
        return (0..<4).map { String(group($0), radix: 16) }.joined(separator: ":") + "::/64"
    }

    static func ipv4(_ text: Substring) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
                part.count == 1 || part.first != "0", let octet = UInt8(part)
            else { return nil }
            value = value << 8 | UInt32(octet)
        }
        return value
    }

    static func ipv6Groups(_ text: Substring) -> [UInt16]? {
        let halves = text.split(separator: "::", maxSplits: 2, omittingEmptySubsequences: false)
        guard halves.count <= 2, !(halves.last ?? "").contains("::") else { return nil }
        func groups(_ half: Substring, last: Bool) -> [UInt16]? {
            if half.isEmpty { return [] }
            var parts = half.split(separator: ":", omittingEmptySubsequences: false)
            var tail: [UInt16] = []
            if last, let final = parts.last, final.contains(".") {
                guard let v4 = ipv4(final) else { return nil }
                tail = [UInt16(v4 >> 16), UInt16(v4 & 0xFFFF)]
                parts.removeLast()
            }
            var out: [UInt16] = []
            for part in parts {
                guard (1...4).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isHexDigit }),
                    let group = UInt16(part, radix: 16)
                else { return nil }
                out.append(group)
            }
            return out + tail
        }
        guard let head = groups(halves[0], last: halves.count == 1) else { return nil }
        if halves.count == 1 { return head.count == 8 ? head : nil }
        guard let tail = groups(halves[1], last: true), head.count + tail.count <= 7 else { return nil }
        return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    }
}

/// An address and a prefix length (`10.0.0.0/8`, `fd00::/8`; a bare address is the one host), as `--trusted-proxies`
/// names the proxies in front of a server. An IPv4 prefix counts IPv4's 32 bits.
public struct IPNetwork: Hashable, Sendable, CustomStringConvertible {
    public let address: IPAddress
    /// Leading bits of the 128 that must match.
    public let prefixBits: Int

    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0]) else { return nil }
        let width = address.isIPv4 ? 32 : 128
        var bits = width
        if parts.count == 2 {
            guard (1...3).contains(parts[1].count), parts[1].allSatisfy({ $0.isASCII && $0.isNumber }),
                let length = Int(parts[1]), length <= width
            else { return nil }
            bits = length
        }
        self.address = address
        prefixBits = bits + (128 - width)
    }

    public var description: String {
        address.description + "/" + String(address.isIPv4 ? prefixBits - 96 : prefixBits)
    }

    public func contains(_ other: IPAddress) -> Bool {
        func masked(_ word: UInt64, _ bits: Int) -> UInt64 {
            bits <= 0 ? 0 : bits >= 64 ? word : word & ~(UInt64.max >> bits)
        }
        return masked(address.high, prefixBits) == masked(other.high, prefixBits)
            && masked(address.low, prefixBits - 64) == masked(other.low, prefixBits - 64)
    }

    /// The client a request comes from: the connection's `peer`, unless it is one of `trusted` (a proxy in front);
    /// then the `X-Forwarded-For` addresses (each header's list, in order: every proxy appends the address it was
    /// reached from) are walked from the last, and the first that is not trusted is the client. An entry that is
    /// not an address stops the walk (nothing left of it can be believed): the client is then the last one walked.
    /// An entry may carry a port as some proxies write it (`192.0.2.7:51234`, `[2001:db8::7]:51234`).
    public static func client(peer: IPAddress, forwardedFor: [String], trusted: [IPNetwork]) -> IPAddress {
        var client = peer
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
        for hop in hops.reversed() {
            guard trusted.contains(where: { $0.contains(client) }) else { return client }
            guard let address = forwardedAddress(hop) else { return client }
            client = address
        }
        return client
    }

    /// One `X-Forwarded-For` entry's address: spaces around it, and a port after an IPv4 address or a bracketed
    /// IPv6 one, left out.
    static func forwardedAddress(_ entry: Substring) -> IPAddress? {
        let words = entry.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count == 1, var text = words.first else { return nil }
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let port = text[text.index(after: close)...]
            guard port.isEmpty || (port.first == ":" && port.dropFirst().allSatisfy { $0.isASCII && $0.isNumber })
            else { return nil }
            text = text[text.index(after: text.startIndex)..<close]
        } else if text.contains("."), let colon = text.firstIndex(of: ":"), !text[colon...].dropFirst().contains(":") {
            guard text[colon...].dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            text = text[..<colon]
        }
        return IPAddress(text)
    }
}
