import TileView

/// What `tileview bench memory` measured: one sample per frame and the peaks (see `MemoryBench`). Made by
/// `MemoryBench.run` (the memberwise initialisers are internal).
public struct MemoryBenchReport: Encodable, Sendable {
    /// One frame's sample.
    public struct Step: Encodable, Equatable, Sendable {
        /// The frame's index (0 is the first page).
        public let step: Int
        /// The page shown, as named in the folder.
        public let page: String
        /// The resident pages.
        public let resident: [String]
        /// Decoded bytes held by the resident pages right after the frame was rendered.
        public let residentBytes: Int
        /// The process's resident set size (VmRSS) then; nil where the system does not report it.
        public let rssBytes: Int?

    }

    /// The peaks over the run.
    public struct Summary: Encodable, Equatable, Sendable {
        public let frames: Int
        public let pages: Int
        public let maxResident: Int
        public let peakResidentBytes: Int
        /// The process's peak resident set size (VmHWM), start-up included.
        public let peakRSSBytes: Int?
        public let decodePasses: Int
        public let bytesDecoded: Int

    }

    public let steps: [Step]
    public let summary: Summary

    /// Whether the peak RSS is at most `bytes` (false when it is not known).
    public func isWithin(budgetBytes bytes: Int) -> Bool {
        guard let peak = summary.peakRSSBytes else { return false }
        return peak <= bytes
    }
}
