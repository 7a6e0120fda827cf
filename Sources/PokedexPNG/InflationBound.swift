import CDeflate
import CPNG

/// What a PNG's image data may inflate to, and whether it does: a decompression bomb (a
/// 512×512 header over data that inflates to 300 MiB) is refused after inflating at most what
/// its header allows, about 1 MiB, before libpng is asked to decode it.
enum InflationBound {
    /// The bytes the image data of a `width`×`height` PNG of this depth, colour type and
    /// interlacing inflates to: each row's bytes and its filter byte (the seven passes of
    /// Adam7 when interlaced). Nil for a colour type the format does not have.
    static func expected(width: Int, height: Int, bitDepth: Int, colorType: Int, interlaced: Bool) -> Int? {
        let channels: Int
        switch colorType {
        case 0, 3: channels = 1
        case 2: channels = 3
        case 4: channels = 2
        case 6: channels = 4
        default: return nil
        }
        guard [1, 2, 4, 8, 16].contains(bitDepth), (0...1 << 16).contains(width), (0...1 << 16).contains(height) else { return nil }
        let bits = channels * bitDepth
        func rows(_ w: Int, _ h: Int) -> Int { w <= 0 || h <= 0 ? 0 : h * (1 + (w * bits + 7) / 8) }
        guard interlaced else { return rows(width, height) }
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        return passes.reduce(0) { $0 + rows((width - $1.0 + $1.2 - 1) / $1.2, (height - $1.1 + $1.3 - 1) / $1.3) }
    }

    /// Whether the IDAT chunks of `png` inflate to no more than its IHDR allows. False for
    /// bytes that are not a PNG with a header, or whose stream is damaged.
    static func holds(_ png: [UInt8]) -> Bool {
        guard png.count >= 33, png[12..<16].elementsEqual("IHDR".utf8) else { return false }
        func uint32(_ at: Int) -> Int { Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3]) }
        guard let limit = expected(width: uint32(16), height: uint32(20), bitDepth: Int(png[24]), colorType: Int(png[25]),
                                   interlaced: png[28] != 0) else { return false }
        var data: [UInt8] = []
        var at = 8
        while at + 12 <= png.count {
            let length = uint32(at)
            guard length <= png.count - at - 12 else { return false }
            if png[(at + 4)..<(at + 8)].elementsEqual("IDAT".utf8) { data += png[(at + 8)..<(at + 8 + length)] }
            at += 12 + length
        }
        guard let inflated = inflatedSize(data, upTo: limit) else { return false }
        return inflated <= limit
    }

    /// Where a header's size is this or less, its data is inflated whole into that many bytes
    /// (libdeflate, about twice zlib's speed): a sprite's 37 KB. A bigger header's is counted
    /// through zlib, a buffer at a time, so a lying header costs no more memory than this.
    static let wholeLimit = 4 << 20

    /// ``inflatedSize(_:upTo:)`` in one call; nil where libdeflate cannot say (a stream that
    /// ends early or is damaged: zlib's count says what there was, as libpng reads it).
    private static func inflatedSizeWhole(_ stream: [UInt8], upTo limit: Int) -> Int? {
        guard let d = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(d) }
        let room = limit + 1
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { out -> Int? in
            var read = 0, written = 0
            // `_ex`: bytes after the stream's end are let be, as zlib's count lets them.
            let rc = stream.withUnsafeBytes { input in
                libdeflate_zlib_decompress_ex(d, input.baseAddress, input.count, out.baseAddress, room, &read, &written)
            }
            switch rc {
            case LIBDEFLATE_SUCCESS: return written
            case LIBDEFLATE_INSUFFICIENT_SPACE: return room
            default: return nil
            }
        }
    }

    /// The bytes `stream` (zlib) inflates to, counted without keeping them and no further
    /// than `limit` + one buffer; nil when the stream is damaged.
    static func inflatedSize(_ stream: [UInt8], upTo limit: Int) -> Int? {
        if limit < wholeLimit, let whole = inflatedSizeWhole(stream, upTo: limit) { return whole }
        var z = z_stream()
        guard inflateInit_(&z, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&z) }
        var out = [UInt8](repeating: 0, count: 32 * 1024)
        var total = 0
        return stream.withUnsafeBytes { input -> Int? in
            z.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            z.avail_in = uInt(input.count)
            while true {
                let r = out.withUnsafeMutableBytes { o -> Int32 in
                    z.next_out = o.bindMemory(to: Bytef.self).baseAddress
                    z.avail_out = uInt(o.count)
                    return inflate(&z, Z_NO_FLUSH)
                }
                total += out.count - Int(z.avail_out)
                if total > limit || r == Z_STREAM_END { return total }
                // Out of input before the end: what there was (libpng says the rest is missing).
                if r == Z_BUF_ERROR || (r == Z_OK && z.avail_in == 0 && z.avail_out > 0) { return total }
                guard r == Z_OK else { return nil }
            }
        }
    }
}
