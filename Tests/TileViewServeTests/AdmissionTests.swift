import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TileView
import TileViewServe
import TileViewTestSupport

/// Admission before allocation (docs/design.md section 18): every render's plan is worked out from the header and the
/// request, a plan that can never fit is 400 before any decoding, and renders wait for their share of the work
/// budget in two lanes, or get 503 with `Retry-After`.
@Suite("Server admission")
struct AdmissionTests {
    static func withClient(
        workBytes: Int = 128 << 20, _ body: @Sendable (any TestClientProtocol, TileServer) async throws -> Void
    ) async throws {
        let server = TileServer(settings: ServeSettings(root: ServeFixture.root, workBytes: workBytes))
        let app = try buildApplication(server)
        try await app.test(.router) { client in try await body(client, server) }
    }

    @Test(
        "requests that aborted the server are refused with 400 and the plan's parts, at once, and it goes on serving",
        arguments: [
            "full/%5E16000000,1/0/default.jpg", "full/%5E1000000,1/0/default.jpg", "full/%5E1,16000000/0/default.png",
            "square/%5E4096,4096/90/gray.png", "full/%5E1,90000/0/default.jpg", "full/%5E1000000,2/0/default.png",
        ])
    func killerRequests(_ path: String) async throws {
        try await Self.withClient { client, server in
            try await client.execute(uri: "/iiif/3/rocket.jpg/" + path, method: .get) { response in
                let text = String(buffer: response.body)
                #expect(response.status == .badRequest, "\(path): \(response.status) \(text)")
                // Refused by the plan, by a format's largest side, or by the advertised maxArea (which the work
                // budget lowers: `ServeSettings.effectiveMaxArea`).
                #expect(
                    (text.contains("--work-mb") && text.contains("MiB")) || text.contains("pixels a side")
                        || text.contains("maxArea"), "\(text)")
            }
            #expect(server.tiles.statistics.bytesDecoded == 0, "nothing was decoded for \(path)")
            try await client.execute(uri: "/iiif/3/rocket.jpg/0,0,256,256/256,/0/default.jpg", method: .get) { r in
                #expect(r.status == .ok)
            }
        }
    }

    @Test("a seeded sweep of region, size and rotation forms: each answer is 200 within its plan, or 400, 501 or 503")
    func sweep() async throws {
        // A small budget, so that the sweep meets refusals as well as answers.
        try await Self.withClient(workBytes: 24 << 20) { client, server in
            var rng = SplitMix64(seed: 27)
            var counts: [Int: Int] = [:]
            for _ in 0..<160 {
                let n = { (r: ClosedRange<Int>) in rng.int(r) }
                let region = [
                    "full", "square", "\(n(-10...700)),\(n(-10...500)),\(n(0...900)),\(n(0...900))",
                    "pct:\(n(0...100)),\(n(0...100)),\(n(0...120)),\(n(0...120))",
                ][n(0...3)]
                let w = [1, 2, 17, 256, 640, 4000, 12000, 70000, 1_000_000][n(0...8)]
                let h = [1, 3, 200, 427, 5000, 90000][n(0...5)]
                let size = [
                    "max", "%5Emax", "\(w),", ",\(h)", "%5E\(w),", "%5E,\(h)", "pct:\(n(1...100))",
                    "%5Epct:\(n(1...900))",
                    "\(w),\(h)", "%5E\(w),\(h)", "!\(w),\(h)", "%5E!\(w),\(h)",
                ][n(0...11)]
                let rotation = ["0", "90", "180", "270", "!0", "!90", "45"][n(0...6)]
                let tail = ["default.jpg", "gray.png", "color.jpg", "default.png", "bitonal.jpg"][n(0...4)]
                let uri = "/iiif/3/rocket.jpg/\(region)/\(size)/\(rotation)/\(tail)"
                try await client.execute(uri: uri, method: .get) { response in
                    let code = Int(response.status.code)
                    counts[code, default: 0] += 1
                    #expect([200, 400, 501, 503].contains(code), "\(uri): \(code) \(String(buffer: response.body))")
                }
            }
            #expect(counts[200, default: 0] > 20 && counts[400, default: 0] > 20, "\(counts)")
            let figures = server.budget.figures
            #expect(figures.used == 0, "every byte given back")
            #expect(figures.peak <= server.budget.budgetBytes)
        }
    }

    /// A folder holding `progressive.jpg`: a valid 2048x2048 progressive JPEG, 4:4:4, whose decoder keeps 24 MiB of
    /// coefficients at once whatever part of it is decoded.
    static let progressiveRoot: URL = {
        let root = try! TemporaryFolder.untilExit("serve-progressive")
        try! Data(ScanHeavyJPEG.progressive(PixelSize(width: 2048, height: 2048), refinements: 0))
            .write(to: root.appendingPathComponent("progressive.jpg"))
        return root
    }()

    /// The `--work-mb` a refusal names, if any.
    static func namedBudget(_ text: String) -> Int? {
        guard let range = text.range(of: #"--work-mb (\d+) or more"#, options: .regularExpression) else { return nil }
        return Int(text[range].split(separator: " ")[1])
    }

    /// A server of `progressiveRoot` with `workMiB` of work budget.
    static func serveProgressive(
        workMiB: Int, _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let server = TileServer(
            settings: ServeSettings(root: try ServeRoot(path: progressiveRoot.path), workBytes: workMiB << 20))
        try await buildApplication(server).test(.router) { client in try await body(client) }
    }

    /// A 64x48 view of `progressive.jpg` made, and its frame asked for.
    static func progressiveFrame(_ client: any TestClientProtocol) async throws -> TestResponse {
        let created = try await client.execute(
            uri: "/api/views", method: .post, headers: [.contentType: "application/json"],
            body: ByteBuffer(string: #"{"image":"progressive.jpg","viewport":{"width":64,"height":48}}"#))
        #expect(created.status == .created, "\(String(buffer: created.body))")
        let object = try JSONSerialization.jsonObject(with: Data(buffer: created.body)) as? [String: Any]
        let id = try #require(object?["view"] as? String)
        return try await client.execute(uri: "/api/views/\(id)/frame.png", method: .get)
    }

    @Test(
        "an image whose decoder alone holds more than a render may: its tile and its view's frame are 400 saying so and naming the --work-mb that renders them, which does"
    )
    func decoderOverTheLane() async throws {
        let tile = "/iiif/3/progressive.jpg/0,0,256,256/256,/0/default.jpg"
        let budgets = Locked((tile: 0, frame: 0))
        // 24 MiB of work: 18 MiB a render, under the decoder's 24 MiB.
        try await Self.serveProgressive(workMiB: 24) { client in
            let answer = try await client.execute(uri: tile, method: .get)
            let text = String(buffer: answer.body)
            #expect(answer.status == .badRequest)
            #expect(
                text.contains("decoding this image needs 24 MiB at once whatever the size or region")
                    && text.contains("a progressive JPEG keeps every coefficient"), "\(text)")
            let shown = try await Self.progressiveFrame(client)
            let said = String(buffer: shown.body)
            #expect(shown.status == .badRequest && said.contains("decoding"), "the frame counts the decoder: \(said)")
            budgets.withLock { $0 = (Self.namedBudget(text) ?? 0, Self.namedBudget(said) ?? 0) }
        }
        let named = budgets.withLock { $0 }
        #expect(named.tile > 24 && named.frame > 24, "\(named)")
        try await Self.serveProgressive(workMiB: named.tile) { client in
            let answer = try await client.execute(uri: tile, method: .get)
            #expect(answer.status == .ok, "\(String(buffer: answer.body))")
        }
        try await Self.serveProgressive(workMiB: named.frame) { client in
            let shown = try await Self.progressiveFrame(client)
            #expect(shown.status == .ok, "\(String(buffer: shown.body))")
        }
    }

    @Test("a plan larger than its lane is 400 naming its parts; one that fits is answered with the library's pixels")
    func largeAnswerWithinBudget() async throws {
        try await Self.withClient { client, server in
            // Within maxArea (2,000,000 pixels), but a million columns of filter taps.
            #expect(server.settings.effectiveMaxArea > 2_000_000)
            try await client.execute(uri: "/iiif/3/rocket.jpg/full/%5E1000000,2/0/default.png", method: .get) {
                response in
                #expect(response.status == .badRequest)
                let text = String(buffer: response.body)
                #expect(text.contains("filter taps") && text.contains("frame") && text.contains("--work-mb"), "\(text)")
            }
            try await client.execute(uri: "/iiif/3/rocket.jpg/full/600,/0/default.png", method: .get) { response in
                #expect(response.status == .ok)
                let image = try PNGDecoder.decode(.bytes(Array(buffer: response.body))).image
                let tiled = try TiledImage(path: ServeFixture.layout.root.appendingPathComponent("rocket.jpg").path)
                let expected = try tiled.render(
                    region: PixelRect(size: tiled.imageSize), size: PixelSize(width: 600, height: 400)
                ).image
                #expect(image.size == expected.size)
                #expect(image.pixels == expected.pixels, "streamed from the decoder: the bytes of the tiles' render")
            }
        }
    }
}

/// The work budget itself: lanes, the bounded queue, waiting and refusals.
@Suite("Work budget")
struct WorkBudgetTests {
    /// A 40 MiB render on `budget` (64 MiB on two processors: its large lane holds one such render) that holds the
    /// lane until `open` is called; its value is 1.
    static func holdLargeLane(
        _ budget: WorkBudget, bytes: Int = 40 << 20
    ) -> (render: Task<Int, any Error>, open: @Sendable () -> Void) {
        let gate = Locked(false)
        let render = Task {
            try await budget.run(bytes: bytes) { () throws(CancellationError) in
                while !gate.withLock({ $0 }) { usleep(1000) }
                return 1
            }
        }
        return (render, { gate.withLock { $0 = true } })
    }

    @Test("the least --work-mb a refusal names admits the plan, and one MiB less does not (seeded sweep)")
    func budgetNamed() throws {
        var generator = SplitMix64(seed: 18)
        for _ in 0..<500 {
            let bytes = Int.random(in: 1...(4 << 30), using: &generator)
            let mib = try #require(WorkBudget.budgetMiB(admitting: bytes))
            #expect(throws: Never.self, "\(bytes) under \(mib) MiB") {
                try WorkBudget(budgetBytes: mib << 20, processors: 2).check(bytes)
            }
            if mib > 1 {
                #expect(throws: WorkBudget.Refusal.self, "\(bytes) under \(mib - 1) MiB") {
                    try WorkBudget(budgetBytes: (mib - 1) << 20, processors: 2).check(bytes)
                }
            }
        }
        #expect(WorkBudget.budgetMiB(admitting: .max) == nil)
    }

    @Test("a plan larger than its lane can ever give is refused at once; one that fits runs")
    func neverFits() async throws {
        let budget = WorkBudget(budgetBytes: 64 << 20, processors: 2)
        #expect(throws: WorkBudget.Refusal.neverFits(needed: 60 << 20, lane: 48 << 20)) { try budget.check(60 << 20) }
        let value = try await budget.run(bytes: 40 << 20) { () throws(CancellationError) in 7 }
        #expect(value == 7)
        #expect(budget.figures.used == 0)
    }

    @Test("tiles go on while large renders hold the large lane; large ones queue, and past the queue get 503")
    func lanes() async throws {
        // Waits long enough for a machine loaded by other tests: here only a full queue refuses.
        let budget = WorkBudget(budgetBytes: 64 << 20, processors: 2, maxWait: 600)
        // Large lane: one render at a time on two processors; the first holds it until the gate opens.
        let (first, openGate) = Self.holdLargeLane(budget)
        try await Task.sleep(for: .milliseconds(100))
        // A tile runs meanwhile.
        let tile = try await budget.run(bytes: 1 << 20) { () throws(CancellationError) in 2 }
        #expect(tile == 2)
        // Eight large renders fill the queue; the ninth is refused with 503.
        let queued = (0..<8).map { _ in
            Task { () -> Bool in
                do throws(WorkError<CancellationError>) {
                    _ = try await budget.run(bytes: 10 << 20) { () throws(CancellationError) in 3 }
                    return true
                } catch {
                    return false
                }
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(budget.figures.queued == 8)
        do throws(WorkError<CancellationError>) {
            _ = try await budget.run(bytes: 10 << 20) { () throws(CancellationError) in 4 }
            Issue.record("a ninth large render was queued")
        } catch {
            guard case .refused(.busy(let seconds)) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(seconds > 0)
        }
        openGate()
        #expect(try await first.value == 1)
        for task in queued { #expect(await task.value) }
        #expect(budget.figures.used == 0)
    }

    @Test("a render that waits longer than the lane's wait is refused with 503, and the budget is whole after")
    func waitTooLong() async throws {
        let budget = WorkBudget(budgetBytes: 64 << 20, processors: 2, maxWait: 0.2)
        let (first, openGate) = Self.holdLargeLane(budget)
        while budget.figures.used == 0 { try await Task.sleep(for: .milliseconds(10)) }
        do throws(WorkError<CancellationError>) {
            _ = try await budget.run(bytes: 40 << 20) { () throws(CancellationError) in 2 }
            Issue.record("a second large render ran while the first held the lane")
        } catch {
            guard case .refused(.busy) = error else {
                Issue.record("\(error)")
                return
            }
        }
        #expect(budget.figures.busy == 1)
        openGate()
        #expect(try await first.value == 1)
        #expect(budget.figures.used == 0 && budget.figures.queued == 0)
    }

    /// `body`'s value, computed on a thread of its own (a background hold blocks its thread).
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in Thread { continuation.resume(returning: body()) }.start() }
    }

    @Test("background holds wait for the bytes and for every queued request, never count as refusals, and cancel")
    func background() async throws {
        let budget = WorkBudget(budgetBytes: 64 << 20, processors: 2, maxWait: 600)
        // Larger than the large lane (48 MiB): refused at once, not among the requests' refusals.
        #expect(throws: WorkBudget.Refusal.neverFits(needed: 60 << 20, lane: 48 << 20)) {
            _ = try budget.holdInBackground(bytes: 60 << 20) { false }
        }
        #expect(budget.figures.neverFits == 0)
        // A render holds 20 MiB and the large lane's one thread; a request of 10 MiB queues for the thread.
        let (first, openGate) = Self.holdLargeLane(budget, bytes: 20 << 20)
        while budget.figures.used == 0 { try await Task.sleep(for: .milliseconds(10)) }
        let queued = Task { () -> Bool in
            do throws(WorkError<CancellationError>) {
                _ = try await budget.run(bytes: 10 << 20) { () throws(CancellationError) in 3 }
                return true
            } catch {
                return false
            }
        }
        while budget.figures.queued == 0 { try await Task.sleep(for: .milliseconds(10)) }
        // A background hold of 9 MiB needs no thread and its bytes are free, but the request waits first.
        let admitted = Locked<HeldBytes?>(nil)
        let background = Task {
            await Self.onThread {
                let held = try? budget.holdInBackground(bytes: 9 << 20) { false }
                admitted.withLock { $0 = held }
            }
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(admitted.withLock { $0 } == nil && budget.figures.used == 20 << 20)
        // The render ends, the request runs; then the background hold gets its bytes.
        openGate()
        #expect(try await first.value == 1)
        #expect(await queued.value)
        _ = await background.value
        let held = try #require(admitted.withLock { $0 })
        #expect(budget.figures.used == 9 << 20)
        held.release()
        #expect(budget.figures.used == 0)
        // A background hold waiting for bytes a request holds returns nil once cancelled.
        let request = try await budget.hold(bytes: 40 << 20)
        let cancelled = Locked(false)
        let waiting = Task {
            await Self.onThread { (try? budget.holdInBackground(bytes: 20 << 20) { cancelled.withLock { $0 } }) == nil }
        }
        try await Task.sleep(for: .milliseconds(100))
        cancelled.withLock { $0 = true }
        budget.wakeBackground()
        #expect(await waiting.value)
        request.release()
        #expect(budget.figures.used == 0 && budget.figures.busy == 0)
    }

    @Test("held bytes count until released, once")
    func held() async throws {
        let budget = WorkBudget(budgetBytes: 64 << 20, processors: 2)
        let held = try await budget.hold(bytes: 30 << 20)
        #expect(budget.figures.used == 30 << 20)
        held.release()
        held.release()
        #expect(budget.figures.used == 0)
    }
}
