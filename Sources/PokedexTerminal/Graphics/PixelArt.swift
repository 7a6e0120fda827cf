import PokedexModels

/// Sprites are pixel art: cropped to what is drawn and enlarged by a whole factor with nearest
/// neighbours, they stay sharp where a terminal's own smooth scaling would blur them.
public enum PixelArt {
    /// The smallest rectangle holding every pixel a half block would draw; nil when none is.
    public static func cropped(_ image: RGBAImage) -> RGBAImage? { image.cropped(minAlpha: SpriteArt.opaque) }

    /// The largest cell a terminal may claim, in pixels each way: a 4K screen at 8 points per
    /// cell is about 30×60; anything past 256 is a wrong or hostile answer.
    public static let maxCellPixels = 256
    /// The most pixels a fitted picture holds (512×512, 1 MB of RGBA): the largest sprite the
    /// service keeps at its own size, a 96 px sprite enlarged 5 times; no terminal answer makes
    /// pokectl allocate, encode or send more for one picture.
    public static let maxPixels = 512 * 512
    /// The most cells a picture is fitted to, each way.
    public static let maxCells = 1000

    /// A cell size from the terminal or `TIOCGWINSZ`, clamped to 1…``maxCellPixels``.
    public static func clampedCell(width: Int, height: Int) -> (width: Int, height: Int) {
        (min(max(width, 1), maxCellPixels), min(max(height, 1), maxCellPixels))
    }

    /// `image` fitted to `maxColumns × maxRows` cells of `cell` pixels, keeping its shape:
    /// enlarged by the largest whole factor that fits, or, when it is bigger than the room,
    /// shrunk with nearest neighbours; and the cells it takes. A terminal draws it at its own
    /// pixel size, so it never spills past those cells. The cell is clamped
    /// (``clampedCell(width:height:)``), the room to ``maxCells``, and the picture holds at most
    /// ``maxPixels``, whatever the terminal answered.
    public static func fitted(_ image: RGBAImage, maxColumns: Int, maxRows: Int, cell: (width: Int, height: Int))
        -> (image: RGBAImage, columns: Int, rows: Int) {
        let (cw, ch) = clampedCell(width: cell.width, height: cell.height)
        let columns = min(max(maxColumns, 1), maxCells), rows = min(max(maxRows, 1), maxCells)
        let iw = Double(max(1, image.width)), ih = Double(max(1, image.height))
        var scale = min(Double(columns * cw) / iw, Double(rows * ch) / ih)
        // Never more than maxPixels, whatever the room.
        scale = min(scale, (Double(maxPixels) / (iw * ih)).squareRoot())
        let out = scale >= 1 ? enlarged(image, by: Int(scale))
            : resized(image, width: max(1, Int(iw * scale)), height: max(1, Int(ih * scale)))
        return (out, max(1, (out.width + cw - 1) / cw), max(1, (out.height + ch - 1) / ch))
    }

    /// `image` at `width × height` with nearest neighbours (shrinking: no colour is made up);
    /// sizes below 1 are taken as 1.
    public static func resized(_ image: RGBAImage, width: Int, height: Int) -> RGBAImage {
        let w = max(1, width), h = max(1, height)
        guard image.width > 0, image.height > 0, image.pixels.count >= image.width * image.height * 4 else {
            return RGBAImage(width: w, height: h, pixels: [UInt8](repeating: 0, count: w * h * 4))
        }
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            let sy = min(image.height - 1, y * image.height / h)
            for x in 0..<w {
                let s = (sy * image.width + min(image.width - 1, x * image.width / w)) * 4, d = (y * w + x) * 4
                out[d] = image.pixels[s]; out[d + 1] = image.pixels[s + 1]; out[d + 2] = image.pixels[s + 2]; out[d + 3] = image.pixels[s + 3]
            }
        }
        return RGBAImage(width: w, height: h, pixels: out)
    }

    /// `image` enlarged `factor` times in both directions, each pixel a square.
    public static func enlarged(_ image: RGBAImage, by factor: Int) -> RGBAImage {
        factor > 1 ? resized(image, width: image.width * factor, height: image.height * factor) : image
    }
}
