/// `withUnsafeBytes` and `withUnsafeMutableBytes` rethrow untyped errors; these keep `CodecError`.
extension Array where Element == UInt8 {
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws(CodecError) -> R) throws(CodecError) -> R {
        var result: Result<R, CodecError>?
        withUnsafeBytes { raw in result = Result { () throws(CodecError) -> R in try body(raw) } }
        return try result!.get()
    }

    mutating func withMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws(CodecError) -> R)
        throws(CodecError) -> R
    {
        var result: Result<R, CodecError>?
        withUnsafeMutableBytes { raw in result = Result { () throws(CodecError) -> R in try body(raw) } }
        return try result!.get()
    }
}
