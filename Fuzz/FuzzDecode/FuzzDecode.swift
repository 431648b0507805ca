import Foundation

/// libFuzzer's entry point: runs one input through every decoder (see `DecodeExercise`).
/// Called by libFuzzer in a `TILEVIEW_FUZZ=1` build and by `CorpusReplayer` otherwise.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodeOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    var exercise = DecodeExercise(bytes: bytes)
    _ = exercise.run()
    return 0
}

#if FUZZING
    /// libFuzzer's public driver (compiler-rt FuzzerInterface.h). SwiftPM links executables
    /// with `--defsym main=FuzzDecode_main`, so libFuzzer's own main() never runs: `FuzzMain`
    /// hands it the command line instead.
    @_silgen_name("LLVMFuzzerRunDriver")
    func llvmFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt
#endif

/// The fuzz harness over the PNG and JPEG decoders, or (built without `TILEVIEW_FUZZ`) a
/// replayer of files and folders through the same checks.
@main
enum FuzzMain {
    static func main() {
        #if FUZZING
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(llvmFuzzerRunDriver(&argc, &argv, fuzzDecodeOneInput))
        #else
            exit(CorpusReplayer.run(arguments: Array(CommandLine.arguments.dropFirst())))
        #endif
    }
}
