/// A decoded image: `width × height` pixels, 4 bytes each (red, green, blue, alpha), row by row.
///
/// The service derives a sprite's colour from it; pokectl draws it in the terminal.
public struct RGBAImage: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// `width * height * 4` bytes, not premultiplied.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4, "pixel buffer does not match the size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at (x, y) as (r, g, b, a).
    public func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}

/// Turns image file bytes into pixels. The service and pokectl get one backed by libpng.
public protocol ImageDecoder: Sendable {
    /// The pixels, or nil when the bytes are not an image this decoder reads.
    func decode(_ bytes: [UInt8]) -> RGBAImage?
}
