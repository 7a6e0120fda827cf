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

    /// The image shrunk to fit `side`×`side`, keeping its shape: each pixel the average of the
    /// ones it covers, colours weighted by their alpha (so a transparent pixel adds no black
    /// fringe). As it is when it fits already.
    public func shrunk(toFit side: Int) -> RGBAImage {
        guard side > 0, width > side || height > side else { return self }
        let scale = Double(max(width, height)) / Double(side)
        let w = max(1, Int((Double(width) / scale).rounded())), h = max(1, Int((Double(height) / scale).rounded()))
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            let y0 = y * height / h, y1 = max(y0 + 1, (y + 1) * height / h)
            for x in 0..<w {
                let x0 = x * width / w, x1 = max(x0 + 1, (x + 1) * width / w)
                var r = 0, g = 0, b = 0, a = 0, n = 0
                for sy in y0..<y1 {
                    for sx in x0..<x1 {
                        let i = (sy * width + sx) * 4, alpha = Int(pixels[i + 3])
                        r += Int(pixels[i]) * alpha; g += Int(pixels[i + 1]) * alpha; b += Int(pixels[i + 2]) * alpha
                        a += alpha; n += 1
                    }
                }
                let o = (y * w + x) * 4
                if a > 0 { out[o] = UInt8(r / a); out[o + 1] = UInt8(g / a); out[o + 2] = UInt8(b / a) }
                out[o + 3] = UInt8(a / n)
            }
        }
        return RGBAImage(width: w, height: h, pixels: out)
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
    /// Whether the image's data inflates to no more than its header allows (its width ×
    /// height × bytes per pixel, and a filter byte a row), checked at that cost at most: a
    /// decompression bomb is refused before anything decodes it.
    func inflatesWithinItsSize(_ bytes: [UInt8]) -> Bool
    /// ``decode(_:)`` of bytes ``inflatesWithinItsSize(_:)`` has said yes to: not checked again.
    func decode(checked bytes: [UInt8]) -> RGBAImage?
}

extension ImageDecoder {
    /// A decoder that cannot tell says yes.
    public func inflatesWithinItsSize(_ bytes: [UInt8]) -> Bool { true }
    public func decode(checked bytes: [UInt8]) -> RGBAImage? { decode(bytes) }
}
