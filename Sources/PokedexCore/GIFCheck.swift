/// Structural check of a GIF file: header, screen descriptor, colour tables, every block and
/// sub-block length, and the final trailer. A cut-off or corrupted animation fails it.
public enum GIFCheck {
    /// Whether `bytes` is a whole GIF87a or GIF89a file.
    public static func isValid(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 14, bytes[0..<6].elementsEqual("GIF87a".utf8) || bytes[0..<6].elementsEqual("GIF89a".utf8)
        else { return false }
        var at = 13
        let flags = bytes[10]
        if flags & 0x80 != 0 { at += 3 << (Int(flags & 7) + 1) }
        var frames = 0
        while at < bytes.count {
            switch bytes[at] {
            case 0x3B:  // trailer
                return at == bytes.count - 1 && frames > 0
            case 0x21:  // extension: label, then sub-blocks
                at += 2
                guard let next = skipSubBlocks(bytes, from: at) else { return false }
                at = next
            case 0x2C:  // image descriptor, optional local colour table, LZW code size, sub-blocks
                guard at + 10 <= bytes.count else { return false }
                let local = bytes[at + 9]
                at += 10
                if local & 0x80 != 0 { at += 3 << (Int(local & 7) + 1) }
                at += 1
                guard let next = skipSubBlocks(bytes, from: at) else { return false }
                at = next
                frames += 1
            default:
                return false
            }
        }
        return false
    }

    /// The index after a run of sub-blocks ended by a zero length, or nil if the file ends first.
    static func skipSubBlocks(_ bytes: [UInt8], from start: Int) -> Int? {
        var at = start
        while at < bytes.count {
            let n = Int(bytes[at])
            at += 1
            if n == 0 { return at }
            at += n
        }
        return nil
    }
}
