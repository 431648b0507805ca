/// The reconstruction filter the renderer resamples with.
///
/// When the frame shrinks the level (more than one level pixel per viewport pixel), the filter's
/// support is stretched by the shrink factor, as Pillow's resize does, so it averages every level
/// pixel under a viewport pixel and does not alias. Weights are normalised to sum to 1. All three
/// kernels are interpolating (1 at 0, 0 at the other integers), so a 1:1 integer-aligned render
/// copies pixels exactly.
public enum ResampleFilter: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Lanczos-3 when shrinking, Catmull-Rom when enlarging or at 1:1 (decided once per frame).
    case automatic
    /// sinc(x) sinc(x/3) on |x| < 3: sharp, does not alias when shrinking; may ring a little.
    case lanczos3
    /// The Catmull-Rom cubic (Keys, a = -0.5) on |x| < 2: smooth enlargement.
    case catmullRom
    /// The triangle (tent) on |x| < 1: bilinear interpolation when enlarging, a tent average when shrinking.
    case bilinear
    /// Sharp pixels past 1:1: each frame pixel shows the one level pixel whose square holds its centre (a box on
    /// |x| < 0.5), so enlarged pixels are squares. Below 1:1 it resolves to Lanczos-3 like `automatic`: shrinking
    /// with a box would alias.
    case nearest

    /// The filter for a frame: `automatic` becomes Lanczos-3 when shrinking and Catmull-Rom otherwise; `nearest`
    /// becomes Lanczos-3 when shrinking.
    public func resolved(shrinking: Bool) -> ResampleFilter {
        switch self {
        case .automatic: shrinking ? .lanczos3 : .catmullRom
        case .nearest: shrinking ? .lanczos3 : .nearest
        default: self
        }
    }

    /// Half the width of the kernel, in source pixels before any stretching.
    public var support: Double {
        switch self {
        case .automatic, .lanczos3: 3
        case .catmullRom: 2
        case .bilinear: 1
        case .nearest: 0.5
        }
    }

    /// The kernel at distance `x` (in unstretched source pixels); 0 outside the support.
    public func weight(at x: Double) -> Double {
        let d = abs(x)
        switch self {
        case .automatic, .lanczos3:
            guard d < 3 else { return 0 }
            guard d > 0 else { return 1 }
            // sinc(d) sinc(d / 3) = 3 sin(pi d) sin(pi d / 3) / (pi d)^2
            let pd = Double.pi * d
            return 3 * sinPi(d) * sinPi(d / 3) / (pd * pd)
        case .catmullRom:
            // Keys' cubic with a = -0.5.
            if d < 1 { return (1.5 * d - 2.5) * d * d + 1 }
            if d < 2 { return ((-0.5 * d + 2.5) * d - 4) * d + 2 }
            return 0
        case .bilinear:
            return d < 1 ? 1 - d : 0
        case .nearest:
            // A centre exactly between two pixels has no tap strictly inside; the axis then takes the
            // nearest pixel (rounding half away from zero), so every frame pixel still shows one level pixel.
            return d < 0.5 ? 1 : 0
        }
    }

    public var description: String { rawValue }
}
