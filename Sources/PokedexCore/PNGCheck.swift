/// Structural check of a PNG file: signature, every chunk's CRC, and a final IEND.
/// A truncated or corrupted sprite fails it, so it is fetched again instead of served.
public enum PNGCheck {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Whether `bytes` is a whole, undamaged PNG.
    public static func isValid(_ bytes: [UInt8]) -> Bool {
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
            if !sawHeader { guard Array(kind) == Array("IHDR".utf8) else { return false }; sawHeader = true }
            if Array(kind) == Array("IEND".utf8) { return end + 4 == bytes.count }
            at = end + 4
        }
        return false
    }
}
