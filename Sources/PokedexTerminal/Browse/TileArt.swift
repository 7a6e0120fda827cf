import PokedexModels

/// A tile's picture: the sprite drawn small, and its dominant colour for the tint. Made once per
/// sprite file and kept by the driver; drawing a frame only copies it.
public struct TileArt: Sendable {
    /// The sprite's lines (``SpriteArt``), at most ``maxColumns`` × ``maxRows``.
    public let lines: [String]
    /// The average colour of its opaque pixels.
    public let tint: RGB?

    public static let maxColumns = 12
    public static let maxRows = 5

    public init(lines: [String], tint: RGB?) {
        self.lines = lines
        self.tint = tint
    }

    public init(image: RGBAImage, mode: ColorMode) {
        // Without colour (`NO_COLOR`, `--color never`): the shape, in the terminal's own colour.
        lines = SpriteArt.lines(image, maxColumns: Self.maxColumns, maxRows: Self.maxRows, mode: mode, silhouette: true)
        tint = Self.averageColour(image)
    }

    /// The mean of the pixels drawn (alpha at least half): the sprite's body colour.
    static func averageColour(_ image: RGBAImage) -> RGB? {
        var r = 0, g = 0, b = 0, n = 0
        var i = 0
        while i + 3 < image.pixels.count {
            if image.pixels[i + 3] >= 128 {
                r += Int(image.pixels[i]); g += Int(image.pixels[i + 1]); b += Int(image.pixels[i + 2])
                n += 1
            }
            i += 4
        }
        guard n > 0 else { return nil }
        return RGB(UInt8(r / n), UInt8(g / n), UInt8(b / n))
    }
}

extension RGB {
    /// This colour mixed into black: `amount` 0 is black, 1 the colour itself.
    func darkened(_ amount: Double) -> RGB {
        RGB(UInt8(Double(r) * amount), UInt8(Double(g) * amount), UInt8(Double(b) * amount))
    }
}
