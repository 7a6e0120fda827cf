import PokedexModels
@testable import PokedexTerminal

/// `SpriteArt.lines` as it was before issue 38 made it build its escapes by appending: an
/// oracle, so the faster drawing is checked byte for byte against the one people saw.
enum ReferenceSpriteArt {
    static func lines(_ image: RGBAImage, maxColumns: Int, maxRows: Int, mode: ColorMode, silhouette: Bool = false) -> [String] {
        guard mode != .none || silhouette, maxColumns > 0, maxRows > 0, let box = SpriteArt.visibleBox(image) else { return [] }
        let scale = max(Double(box.width) / Double(maxColumns), Double(box.height) / Double(maxRows * 2))
        let outWidth = max(1, min(maxColumns, Int((Double(box.width) / scale).rounded())))
        var outHeight = max(1, min(maxRows * 2, Int((Double(box.height) / scale).rounded())))
        if outHeight % 2 == 1 { outHeight += 1 }
        let pixels = SpriteArt.resample(image, box: box, width: outWidth, height: outHeight, scale: scale)
        var out: [String] = []
        for row in stride(from: 0, to: outHeight, by: 2) {
            var line = ""
            var current = ""
            var currentInks: (RGB?, RGB?) = (nil, nil)
            for x in 0..<outWidth {
                let top = pixels[row * outWidth + x], bottom = pixels[(row + 1) * outWidth + x]
                var glyph: String, fg: RGB?, bg: RGB?
                switch (top, bottom) {
                case (nil, nil): (glyph, fg, bg) = (" ", nil, nil)
                case (let t?, nil): (glyph, fg, bg) = ("▀", t, nil)
                case (nil, let b?): (glyph, fg, bg) = ("▄", b, nil)
                case (let t?, let b?): (glyph, fg, bg) = ("▀", t, b)
                }
                if let f = fg, let b = bg, same(f, b, mode) { (glyph, bg) = ("█", nil) }
                if fg != currentInks.0 || bg != currentInks.1 {
                    let sgr = set(fg, bg, mode)
                    if sgr != current {
                        if !current.isEmpty { line += "\u{1B}[0m" }
                        line += sgr
                        current = sgr
                    }
                    currentInks = (fg, bg)
                }
                line += glyph
            }
            out.append(current.isEmpty ? line : line + "\u{1B}[0m")
        }
        return out
    }

    /// The palette index by searching the cube's levels one by one.
    static func palette256(_ c: RGB) -> Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func nearestLevel(_ v: UInt8) -> Int {
            var best = 0
            for (i, l) in levels.enumerated() where abs(l - Int(v)) < abs(levels[best] - Int(v)) { best = i }
            return best
        }
        let (r, g, b) = (Int(c.r), Int(c.g), Int(c.b))
        let (ri, gi, bi) = (nearestLevel(c.r), nearestLevel(c.g), nearestLevel(c.b))
        let cube = (levels[ri], levels[gi], levels[bi])
        let greyIndex = min(23, max(0, ((r + g + b) / 3 - 8 + 5) / 10))
        let grey = 8 + 10 * greyIndex
        func distance(_ c: (Int, Int, Int)) -> Int { (c.0 - r) * (c.0 - r) + (c.1 - g) * (c.1 - g) + (c.2 - b) * (c.2 - b) }
        return distance((grey, grey, grey)) < distance(cube) ? 232 + greyIndex : 16 + 36 * ri + 6 * gi + bi
    }

    static func code(_ c: RGB, background: Bool, _ mode: ColorMode) -> String {
        switch mode {
        case .none: ""
        case .truecolor: "\(background ? 48 : 38);2;\(c.r);\(c.g);\(c.b)"
        case .palette256: "\(background ? 48 : 38);5;\(palette256(c))"
        }
    }

    static func set(_ foreground: RGB?, _ background: RGB?, _ mode: ColorMode) -> String {
        guard mode != .none else { return "" }
        let codes = [foreground.map { code($0, background: false, mode) }, background.map { code($0, background: true, mode) }].compactMap { $0 }
        return codes.isEmpty ? "" : "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    static func same(_ a: RGB, _ b: RGB, _ mode: ColorMode) -> Bool {
        switch mode {
        case .none: true
        case .truecolor: a == b
        case .palette256: palette256(a) == palette256(b)
        }
    }
}
