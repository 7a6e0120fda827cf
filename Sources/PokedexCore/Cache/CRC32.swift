/// CRC-32 (IEEE 802.3, as PNG and gzip use it).
enum CRC32 {
    /// Slicing by eight (Intel's): `tables[k][b]` is the CRC of byte `b` followed by `k` zero
    /// bytes, so eight bytes are folded in with eight lookups and no dependency between them.
    private static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            t[n] = c
        }
        for n in 0..<256 {
            for k in 1..<8 { t[k * 256 + n] = t[(k - 1) * 256 + n] >> 8 ^ t[Int(t[(k - 1) * 256 + n] & 0xFF)] }
        }
        return t
    }()

    /// The checksum of `bytes`, continuing from `crc` (0 to start).
    public static func checksum<C: Collection>(_ bytes: C, continuing crc: UInt32 = 0) -> UInt32 where C.Element == UInt8 {
        if let c = bytes.withContiguousStorageIfAvailable({ checksum($0, continuing: crc) }) { return c }
        return checksum(Array(bytes), continuing: crc)
    }

    private static func checksum(_ bytes: UnsafeBufferPointer<UInt8>, continuing crc: UInt32) -> UInt32 {
        var c = ~crc
        tables.withUnsafeBufferPointer { t in
            var i = 0
            let n = bytes.count
            if let base = bytes.baseAddress {
                while n - i >= 8 {
                    let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self).littleEndian
                    let lo = UInt32(truncatingIfNeeded: w) ^ c, hi = UInt32(truncatingIfNeeded: w >> 32)
                    c = t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int(lo >> 8 & 0xFF)] ^ t[5 * 256 + Int(lo >> 16 & 0xFF)] ^ t[4 * 256 + Int(lo >> 24)]
                      ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int(hi >> 8 & 0xFF)] ^ t[256 + Int(hi >> 16 & 0xFF)] ^ t[Int(hi >> 24)]
                    i += 8
                }
            }
            while i < n {
                c = t[Int((c ^ UInt32(bytes[i])) & 0xFF)] ^ (c >> 8)
                i += 1
            }
        }
        return ~c
    }
}
