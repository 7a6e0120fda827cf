import PokedexModels

/// Sixel (foot, mlterm, xterm -ti vt340, WezTerm, Windows Terminal): an image as a DCS string of
/// bands six pixels high, in at most 256 colours picked from the image by median cut. Pixels with
/// little alpha are not painted at all (`P2=1`), so the terminal's background shows through.
public enum Sixel {
    /// Alpha below this is not painted.
    static let opaque: UInt8 = 128

    public static func encode(_ image: RGBAImage, maxColors: Int = 256) -> String {
        let w = image.width, h = image.height
        var colours: [RGB] = []
        var opaquePixels: [RGB] = []
        opaquePixels.reserveCapacity(w * h)
        for i in 0..<(w * h) where image.pixels[i * 4 + 3] >= opaque {
            opaquePixels.append(RGB(image.pixels[i * 4], image.pixels[i * 4 + 1], image.pixels[i * 4 + 2]))
        }
        let limit = max(1, min(256, maxColors))
        // Pixel art has a few dozen colours: where they fit, the palette is exactly them.
        var distinct = Set<UInt32>()
        for c in opaquePixels where distinct.count <= limit { distinct.insert(UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b)) }
        colours = distinct.count <= limit && !distinct.isEmpty
            ? distinct.sorted().map { RGB(UInt8($0 >> 16), UInt8($0 >> 8 & 0xFF), UInt8($0 & 0xFF)) }
            : medianCut(opaquePixels, maxColors: limit)
        // Each pixel's palette index (-1: transparent), nearest colour memoized per exact colour.
        var memo: [UInt32: Int] = [:]
        var index = [Int](repeating: -1, count: w * h)
        for i in 0..<(w * h) where image.pixels[i * 4 + 3] >= opaque {
            let c = RGB(image.pixels[i * 4], image.pixels[i * 4 + 1], image.pixels[i * 4 + 2])
            let key = UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b)
            if let k = memo[key] { index[i] = k; continue }
            var best = 0, bestD = Int.max
            for (k, p) in colours.enumerated() {
                let d = sq(Int(p.r) - Int(c.r)) + sq(Int(p.g) - Int(c.g)) + sq(Int(p.b) - Int(c.b))
                if d < bestD { bestD = d; best = k }
            }
            memo[key] = best
            index[i] = best
        }
        var out = "\u{1B}P0;1;0q\"1;1;\(w);\(h)"
        for (k, c) in colours.enumerated() {
            out += "#\(k);2;\(percent(c.r));\(percent(c.g));\(percent(c.b))"
        }
        // Each band's pixels, one row of bits per colour it uses, made in one pass over the band.
        var slot = [Int](repeating: -1, count: colours.count)
        var bits = [UInt8]()
        var band = 0
        while band * 6 < h {
            let y0 = band * 6
            var used: [Int] = []
            for x in 0..<w {
                for dy in 0..<min(6, h - y0) {
                    let k = index[(y0 + dy) * w + x]
                    guard k >= 0 else { continue }
                    if slot[k] < 0 {
                        slot[k] = used.count
                        used.append(k)
                        if bits.count < used.count * w { bits += [UInt8](repeating: 0, count: w) }
                    }
                    bits[slot[k] * w + x] |= 1 << UInt8(dy)
                }
            }
            for (n, k) in used.enumerated() {
                out += "#\(k)"
                let row = n * w
                // Nothing past this colour's last pixel in the band is sent.
                var last = w
                while last > 0, bits[row + last - 1] == 0 { last -= 1 }
                var x = 0
                while x < last {
                    let b = bits[row + x]
                    var end = x + 1
                    while end < last, bits[row + end] == b { end += 1 }
                    let ch = String(UnicodeScalar(63 + b))
                    out += end - x > 3 ? "!\(end - x)" + ch : String(repeating: ch, count: end - x)
                    x = end
                }
                if n < used.count - 1 { out += "$" }
            }
            for (n, k) in used.enumerated() {
                slot[k] = -1
                for x in 0..<w { bits[n * w + x] = 0 }
            }
            band += 1
            // A graphics newline after the last band could scroll the screen.
            if band * 6 < h { out += "-" }
        }
        return out + "\u{1B}\\"
    }

    static func sq(_ v: Int) -> Int { v * v }

    /// A channel as sixel's 0–100, rounded (truncating would darken every colour a little).
    static func percent(_ v: UInt8) -> Int { (Int(v) * 100 + 127) / 255 }

    /// Median cut: boxes of colours split at the median of their widest channel until there are
    /// `maxColors` of them; each box's mean is a palette colour.
    static func medianCut(_ pixels: [RGB], maxColors: Int) -> [RGB] {
        guard !pixels.isEmpty else { return [RGB(0, 0, 0)] }
        var boxes: [[RGB]] = [pixels]
        func range(_ b: [RGB]) -> (channel: Int, span: Int) {
            var lo = [255, 255, 255], hi = [0, 0, 0]
            for c in b {
                let v = [Int(c.r), Int(c.g), Int(c.b)]
                for i in 0..<3 { lo[i] = min(lo[i], v[i]); hi[i] = max(hi[i], v[i]) }
            }
            let spans = (0..<3).map { hi[$0] - lo[$0] }
            let ch = spans.firstIndex(of: spans.max()!)!
            return (ch, spans[ch])
        }
        while boxes.count < maxColors {
            // The box with the widest channel (the larger on a tie) is split next.
            var pick: (i: Int, r: (channel: Int, span: Int))? = nil
            for (j, box) in boxes.enumerated() where box.count > 1 {
                let r = range(box)
                guard r.span > 0 else { continue }
                if let p = pick, r.span < p.r.span || (r.span == p.r.span && box.count <= boxes[p.i].count) { continue }
                pick = (j, r)
            }
            guard let (i, r) = pick else { break }
            let sorted = boxes[i].sorted { a, b in
                switch r.channel {
                case 0: return a.r < b.r
                case 1: return a.g < b.g
                default: return a.b < b.b
                }
            }
            let mid = sorted.count / 2
            guard mid > 0 else { break }
            boxes[i] = Array(sorted[..<mid])
            boxes.append(Array(sorted[mid...]))
        }
        return boxes.map { b in
            var r = 0, g = 0, bl = 0
            for c in b { r += Int(c.r); g += Int(c.g); bl += Int(c.b) }
            return RGB(UInt8(r / b.count), UInt8(g / b.count), UInt8(bl / b.count))
        }
    }

    /// The pixels a sixel string paints (alpha 0 where nothing is painted), up to its string
    /// terminator: for tests and the bench. Nil for a malformed repeat.
    public static func decode(_ s: String) -> RGBAImage? {
        let b = Array(s.utf8)
        guard let q = b.firstIndex(of: UInt8(ascii: "q")) else { return nil }
        var i = q + 1
        var w = 0, h = 0
        var palette: [Int: RGB] = [:]
        var colour = RGB(0, 0, 0)
        var x = 0, band = 0
        var pixels: [UInt8] = []
        func number() -> Int {
            var n = 0
            while i < b.count, (48...57).contains(b[i]) { n = n * 10 + Int(b[i] - 48); i += 1 }
            return n
        }
        func paint(_ bits: UInt8, count: Int) {
            for _ in 0..<count {
                for dy in 0..<6 where bits & (1 << UInt8(dy)) != 0 {
                    let y = band * 6 + dy
                    if x < w, y < h {
                        let p = (y * w + x) * 4
                        pixels[p] = colour.r; pixels[p + 1] = colour.g; pixels[p + 2] = colour.b; pixels[p + 3] = 255
                    }
                }
                x += 1
            }
        }
        while i < b.count {
            let c = b[i]
            switch c {
            case UInt8(ascii: "\""):
                i += 1
                var f: [Int] = []
                repeat { f.append(number()); if i < b.count, b[i] == UInt8(ascii: ";") { i += 1 } else { break } } while true
                if f.count == 4 { w = f[2]; h = f[3]; pixels = [UInt8](repeating: 0, count: w * h * 4) }
            case UInt8(ascii: "#"):
                i += 1
                var f = [number()]
                while i < b.count, b[i] == UInt8(ascii: ";") { i += 1; f.append(number()) }
                if f.count == 5 {
                    func channel(_ p: Int) -> UInt8 { UInt8(min(100, p) * 255 / 100 + (min(100, p) * 255 % 100 >= 50 ? 1 : 0)) }
                    palette[f[0]] = RGB(channel(f[2]), channel(f[3]), channel(f[4]))
                }
                colour = palette[f[0]] ?? colour
            case UInt8(ascii: "!"):
                i += 1
                let n = number()
                guard i < b.count, (63...126).contains(b[i]) else { return nil }
                paint(b[i] - 63, count: n)
                i += 1
            case UInt8(ascii: "$"): x = 0; i += 1
            case UInt8(ascii: "-"): x = 0; band += 1; i += 1
            case 63...126: paint(c - 63, count: 1); i += 1
            case 0x1B: i = b.count  // the string terminator: what follows is not the picture's
            default: i += 1
            }
        }
        return w > 0 && h > 0 ? RGBAImage(width: w, height: h, pixels: pixels) : nil
    }
}
