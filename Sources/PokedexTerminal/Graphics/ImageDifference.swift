import PokedexModels

/// How far a picture a terminal was sent is from the sprite it carries: for the tests and
/// `bench/graphics`.
public enum ImageDifference {
    /// The mean absolute colour difference per channel (0…255) over the pixels `reference`
    /// draws (alpha at least half), and how many of those `decoded` left transparent.
    public static func measure(_ reference: RGBAImage, _ decoded: RGBAImage) -> (mean: Double, missing: Int) {
        precondition(reference.width == decoded.width && reference.height == decoded.height)
        var total = 0, n = 0, missing = 0
        for i in 0..<(reference.width * reference.height) where reference.pixels[i * 4 + 3] >= 128 {
            if decoded.pixels[i * 4 + 3] < 128 { missing += 1; continue }
            for c in 0..<3 { total += abs(Int(reference.pixels[i * 4 + c]) - Int(decoded.pixels[i * 4 + c])) }
            n += 3
        }
        return (n == 0 ? 0 : Double(total) / Double(n), missing)
    }

    /// The reference for a picture of `width × height` made from `sprite`: its visible pixels
    /// cropped and enlarged by the whole factor that gives that size; nil when none does.
    public static func reference(for sprite: RGBAImage, width: Int, height: Int) -> RGBAImage? {
        guard let cropped = PixelArt.cropped(sprite), width % cropped.width == 0, height % cropped.height == 0,
              width / cropped.width == height / cropped.height else { return nil }
        return PixelArt.enlarged(cropped, by: width / cropped.width)
    }
}
