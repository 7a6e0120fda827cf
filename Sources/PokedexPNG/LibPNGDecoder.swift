import CPNG
import PokedexModels

/// ``ImageDecoder`` over libpng's simplified API: any PNG (palette, grey, 16-bit,
/// interlaced) comes out as 8-bit RGBA.
public struct LibPNGDecoder: ImageDecoder {
    /// Images larger than this (in pixels) are refused rather than decoded: sprites are 96×96.
    public let maxPixels: Int

    public init(maxPixels: Int = 4096 * 4096) {
        self.maxPixels = maxPixels
    }

    public func inflatesWithinItsSize(_ bytes: [UInt8]) -> Bool { InflationBound.holds(bytes) }

    public func decode(_ bytes: [UInt8]) -> RGBAImage? {
        guard InflationBound.holds(bytes) else { return nil }
        return decode(checked: bytes)
    }

    public func decode(checked bytes: [UInt8]) -> RGBAImage? {
        guard !bytes.isEmpty else { return nil }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        let began = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard began != 0 else { return nil }
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0, width * height <= maxPixels else { return nil }
        // PNG_FORMAT_RGBA: colour and alpha flags.
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let finished = pixels.withUnsafeMutableBytes { out in
            png_image_finish_read(&image, nil, out.baseAddress, Int32(width * 4), nil)
        }
        guard finished != 0 else { return nil }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
