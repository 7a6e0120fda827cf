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
            // Table k's entry for the low byte of `b`. A function, not arithmetic written out in
            // place: an expression of eight such lookups took Swift 6.0's type checker seconds,
            // past its limit on a busy machine (Debian 13's swiftlang stopped the build on it).
            @inline(__always) func at(_ k: Int, _ b: UInt32) -> UInt32 { t[k &* 256 &+ Int(b & 0xFF)] }
            var i = 0
            let n = bytes.count
            if let base = bytes.baseAddress {
                while n - i >= 8 {
                    let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self).littleEndian
                    let lo = UInt32(truncatingIfNeeded: w) ^ c, hi = UInt32(truncatingIfNeeded: w >> 32)
                    c = at(7, lo) ^ at(6, lo >> 8) ^ at(5, lo >> 16) ^ at(4, lo >> 24)
                      ^ at(3, hi) ^ at(2, hi >> 8) ^ at(1, hi >> 16) ^ at(0, hi >> 24)
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
