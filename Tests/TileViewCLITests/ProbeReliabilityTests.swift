import Testing
import TileViewTestSupport

/// `scripts/probe-reliability.sh`: the probes that once found hangs, aborts, partial files and disagreeing modes,
/// run against the binary under test; every line must say PASS.
@Suite("Reliability probes", .tags(.external))
struct ProbeReliabilityTests {
    @Test(
        "every probe passes: FIFOs, signals and resume, memory limits, lenient agreement, stale frames, maps, bench peaks"
    )
    func probes() async throws {
        let (status, text) = try await CommandRunner.scriptOffThePool("probe-reliability.sh")
        #expect(status == 0, "\(text)")
        let lines = text.split(separator: "\n").filter { $0.hasPrefix("PASS") || $0.hasPrefix("FAIL") }
        #expect(lines.count >= 15, "\(text)")
        #expect(lines.allSatisfy { $0.hasPrefix("PASS") }, "\(text)")
    }
}
