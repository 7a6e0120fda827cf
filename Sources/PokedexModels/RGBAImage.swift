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

    /// The smallest rectangle holding every pixel whose alpha is at least `minAlpha`; nil when
    /// none is.
    public func visibleBox(minAlpha: UInt8 = 1) -> (x: Int, y: Int, width: Int, height: Int)? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width where pixels[(y * width + x) * 4 + 3] >= minAlpha {
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        return (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }

    /// The image cut to ``visibleBox(minAlpha:)``; nil when no pixel is that visible.
    public func cropped(minAlpha: UInt8 = 1) -> RGBAImage? {
        guard let box = visibleBox(minAlpha: minAlpha) else { return nil }
        if box.x == 0, box.y == 0, box.width == width, box.height == height { return self }
        var out = [UInt8]()
        out.reserveCapacity(box.width * box.height * 4)
        for y in box.y..<(box.y + box.height) {
            let start = (y * width + box.x) * 4
            out += pixels[start..<(start + box.width * 4)]
        }
        return RGBAImage(width: box.width, height: box.height, pixels: out)
    }
}

/// Turns image file bytes into pixels. The service and pokectl get one backed by libpng.
public protocol ImageDecoder: Sendable {
    /// The pixels, or nil when the bytes are not an image this decoder reads.
    func decode(_ bytes: [UInt8]) -> RGBAImage?
}
