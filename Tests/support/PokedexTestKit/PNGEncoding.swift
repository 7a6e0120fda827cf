@testable import PokedexCore

/// Encodes pixels as a real PNG (RGBA, zlib stored blocks), so the decoder is tested on files
/// built here rather than on a decoder's own output.
public func encodePNG(_ image: RGBAImage) -> [UInt8] {
    func bigEndian(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
    func chunk(_ kind: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(kind.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(CRC32.checksum(typed))
    }
    var scanlines: [UInt8] = []
    for y in 0..<image.height {
        scanlines.append(0)  // filter: none
        scanlines += image.pixels[(y * image.width * 4)..<((y + 1) * image.width * 4)]
    }
    var deflate: [UInt8] = []
    var rest = scanlines[...]
    repeat {
        let block = rest.prefix(65535)
        rest = rest.dropFirst(block.count)
        let n = UInt16(block.count)
        deflate += [rest.isEmpty ? 1 : 0, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)] + block
    } while !rest.isEmpty
    var a: UInt32 = 1, b: UInt32 = 0
    for byte in scanlines { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
    let zlib = [0x78, 0x01] + deflate + bigEndian(b << 16 | a)
    let header = bigEndian(UInt32(image.width)) + bigEndian(UInt32(image.height)) + [8, 6, 0, 0, 0]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
}

/// An image painted by a function of (x, y) → (r, g, b, a).
public func paint(_ width: Int, _ height: Int, _ colour: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) -> RGBAImage {
    var pixels: [UInt8] = []
    for y in 0..<height {
        for x in 0..<width {
            let c = colour(x, y)
            pixels += [c.0, c.1, c.2, c.3]
        }
    }
    return RGBAImage(width: width, height: height, pixels: pixels)
}

/// A 24×24 test sprite: transparent margin, a black outline, a yellow body with a white
/// highlight and a red cheek, like the real ones.
public func sampleSprite() -> RGBAImage {
    paint(24, 24) { x, y in
        let dx = x - 12, dy = y - 12
        let d = dx * dx + dy * dy
        if d > 81 { return (0, 0, 0, 0) }
        if d > 64 { return (16, 16, 16, 255) }
        if dx < -3 && dy < -3 { return (255, 255, 255, 255) }
        if dx > 3 && dy > 2 && dy < 6 { return (230, 40, 40, 255) }
        return (248, 208, 48, 255)
    }
}
