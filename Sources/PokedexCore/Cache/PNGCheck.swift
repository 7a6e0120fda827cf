/// Structural check of a PNG file: signature, every chunk's CRC, a header whose size is a
/// sprite's, and a final IEND. A truncated or corrupted sprite fails it, so it is fetched again
/// instead of served; one that claims to be 100000×100000 is refused, so no reader of the file
/// (pokectl, a widget, an image viewer) is asked for 40 GB.
public enum PNGCheck {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The widest or tallest PNG any check accepts; each sprite kind has its own, smaller cap
    /// (``SpriteKind``).
    public static let maxSide = 4096

    /// The width and height its header claims, read from the first 24 bytes; nil when it is
    /// not a PNG. Cheap: nothing is decoded or checksummed.
    public static func dimensions(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        return (Int(uint32(bytes, 16)), Int(uint32(bytes, 20)))
    }

    /// Whether `bytes` is a whole, undamaged PNG of at most `maxSide` pixels each way.
    public static func isValid(_ bytes: [UInt8], maxSide: Int = PNGCheck.maxSide) -> Bool {
        guard bytes.count >= 8 + 12, Array(bytes[0..<8]) == signature else { return false }
        var at = 8
        var sawHeader = false
        while at + 12 <= bytes.count {
            let length = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length <= bytes.count - at - 12 else { return false }
            let kind = bytes[(at + 4)..<(at + 8)]
            let end = at + 8 + length
            let stored = UInt32(bytes[end]) << 24 | UInt32(bytes[end + 1]) << 16 | UInt32(bytes[end + 2]) << 8 | UInt32(bytes[end + 3])
            guard CRC32.checksum(bytes[(at + 4)..<end]) == stored else { return false }
            if !sawHeader {
                guard Array(kind) == Array("IHDR".utf8), length >= 8 else { return false }
                let width = Self.uint32(bytes, at + 8), height = Self.uint32(bytes, at + 12)
                guard (1...UInt32(max(1, maxSide))).contains(width), (1...UInt32(max(1, maxSide))).contains(height) else { return false }
                sawHeader = true
            }
            if Array(kind) == Array("IEND".utf8) { return end + 4 == bytes.count }
            at = end + 4
        }
        return false
    }

    /// The chunks a sprite needs, as they came (each with its CRC): the critical ones (IHDR,
    /// PLTE, IDAT, IEND) and tRNS, a palette's transparency. Text (a zTXt that inflates to
    /// 200 MiB), profiles and the rest are dropped, so no reader of the stored file meets them.
    /// For bytes that passed ``isValid(_:maxSide:)``.
    public static func withoutAncillaryChunks(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= 8 else { return bytes }
        var out = Array(bytes[0..<8])
        var at = 8
        while at + 12 <= bytes.count {
            let length = Int(uint32(bytes, at))
            guard length <= bytes.count - at - 12 else { break }
            let kind = bytes[(at + 4)..<(at + 8)]
            let critical = kind.first.map { $0 & 0x20 == 0 } ?? false  // an upper-case first letter
            if critical || kind.elementsEqual("tRNS".utf8) { out += bytes[at..<(at + 12 + length)] }
            at += 12 + length
        }
        return out
    }

    static func uint32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }
}
