import Foundation
import Testing
import TileViewTestSupport

/// Admission on a real server on a loopback port (`scripts/probe-admission.sh`, docs/design.md section 18): the
/// requests that used to abort it are refused and it goes on serving; 16 clients asking for large renders at once get
/// 200, 400 or 503 with Retry-After while small tiles keep their time and the peak RSS stays within --cache-mb +
/// --work-mb + 64 MiB; 8 clients opening, stepping and listing a folder of 40,000 images keep it within that bound
/// too; under an address-space limit nothing aborts.
/// Part of the serialized `tileview serve` suite: these probes load both processors for a minute or more.
extension ServeCommandTests {
    @Test(
        "killer requests, 16 large renders with a tile probe, a large folder, and RLIMIT_AS", .tags(.external),
        .timeLimit(.minutes(5)))
    func admissionProbe() async throws {
        let (status, text) = try await CommandRunner.scriptOffThePool("probe-admission.sh", ["all"])
        #expect(status == 0, "\(text)")
        for line in ["killers ok:", "large ok:", "folders ok:", "ulimit ok:"] {
            #expect(text.contains(line), "\(line) missing: \(text)")
        }
        #expect(text.contains("admission probe: ok"), "\(text)")
    }
}
