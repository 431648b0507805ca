import Testing
import TileViewTestSupport

@testable import TileViewCore

/// Addresses and networks as `--trusted-proxies` and the login limiter read them, and the client behind proxies.
@Suite("IP addresses")
struct IPNetworkTests {
    @Test("addresses read as the standard readers read them; malformed ones are nil")
    func parsing() {
        let same: [(String, String)] = [
            ("192.0.2.7", "192.0.2.7"), ("::ffff:192.0.2.7", "192.0.2.7"), ("::FFFF:c000:0207", "192.0.2.7"),
            ("2001:db8::1", "2001:db8:0:0:0:0:0:1"), ("::", "0:0:0:0:0:0:0:0"), ("::1", "0:0:0:0:0:0:0:1"),
            ("1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"), ("::1:2:3:4:5:6:7", "0:1:2:3:4:5:6:7"),
            ("1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:102:304"), ("fe80::1%eth0", "fe80:0:0:0:0:0:0:1"),
            ("0.0.0.0", "0.0.0.0"), ("255.255.255.255", "255.255.255.255"),
        ]
        for (text, expected) in same { #expect(IPAddress(text)?.description == expected, "\(text)") }
        for text in [
            "", "1.2.3", "1.2.3.4.5", "256.1.1.1", "01.2.3.4", "1.2.3.-4", "1..2.3", " 1.2.3.4", "1.2.3.4 ",
            "1::2::3", ":::", ":1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "1::2:3:4:5:6:7:8", "12345::1", "g::1",
            "1:2:3:4:5:6:7:1.2.3.4", "::ffff:01.2.3.4", "::1.2.3", "[::1]", "localhost", "1.2.3.4/8",
        ] {
            #expect(IPAddress(text) == nil, "\(text) was read")
        }
    }

    @Test("seeded sweep: an IPv6 address written in full, with :: at any run of zeros, or with an IPv4 tail reads back")
    func writtenManyWays() {
        for index in 0..<500 {
            let seed = SplitMix64.caseSeed(0x1B_F6, index)
            var random = SplitMix64(seed: seed)
            // Groups with runs of zeros, so that :: has somewhere to go.
            let groups = (0..<8).map { _ in
                Int.random(in: 0..<3, using: &random) == 0 ? 0 : UInt16.random(in: 0...0xFFFF, using: &random)
            }
            let address = IPAddress(
                high: groups[0..<4].reduce(0) { $0 << 16 | UInt64($1) },
                low: groups[4..<8].reduce(0) { $0 << 16 | UInt64($1) })
            var forms = [groups.map { String($0, radix: 16) }.joined(separator: ":")]
            forms.append(groups.map { String($0, radix: 16, uppercase: true) }.joined(separator: ":"))
            for start in 0..<8 where groups[start] == 0 {
                var end = start
                while end < 8, groups[end] == 0 {
                    end += 1
                    let head = groups[..<start].map { String($0, radix: 16) }.joined(separator: ":")
                    let tail = groups[end...].map { String($0, radix: 16) }.joined(separator: ":")
                    forms.append(head + "::" + tail)
                }
            }
            let v4 = "\(groups[6] >> 8).\(groups[6] & 0xFF).\(groups[7] >> 8).\(groups[7] & 0xFF)"
            forms.append(groups[..<6].map { String($0, radix: 16) }.joined(separator: ":") + ":" + v4)
            for form in forms {
                #expect(IPAddress(form) == address, "seed \(seed): \(form)")
            }
        }
    }

    @Test("networks: a prefix counts IPv4's or IPv6's bits; out-of-range prefixes are refused")
    func networks() throws {
        let lan = try #require(IPNetwork("10.0.0.0/8"))
        #expect(lan.contains(IPAddress("10.255.1.2")!) && !lan.contains(IPAddress("11.0.0.1")!))
        #expect(lan.contains(IPAddress("::ffff:10.1.2.3")!))
        #expect(!lan.contains(IPAddress("::a01:203")!), "an IPv6 address is not in an IPv4 network")
        let host = try #require(IPNetwork("192.0.2.7"))
        #expect(host.contains(IPAddress("192.0.2.7")!) && !host.contains(IPAddress("192.0.2.8")!))
        let ula = try #require(IPNetwork("fd00::/8"))
        #expect(ula.contains(IPAddress("fd12:3456::1")!) && !ula.contains(IPAddress("fe80::1")!))
        let odd = try #require(IPNetwork("2001:db8:abcd:1234:8000::/65"))
        #expect(odd.contains(IPAddress("2001:db8:abcd:1234:ffff::1")!))
        #expect(!odd.contains(IPAddress("2001:db8:abcd:1234:7fff::1")!))
        #expect(IPNetwork("0.0.0.0/0")!.contains(IPAddress("203.0.113.9")!))
        #expect(IPNetwork("::/0")!.contains(IPAddress("2001:db8::1")!))
        for text in ["10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/8/8", "10.0.0.0/+8", "x/8"] {
            #expect(IPNetwork(text) == nil, "\(text) was read")
        }
        #expect(IPNetwork("10.0.0.0/8")?.description == "10.0.0.0/8")
    }

    @Test("a login counts against an IPv4 address whole and an IPv6 one by its /64")
    func clientKeys() {
        #expect(IPAddress("192.0.2.7")!.clientKey == "192.0.2.7")
        #expect(IPAddress("::ffff:192.0.2.7")!.clientKey == "192.0.2.7")
        #expect(IPAddress("2001:db8:1:2:aaaa::1")!.clientKey == "2001:db8:1:2::/64")
        #expect(IPAddress("2001:db8:1:2:bbbb::9")!.clientKey == IPAddress("2001:db8:1:2::1")!.clientKey)
        #expect(IPAddress("2001:db8:1:3::1")!.clientKey != IPAddress("2001:db8:1:2::1")!.clientKey)
    }

    @Test(
        "behind trusted proxies the client is the nearest untrusted X-Forwarded-For address; untrusted peers are believed alone"
    )
    func clientBehindProxies() {
        let proxies = [IPNetwork("127.0.0.1")!, IPNetwork("10.0.0.0/8")!]
        func client(_ peer: String, _ forwarded: [String]) -> String {
            IPNetwork.client(peer: IPAddress(peer)!, forwardedFor: forwarded, trusted: proxies).description
        }
        // A direct client: its header is its own to write, and is ignored.
        #expect(client("203.0.113.9", ["198.51.100.1"]) == "203.0.113.9")
        // One proxy: the address it appended.
        #expect(client("127.0.0.1", ["203.0.113.9"]) == "203.0.113.9")
        // What the client wrote before the proxies' entries is not believed.
        #expect(client("127.0.0.1", ["198.51.100.1, 203.0.113.9, 10.1.2.3"]) == "203.0.113.9")
        #expect(client("127.0.0.1", ["198.51.100.1", "203.0.113.9 , 10.1.2.3"]) == "203.0.113.9")
        // Ports as some proxies write them, and IPv6.
        #expect(client("127.0.0.1", ["203.0.113.9:51234"]) == "203.0.113.9")
        #expect(client("127.0.0.1", ["[2001:db8::7]:443"]) == "2001:db8:0:0:0:0:0:7")
        #expect(client("127.0.0.1", ["2001:db8::7"]) == "2001:db8:0:0:0:0:0:7")
        // A proxy with no header, or all hops trusted: the last address walked.
        #expect(client("127.0.0.1", []) == "127.0.0.1")
        #expect(client("127.0.0.1", ["10.0.0.5"]) == "10.0.0.5")
        // Garbage in the trusted part stops the walk at the last good hop.
        #expect(client("127.0.0.1", ["203.0.113.9, unknown"]) == "127.0.0.1")
        #expect(client("127.0.0.1", ["unknown, 10.0.0.5"]) == "10.0.0.5")
    }
}
