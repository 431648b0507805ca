/// SHA-256 (FIPS 180-4): the checksums of the frame journal (`--resume`) and, in the tests, of decoded pixels
/// against the corpus's reference hashes.
///
/// The corpus references are digests of up to 49 MB of RGBA, hashed in debug builds, so this walks the
/// bytes through raw pointers with the state in locals (several times faster without optimisation).
/// The FIPS test vectors are checked in TileViewCoreTests.
public enum SHA256 {
    /// The digest of any byte collection as 64 lowercase hex digits.
    public static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        hex(Array(bytes))
    }

    /// The 64 round constants (FIPS 180-4 section 4.2.2); the SHA instructions' code takes them from here too.
    public static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// The digest as 64 lowercase hex digits.
    public static func hex(_ bytes: [UInt8]) -> String {
        var state: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        let fullBlocks = bytes.count / 64
        var tail = Array(bytes[(fullBlocks * 64)...])
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bitLength = UInt64(bytes.count) &* 8
        for i in (0..<8).reversed() { tail.append(UInt8(truncatingIfNeeded: bitLength >> (UInt64(i) * 8))) }
        state.withUnsafeMutableBufferPointer { h in
            roundConstants.withUnsafeBufferPointer { k in
                withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                    bytes.withUnsafeBufferPointer { data in
                        compress(data.baseAddress!, blocks: fullBlocks, h.baseAddress!, k.baseAddress!, w.baseAddress!)
                    }
                    tail.withUnsafeBufferPointer { data in
                        compress(
                            data.baseAddress!, blocks: data.count / 64, h.baseAddress!, k.baseAddress!, w.baseAddress!)
                    }
                }
            }
        }
        return hex(digest: state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) } })
    }

    /// A digest's bytes as lowercase hex digits, two per byte.
    public static func hex(digest: [UInt8]) -> String {
        let digits: [Character] = Array("0123456789abcdef")
        var text = ""
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return text
    }

    private static func compress(
        _ data: UnsafePointer<UInt8>, blocks: Int, _ h: UnsafeMutablePointer<UInt32>, _ k: UnsafePointer<UInt32>,
        _ w: UnsafeMutablePointer<UInt32>
    ) {
        var a = h[0]
        var b = h[1]
        var c = h[2]
        var d = h[3]
        var e = h[4]
        var f = h[5]
        var g = h[6]
        var hh = h[7]
        var p = data
        var block = 0
        while block < blocks {
            var t = 0
            while t < 16 {
                w[t] = UInt32(p[0]) &<< 24 | UInt32(p[1]) &<< 16 | UInt32(p[2]) &<< 8 | UInt32(p[3])
                p += 4
                t += 1
            }
            while t < 64 {
                let x = w[t - 15]
                let y = w[t - 2]
                let s0 = (x &>> 7 | x &<< 25) ^ (x &>> 18 | x &<< 14) ^ (x &>> 3)
                let s1 = (y &>> 17 | y &<< 15) ^ (y &>> 19 | y &<< 13) ^ (y &>> 10)
                w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
                t += 1
            }
            let a0 = a
            let b0 = b
            let c0 = c
            let d0 = d
            let e0 = e
            let f0 = f
            let g0 = g
            let h0 = hh
            t = 0
            while t < 64 {
                let s1 = (e &>> 6 | e &<< 26) ^ (e &>> 11 | e &<< 21) ^ (e &>> 25 | e &<< 7)
                let ch = (e & f) ^ (~e & g)
                let t1 = hh &+ s1 &+ ch &+ k[t] &+ w[t]
                let s0 = (a &>> 2 | a &<< 30) ^ (a &>> 13 | a &<< 19) ^ (a &>> 22 | a &<< 10)
                let maj = (a & b) ^ (a & c) ^ (b & c)
                hh = g
                g = f
                f = e
                e = d &+ t1
                d = c
                c = b
                b = a
                a = t1 &+ s0 &+ maj
                t += 1
            }
            a = a &+ a0
            b = b &+ b0
            c = c &+ c0
            d = d &+ d0
            e = e &+ e0
            f = f &+ f0
            g = g &+ g0
            hh = hh &+ h0
            block += 1
        }
        h[0] = a
        h[1] = b
        h[2] = c
        h[3] = d
        h[4] = e
        h[5] = f
        h[6] = g
        h[7] = hh
    }
}
