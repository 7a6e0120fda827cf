import PokedexModels

/// Draws an image with Unicode half blocks: each character cell shows two pixels, the upper
/// one as the foreground of `▀` and the lower one as its background. Transparent pixels show
/// the terminal's own background.
public enum SpriteArt {
    /// Alpha at or above which a scaled pixel is drawn.
    static let opaque: UInt8 = 128

    /// The image cropped to its visible pixels, scaled to fit `maxColumns × maxRows` cells
    /// (keeping its shape), as lines of exactly the same width. No lines in ``ColorMode/none``,
    /// unless `silhouette`: then the shape alone, in the terminal's own colour.
    public static func lines(_ image: RGBAImage, maxColumns: Int, maxRows: Int, mode: ColorMode, silhouette: Bool = false) -> [String] {
        guard mode != .none || silhouette, maxColumns > 0, maxRows > 0, let box = visibleBox(image) else { return [] }
        let scale = max(Double(box.width) / Double(maxColumns), Double(box.height) / Double(maxRows * 2))
        let outWidth = max(1, min(maxColumns, Int((Double(box.width) / scale).rounded())))
        var outHeight = max(1, min(maxRows * 2, Int((Double(box.height) / scale).rounded())))
        if outHeight % 2 == 1 { outHeight += 1 }
        let pixels = resample(image, box: box, width: outWidth, height: outHeight, scale: scale)
        let painter = Painter(mode: mode)
        // Each pixel as the terminal will show it: colours that look the same share one SGR.
        let inks = pixels.map { $0.map(painter.ink) }
        var out: [String] = []
        out.reserveCapacity(outHeight / 2)
        for row in stride(from: 0, to: outHeight, by: 2) {
            var line = ""
            // The inks the line's last SGR set: a new one is only made when they change.
            var current: (fg: Int?, bg: Int?) = (nil, nil)
            for x in 0..<outWidth {
                let top = inks[row * outWidth + x], bottom = inks[(row + 1) * outWidth + x]
                var glyph: Character, fg: Int?, bg: Int?
                switch (top, bottom) {
                case (nil, nil): (glyph, fg, bg) = (" ", nil, nil)
                case (let t?, nil): (glyph, fg, bg) = ("▀", t, nil)
                case (nil, let b?): (glyph, fg, bg) = ("▄", b, nil)
                case (let t?, let b?): (glyph, fg, bg) = ("▀", t, b)
                }
                if fg != nil, fg == bg {
                    // Both halves look the same in this mode: a full block needs no background.
                    (glyph, bg) = ("█", nil)
                }
                if fg != current.fg || bg != current.bg {
                    if current.fg != nil || current.bg != nil { line += painter.reset }
                    line += painter.set(foregroundInk: fg, backgroundInk: bg)
                    current = (fg, bg)
                }
                line.append(glyph)
            }
            if current.fg != nil || current.bg != nil { line += painter.reset }
            out.append(line)
        }
        return out
    }

    /// The smallest rectangle holding every pixel with enough alpha.
    static func visibleBox(_ image: RGBAImage) -> (x: Int, y: Int, width: Int, height: Int)? { image.visibleBox(minAlpha: opaque) }

    /// Area-averaged (shrinking) or nearest (growing) pixels of `box`; nil where transparent.
    static func resample(_ image: RGBAImage, box: (x: Int, y: Int, width: Int, height: Int),
                         width: Int, height: Int, scale: Double) -> [RGB?] {
        var out: [RGB?] = []
        out.reserveCapacity(width * height)
        for oy in 0..<height {
            let y0 = box.y + Int(Double(oy) * scale)
            let y1 = max(y0 + 1, box.y + Int(Double(oy + 1) * scale))
            for ox in 0..<width {
                let x0 = box.x + Int(Double(ox) * scale)
                let x1 = max(x0 + 1, box.x + Int(Double(ox + 1) * scale))
                var r = 0, g = 0, b = 0, alpha = 0, n = 0
                // The last row (rounded up to an even count) or column can lie past the image:
                // an empty range there, never one whose bounds cross.
                for y in min(y0, image.height)..<min(max(y1, y0), image.height) {
                    for x in min(x0, image.width)..<min(max(x1, x0), image.width) {
                        let p = image.pixel(x, y)
                        let a = Int(p.a)
                        r += Int(p.r) * a; g += Int(p.g) * a; b += Int(p.b) * a
                        alpha += a
                        n += 1
                    }
                }
                if n == 0 || alpha / n < Int(opaque) {
                    out.append(nil)
                } else {
                    out.append(RGB(UInt8(r / alpha), UInt8(g / alpha), UInt8(b / alpha)))
                }
            }
        }
        return out
    }
}
