@testable import PokedexCore
import PokedexModels
import PropertyBased
@testable import PokedexTerminal
import Testing

/// `SpriteArt` meets whatever a sprite server sends, once decoded: any size, any visible box,
/// drawn into any terminal size. It must never trap, and its lines must fit.
@Suite struct SpriteArtProperties {
    /// An image of `width × height` whose visible pixels fill exactly the box `seed` picks
    /// (edges included, so a box can touch the bottom and right edges), in colours from `seed`.
    static func image(width: Int, height: Int, seed: UInt64) -> RGBAImage {
        var rng = SplitMix64(seed: seed)
        let x0 = Int(rng.next() % UInt64(width)), y0 = Int(rng.next() % UInt64(height))
        let x1 = x0 + Int(rng.next() % UInt64(width - x0)), y1 = y0 + Int(rng.next() % UInt64(height - y0))
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in y0...y1 {
            for x in x0...x1 {
                let i = (y * width + x) * 4
                pixels[i] = UInt8(truncatingIfNeeded: rng.next())
                pixels[i + 1] = UInt8(truncatingIfNeeded: rng.next())
                pixels[i + 2] = UInt8(truncatingIfNeeded: rng.next())
                // Mostly opaque; some pixels half transparent, at the threshold or just under.
                pixels[i + 3] = [255, 255, 255, 128, 127, 200][Int(rng.next() % 6)]
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    @Test func neverTrapsAndAlwaysFits() async {
        await propertyCheck(count: PropertyCounts.cases(400), input: Gen.int(in: 1...120), Gen.int(in: 1...120), Gen.uint64(),
                            Gen.int(in: 1...100), Gen.int(in: 1...50)) { width, height, seed, columns, rows in
            let image = Self.image(width: width, height: height, seed: seed)
            for mode in [ColorMode.palette256, .truecolor] {
                let lines = SpriteArt.lines(image, maxColumns: columns, maxRows: rows, mode: mode)
                #expect(lines.count <= rows)
                let widths = Set(lines.map(TerminalText.width))
                #expect(widths.count <= 1, "every line is as wide as the others")
                #expect((widths.first ?? 0) <= columns)
                for line in lines { #expect(Self.onlySGR(line), "nothing but colour sequences: \(line.debugDescription)") }
            }
        }
    }

    /// The same bytes as the drawing before issue 38 (``ReferenceSpriteArt``), in every mode,
    /// silhouettes included.
    @Test func drawsWhatItDrewBefore() async {
        await propertyCheck(count: PropertyCounts.cases(300), input: Gen.int(in: 1...96), Gen.int(in: 1...96), Gen.uint64(),
                            Gen.int(in: 1...80), Gen.int(in: 1...40), Gen.bool) { width, height, seed, columns, rows, silhouette in
            let image = Self.image(width: width, height: height, seed: seed)
            for mode in [ColorMode.none, .palette256, .truecolor] {
                #expect(SpriteArt.lines(image, maxColumns: columns, maxRows: rows, mode: mode, silhouette: silhouette)
                        == ReferenceSpriteArt.lines(image, maxColumns: columns, maxRows: rows, mode: mode, silhouette: silhouette))
            }
        }
    }

    /// Every colour's palette index, channel levels found by arithmetic, against the search
    /// through the levels: all 256 values of each channel, the other two random.
    @Test func paletteIndexAsBefore() async {
        await propertyCheck(count: PropertyCounts.cases(200), input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            for v in 0...255 {
                let other = (UInt8(truncatingIfNeeded: rng.next()), UInt8(truncatingIfNeeded: rng.next()))
                for c in [RGB(UInt8(v), other.0, other.1), RGB(other.0, UInt8(v), other.1), RGB(other.0, other.1, UInt8(v))] {
                    #expect(c.palette256 == ReferenceSpriteArt.palette256(c))
                }
            }
        }
    }

    /// Images of one row or one column, with the visible pixel at the very last index.
    @Test func thinImagesTouchingTheirLastEdge() async {
        await propertyCheck(count: PropertyCounts.cases(200), input: Gen.int(in: 1...300), Gen.bool, Gen.int(in: 1...100), Gen.int(in: 1...50)) { length, across, columns, rows in
            let (w, h) = across ? (length, 1) : (1, length)
            var pixels = [UInt8](repeating: 0, count: w * h * 4)
            pixels[pixels.count - 1] = 255
            let lines = SpriteArt.lines(RGBAImage(width: w, height: h, pixels: pixels), maxColumns: columns, maxRows: rows, mode: .truecolor)
            #expect(lines.count >= 1 && lines.count <= rows)
        }
    }

    /// True when the only controls in `s` are SGR sequences (`ESC [ digits;… m`).
    static func onlySGR(_ s: String) -> Bool {
        var it = s.unicodeScalars.makeIterator()
        while let u = it.next() {
            guard UntrustedText.isControl(u) else { continue }
            guard u == "\u{1B}", it.next() == "[" else { return false }
            while let c = it.next(), c != "m" { if !("0"..."9").contains(c) && c != ";" { return false } }
        }
        return true
    }
}
