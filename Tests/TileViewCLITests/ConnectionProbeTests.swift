import Foundation
import Testing
import TileViewTestSupport

/// The server's connections on a loopback port (`scripts/probe-connections.sh`, docs/design.md section 18): answers in
/// flight at SIGTERM arrive whole and the server exits 0; HTTP/1.0 without keep-alive is closed after its answer;
/// 1,100 half-sent requests under `ulimit -n 1024` leave /healthz answering within a second without spinning; HTTPS
/// with a certificate made by openssl in the test; a client that stops reading a 21 MB image answer or view frame
/// keeps its bytes counted in the work budget until it goes; a file swapped for a link out of ROOT and back for 10 s while it
/// is asked for: no answer describes the outside file and an open view's frame never changes.
/// Part of the serialized `tileview serve` suite: these probes load both processors for a minute or more.
extension ServeCommandTests {
    @Test(
        "drain on SIGTERM, HTTP/1.0, half-open connections, TLS, unread answers held, a link swapped in",
        .tags(.external),
        .timeLimit(.minutes(5)))
    func connectionProbe() async throws {
        let (status, text) = try await CommandRunner.scriptOffThePool("probe-connections.sh")
        #expect(status == 0, "\(text)")
        for line in [
            "http10 ok:", "halfopen ok:", "tls ok:", "held:", "swap ok:", "drain ok:", "deadline ok:",
            "connections probe: ok",
        ] {
            #expect(text.contains(line), "\(line) missing: \(text)")
        }
    }
}
