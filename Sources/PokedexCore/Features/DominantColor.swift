import PokedexModels

/// A sprite's dominant colour: the most common colour among its opaque pixels, leaving out
/// near-white and near-black (outlines, highlights), so Pikachu is yellow rather than black.
enum DominantColor {
    /// Pixels with less alpha than this are background.
    static let minAlpha: UInt8 = 128
    /// A pixel whose channels are all at or above this is near-white.
    static let nearWhite: UInt8 = 232
    /// A pixel whose channels are all at or below this is near-black.
    static let nearBlack: UInt8 = 32

    /// `#rrggbb`, or nil when no pixel counts (empty, transparent, or only black and white).
    ///
    /// Colours are counted in buckets of 4 bits a channel, so shading does not split a colour
    /// in many; the answer is the mean of the biggest bucket's pixels.
    public static func hex(of image: RGBAImage) -> String? {
        var counts = [UInt32](repeating: 0, count: 4096)
        var sums = [(UInt32, UInt32, UInt32)](repeating: (0, 0, 0), count: 4096)
        let p = image.pixels
        var i = 0
        while i + 3 < p.count {
            let r = p[i], g = p[i + 1], b = p[i + 2], a = p[i + 3]
            i += 4
            guard a >= minAlpha else { continue }
            if r >= nearWhite && g >= nearWhite && b >= nearWhite { continue }
            if r <= nearBlack && g <= nearBlack && b <= nearBlack { continue }
            let bucket = Int(r >> 4) << 8 | Int(g >> 4) << 4 | Int(b >> 4)
            counts[bucket] += 1
            sums[bucket].0 += UInt32(r)
            sums[bucket].1 += UInt32(g)
            sums[bucket].2 += UInt32(b)
        }
        var best = -1
        var bestCount: UInt32 = 0
        for (bucket, n) in counts.enumerated() where n > bestCount {
            best = bucket
            bestCount = n
        }
        guard best >= 0 else { return nil }
        let s = sums[best]
        return hex(UInt8(s.0 / bestCount), UInt8(s.1 / bestCount), UInt8(s.2 / bestCount))
    }

    static func hex(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        var out = "#"
        for v in [r, g, b] { out.append(digits[Int(v >> 4)]); out.append(digits[Int(v & 0xF)]) }
        return out
    }
}
