/// Structural check of a GIF file: header, screen descriptor, colour tables, every block and
/// sub-block length, and the final trailer. A cut-off or corrupted animation fails it, and so
/// does one that lies about its size: a screen over ``PNGCheck/maxSide``, or a frame that does
/// not fit in its screen (a reader would allocate what the frame claims).
enum GIFCheck {
    /// The screen's width and height, from the first 10 bytes; nil when it is not a GIF.
    public static func dimensions(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 10, bytes[0..<6].elementsEqual("GIF87a".utf8) || bytes[0..<6].elementsEqual("GIF89a".utf8) else { return nil }
        return (uint16(bytes, 6), uint16(bytes, 8))
    }

    /// Whether `bytes` is a whole GIF87a or GIF89a file with a screen of at most `maxSide`
    /// pixels each way.
    public static func isValid(_ bytes: [UInt8], maxSide: Int = PNGCheck.maxSide) -> Bool {
        guard bytes.count >= 14, bytes[0..<6].elementsEqual("GIF87a".utf8) || bytes[0..<6].elementsEqual("GIF89a".utf8)
        else { return false }
        let screenWidth = uint16(bytes, 6), screenHeight = uint16(bytes, 8)
        guard (1...max(1, maxSide)).contains(screenWidth), (1...max(1, maxSide)).contains(screenHeight) else { return false }
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
                let left = uint16(bytes, at + 1), top = uint16(bytes, at + 3)
                let width = uint16(bytes, at + 5), height = uint16(bytes, at + 7)
                guard width >= 1, height >= 1, left + width <= screenWidth, top + height <= screenHeight else { return false }
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

    /// A little-endian 16-bit field.
    static func uint16(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }

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
