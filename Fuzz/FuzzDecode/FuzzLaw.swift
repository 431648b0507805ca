/// Stops the process when a law of the decoders is broken, so that libFuzzer records the input
/// as a crash (and the replayer fails loudly on it).
func law(_ holds: Bool, _ statement: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if !holds { fatalError("law broken: \(statement())", file: file, line: line) }
}
