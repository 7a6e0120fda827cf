import CPNG
import PokedexModels

/// RGBA pixels to a PNG file in memory, with libpng's simplified API: what the kitty graphics
/// protocol takes (`f=100`), far smaller than raw RGBA for pixel art.
public enum LibPNGEncoder {
    public static func encode(_ image: RGBAImage) -> [UInt8]? {
        guard image.width > 0, image.height > 0 else { return nil }
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        png.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        defer { png_image_free(&png) }
        // First the size, then the bytes.
        var size = 0
        let sized = image.pixels.withUnsafeBytes { px in
            png_image_write_to_memory(&png, nil, &size, 0, px.baseAddress, Int32(image.width * 4), nil)
        }
        guard sized != 0, size > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: size)
        let written = out.withUnsafeMutableBytes { buffer in
            image.pixels.withUnsafeBytes { px in
                png_image_write_to_memory(&png, buffer.baseAddress, &size, 0, px.baseAddress, Int32(image.width * 4), nil)
            }
        }
        guard written != 0 else { return nil }
        return Array(out.prefix(size))
    }
}
