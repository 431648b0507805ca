/// What a job will hold in memory at its peak, worked out from sizes before anything large is allocated, as a
/// sum of named parts, so that a refusal can say what would fit.
///
/// The parts are the large buffers of a run (viewport-sized frames, whole images a decoder must hold, caches
/// with a budget); everything else a run allocates is small beside them. The multipliers are counted from the
/// code (see `frames(_:copies:)`) and checked against measured peaks by the tests.
public struct MemoryEstimate: Hashable, Sendable, CustomStringConvertible {
    public struct Part: Hashable, Sendable {
        public let what: String
        public let bytes: Int
    }

    public private(set) var parts: [Part] = []

    public init() {}

    /// The sum of the parts (saturating).
    public var bytes: Int {
        parts.reduce(0) { $0.addingReportingOverflow($1.bytes).overflow ? Int.max : $0 + $1.bytes }
    }

    /// Adds a part (negative sizes count as 0).
    public mutating func add(_ what: String, bytes: Int) { parts.append(Part(what: what, bytes: max(0, bytes))) }

    /// An estimate of one part, "frames": `copies` RGBA frames of `viewport` (a frame run's plan, before what does
    /// not scale with the viewport is added).
    public static func frames(_ viewport: PixelSize, copies: Int) -> MemoryEstimate {
        var estimate = MemoryEstimate()
        estimate.add("frames", bytes: frameBytes(viewport, copies: copies))
        return estimate
    }

    /// `copies` RGBA frames of `viewport` (4 bytes a pixel).
    public static func frameBytes(_ viewport: PixelSize, copies: Int = 1) -> Int {
        let (pixels, overflow) = max(0, viewport.width).multipliedReportingOverflow(by: max(0, viewport.height))
        guard !overflow else { return Int.max }
        let (bytes, more) = pixels.multipliedReportingOverflow(by: 4 * max(0, copies))
        return more ? Int.max : bytes
    }

    /// The largest viewport of `viewport`'s aspect whose frames would fit in `limit`, if this estimate is
    /// `frames` bytes of frames over a rest that does not depend on the viewport: `limit - rest` shared by the
    /// same number of frames. Nil when nothing fits.
    public func largestViewport(
        like viewport: PixelSize, frameBytes frames: Int, limit: Int
    ) -> PixelSize? {
        let rest = bytes - frames
        guard frames > 0, limit > rest else { return nil }
        let ratio = Double(limit - rest) / Double(frames)
        guard ratio < 1 else { return viewport }
        let side = ratio.squareRoot()
        let fit = PixelSize(
            width: Int((Double(viewport.width) * side).rounded(.down)),
            height: Int((Double(viewport.height) * side).rounded(.down)))
        return fit.isEmpty ? nil : fit
    }

    /// `12.5 MiB` style: whole MiB at or above 10, one decimal below.
    public static func mebibytes(_ bytes: Int) -> String {
        let mib = Double(bytes) / Double(1 << 20)
        return mib >= 10 ? "\(Int(mib.rounded(.up))) MiB" : "\(Double(Int((mib * 10).rounded(.up))) / 10) MiB"
    }

    /// `about 1280 MiB (frames 1024 MiB, tile cache 64 MiB, ...)`.
    public var description: String {
        "about \(Self.mebibytes(bytes)) ("
            + parts.map { "\($0.what) \(Self.mebibytes($0.bytes))" }.joined(separator: ", ")
            + ")"
    }
}
