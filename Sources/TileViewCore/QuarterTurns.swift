/// Clockwise quarter turns, any integer (negative: anticlockwise), as 0, 1, 2 or 3: the one normaliser of a
/// rotation count (the zoom engine's, a scene's, an orientation's, a page's).
public func normalizedQuarterTurns(_ turns: Int) -> Int {
    (turns % 4 + 4) % 4
}
