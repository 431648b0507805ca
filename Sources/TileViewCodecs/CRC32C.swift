import CImageCodecs

/// CRC-32C (Castagnoli), the checksum of the disk cache's entries: it catches a damaged entry (a torn write, a
/// flipped bit), which is all a checksum of the cache's own files is for, at about eight times the speed of
/// SHA-256 where the processor has SSE 4.2 (the C shim's `crc32c.c`; a table elsewhere).
public enum CRC32C {
    /// The checksum of the bytes `data` points at.
    public static func checksum(_ data: UnsafeBufferPointer<UInt8>) -> UInt32 {
        tv_crc32c(data.baseAddress, data.count)
    }

    /// The checksum by table alone, the path of processors without SSE 4.2 (the same value).
    public static func portableChecksum(_ data: UnsafeBufferPointer<UInt8>) -> UInt32 {
        tv_crc32c_portable(data.baseAddress, data.count)
    }

    /// `checksum` as 8 lowercase hex digits.
    public static func hex(_ data: UnsafeBufferPointer<UInt8>) -> String {
        let digits = String(checksum(data), radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
