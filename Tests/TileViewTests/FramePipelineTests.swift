import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport
import TileViewZoom

@testable import TileView

#if canImport(Glibc)
    import Glibc
#endif

/// A single frame decoded, drawn and encoded on three threads (`FramePipeline`) gives the bytes of the frame drawn,
/// then encoded, on one.
@Suite("Frame pipeline")
struct FramePipelineTests {
    @Test("renderPNG's file is the one render then encodePNG write, for seeded views", arguments: StreamedViews.files)
    func pipelineBytes(file: String) throws {
        let image = try StreamedViews.open(file)
        var rng = SplitMix64(seed: 0xF1FE_0000 + UInt64(file.utf8.count))
        for trial in 0..<6 {
            // Viewports across the pipeline's threshold (128 x 128 pixels), some far larger than the image.
            let viewport = Size(width: Double(60 + rng.int(below: 900)), height: Double(40 + rng.int(below: 700)))
            let state = StreamedViews.randomState(
                imageSize: image.imageSize.asSize, viewport: viewport, maximumScaleSetting: 3, &rng)
            let background = [RGBA8.black, RGBA8(r: 200, g: 30, b: 90), RGBA8(r: 0, g: 0, b: 0, a: 100)][trial % 3]
            let filter: ResampleFilter = trial == 4 ? .nearest : .automatic
            let piped = try image.renderPNG(state, displacedBy: .zero, background: background, filter: filter)
            let frame = try image.render(state, background: background, filter: filter)
            let expected = try ImageFiles.encodePNG(frame.image, naming: image.path)
            let sameFrame = piped.frame.image == frame.image
            let sameFile = piped.png == expected  // compared outside #expect: the buffers are large
            #expect(sameFrame, "\(file) trial \(trial)")
            #expect(sameFile, "\(file) trial \(trial) \(viewport) at scale \(state.zoomScale)")
            #expect(piped.frame.level == frame.level && piped.frame.sourceRect == frame.sourceRect)
        }
        #expect(image.residentBytes == 0)
    }

    @Test("a damaged file fails the pipelined frame as it fails the frame, naming the file; lenient keeps the bytes")
    func damage() throws {
        for file in ["bad/gen_corrupt_huffman_data.jpg", "bad/gen_truncated_mid_idat.png"] {
            let strict = try StreamedViews.open(file)
            let path = strict.path
            let state = ZoomState(imageSize: strict.imageSize.asSize, viewportSize: Size(width: 300, height: 200))
            let error = #expect(throws: TileViewError.self) {
                _ = try strict.renderPNG(state, displacedBy: .zero, background: .black, filter: .automatic)
            }
            #expect(error?.description.contains(path) == true, "\(file)")
            let lenient = try StreamedViews.open(file, options: DecodeOptions(lenient: true))
            let piped = try lenient.renderPNG(state, displacedBy: .zero, background: .black, filter: .automatic)
            let again = try StreamedViews.open(file, options: DecodeOptions(lenient: true))
            let expected = try ImageFiles.encodePNG(try again.render(state).image, naming: path)
            #expect(piped.png == expected, "\(file)")
            #expect(lenient.warnings == again.warnings, "\(file)")
        }
    }

    @Test("prefetched rows are the reader's rows, whatever the renderer's pace")
    func prefetchedRows() throws {
        let path = Fixtures.corpusRoot.appendingPathComponent("jpeg/gen_chelsea_420_q90.jpg").path
        let rect = PixelRect(x: 13, y: 7, width: 201, height: 190)  // more rows than the ring holds
        func reader() throws -> LevelReader {
            try LevelReader(.file(path: path), scale: LevelScale(), rect: rect, options: DecodeOptions())
        }
        let whole = try reader().readAll().image
        var rng = SplitMix64(seed: 77)
        for trial in 0..<4 {
            let levelReader = try reader()
            let rows = PrefetchedRows(levelReader)
            #expect(rows.isRunning)
            var y = rect.y
            while y < rect.maxY {
                let row = rows.row(y)
                let got = Array(UnsafeBufferPointer(start: row, count: rect.width * 4))
                let want = Array(whole.pixels[(y - rect.y) * whole.rowBytes..<(y - rect.y + 1) * whole.rowBytes])
                #expect(got == want, "trial \(trial) row \(y)")
                // Ask some rows twice, skip none; stop early in the last trial.
                if trial == 3 && y == rect.y + 50 { break }
                if rng.int(below: 4) != 0 { y += 1 }
            }
            rows.finish()  // ends the decoding thread even when rows are left
            levelReader.finish()
            #expect(levelReader.failure == nil)
        }
    }

    @Test("a growing count wakes its waiter once the count it waits for is reached, and close ends every wait")
    func growingCount() {
        let count = GrowingCount()
        let worker = WorkerThread.start { () -> [Int] in
            var seen: [Int] = []
            var need = 1
            while need <= 100 {
                let now = count.wait(forAtLeast: need, preferring: need + 9)
                seen.append(now)
                need = now + 1
            }
            return seen
        }
        for n in 1...100 { count.raise(to: n) }
        count.raise(to: 50)  // lower: changes nothing
        let seen = worker.join()
        #expect(seen.last == 100)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 < $1 })
        let closed = GrowingCount()
        let waiter = WorkerThread.start { closed.wait(forAtLeast: 10) }
        closed.raise(to: 3)
        closed.close()
        #expect(waiter.join() == 3)
        #expect(closed.isClosed)
    }

    #if os(Linux)
        @Test("a stage runs under SCHED_BATCH and the thread gets its policy back, also after a throw")
        func batchScheduling() throws {
            // On a thread of its own: the test runner's threads are shared.
            let policies = WorkerThread.start { () -> [Int32] in
                let before = sched_getscheduler(0)
                let inside = BatchScheduling.run { sched_getscheduler(0) }
                struct Stop: Error {}
                var afterThrow: Int32 = -1
                do {
                    try BatchScheduling.run { () throws -> Void in
                        afterThrow = sched_getscheduler(0)
                        throw Stop()
                    }
                } catch {}
                return [before, inside, afterThrow, sched_getscheduler(0)]
            }.join()
            #expect(policies[1] == BatchScheduling.policy, "\(policies)")
            #expect(policies[2] == BatchScheduling.policy, "\(policies)")
            #expect(policies[0] != BatchScheduling.policy && policies[3] == policies[0], "\(policies)")
        }
    #endif
}
