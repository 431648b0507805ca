import CImageCodecs
import TileViewCore

extension SHA256 {
    /// `hex(bytes)`, computed with the processor's SHA instructions where it has them (x86's SHA extensions: about
    /// a tenth of the instructions of the portable code, which runs everywhere else). The same digest either way.
    public static func fastHex(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { fastHex($0) }
    }

    /// `fastHex` of the bytes `data` points at, read in place.
    public static func fastHex(_ data: UnsafeBufferPointer<UInt8>) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        let done = digest.withUnsafeMutableBufferPointer { out in
            roundConstants.withUnsafeBufferPointer { k in
                tv_sha256_hardware(data.baseAddress, data.count, k.baseAddress, out.baseAddress)
            }
        }
        return done == 1 ? hex(digest: digest) : hex(Array(data))
    }
}
