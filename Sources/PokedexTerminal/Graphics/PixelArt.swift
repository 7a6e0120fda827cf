import PokedexModels

/// Sprites are pixel art: cropped to what is drawn and enlarged by a whole factor with nearest
/// neighbours, they stay sharp where a terminal's own smooth scaling would blur them.
public enum PixelArt {
    /// The smallest rectangle holding every pixel with alpha; nil when none has.
    public static func cropped(_ image: RGBAImage) -> RGBAImage? {
        guard let box = SpriteArt.visibleBox(image) else { return nil }
        var pixels = [UInt8]()
        pixels.reserveCapacity(box.width * box.height * 4)
        for y in box.y..<(box.y + box.height) {
            let start = (y * image.width + box.x) * 4
            pixels += image.pixels[start..<(start + box.width * 4)]
        }
        return RGBAImage(width: box.width, height: box.height, pixels: pixels)
    }

    /// `image` fitted to `maxColumns × maxRows` cells of `cell` pixels, keeping its shape:
    /// enlarged by the largest whole factor that fits, or, when it is bigger than the room,
    /// shrunk with nearest neighbours; and the cells it takes. A terminal draws it at its own
    /// pixel size, so it never spills past those cells.
    public static func fitted(_ image: RGBAImage, maxColumns: Int, maxRows: Int, cell: (width: Int, height: Int))
        -> (image: RGBAImage, columns: Int, rows: Int) {
        let cw = max(1, cell.width), ch = max(1, cell.height)
        let scale = min(Double(maxColumns * cw) / Double(image.width), Double(maxRows * ch) / Double(image.height))
        let out = scale >= 1 ? enlarged(image, by: Int(scale))
            : resized(image, width: max(1, Int(Double(image.width) * scale)), height: max(1, Int(Double(image.height) * scale)))
        return (out, max(1, (out.width + cw - 1) / cw), max(1, (out.height + ch - 1) / ch))
    }

    /// `image` at `width × height` with nearest neighbours (shrinking: no colour is made up).
    public static func resized(_ image: RGBAImage, width w: Int, height h: Int) -> RGBAImage {
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
