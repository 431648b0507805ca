import TileView
import TileViewCodecs
import TileViewCore
import TileViewGallery
import TileViewPaging

/// The memory benchmark behind `tileview bench memory`: pages forward through a folder, wrapping around, rendering
/// every frame as the gallery does (without writing it), and samples memory after each frame.
///
/// Each sample is taken right after the frame is rendered, while the pages it shows still hold their tiles:
/// `residentBytes` is the decoded pixels the resident pages hold (the loader's own count) and `rssBytes` the
/// process's resident set (VmRSS) at that moment. The summary's `peakRSSBytes` is the kernel's high-water mark
/// (VmHWM) over the whole process, start-up included, which is what a memory budget must hold.
public enum MemoryBench {
    /// Runs `steps` `next` moves over `pages` (pass a circular list to wrap) in a `viewport`; frame 0 is the
    /// first page. `onStep` sees each sample as it is taken (for progress).
    public static func run(
        pages: GalleryPages, viewport: PixelSize, steps: Int, options: DecodeOptions = DecodeOptions(),
        onStep: (MemoryBenchReport.Step) -> Void = { _ in }
    ) throws(TileViewError) -> MemoryBenchReport {
        let script = GalleryScript(actions: Array(repeating: .move(.next), count: max(0, steps)))
        let job = GalleryJob(
            pages: pages, settings: GallerySettings(viewport: viewport), script: script, options: options)
        var samples: [MemoryBenchReport.Step] = []
        let summary = try job.run(
            into: nil,
            onFrame: { frame, sample in
                let step = MemoryBenchReport.Step(
                    step: frame.index, page: pages.name(at: frame.position),
                    resident: frame.resident.map { pages.name(at: $0) },
                    residentBytes: sample.residentBytes, rssBytes: sample.rssBytes)
                samples.append(step)
                onStep(step)
            }
        ).summary
        return MemoryBenchReport(
            steps: samples,
            summary: MemoryBenchReport.Summary(
                frames: summary.frames, pages: pages.count, maxResident: summary.maxResident,
                peakResidentBytes: summary.peakResidentBytes, peakRSSBytes: summary.peakRSSBytes,
                decodePasses: summary.decodePasses, bytesDecoded: summary.bytesDecoded))
    }
}
