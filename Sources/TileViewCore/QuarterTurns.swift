/// Clockwise quarter turns, any integer (negative: anticlockwise), as 0, 1, 2 or 3: the one normaliser of a
/// rotation count (the zoom engine's, a scene's, an orientation's, a page's).
public func normalizedQuarterTurns(_ turns: Int) -> Int {
    (turns % 4 + 4) % 4
}

/// A value that turns by quarter turns: it says what one clockwise turn gives, and any count of turns follows.
public protocol QuarterTurnable {
    /// The value turned clockwise by one quarter turn.
    var turnedClockwise: Self { get }
}

extension QuarterTurnable {
    /// The value turned clockwise by `quarterTurns` quarter turns (negative: anticlockwise).
    public func rotated(clockwiseQuarterTurns quarterTurns: Int) -> Self {
        var result = self
        for _ in 0..<normalizedQuarterTurns(quarterTurns) { result = result.turnedClockwise }
        return result
    }
}
