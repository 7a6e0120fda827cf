import CPNG
import XCTest
@testable import PokedexCore
@testable import PokedexPNG
import PokedexTestKit

/// Pictures from the network: a PNG whose data inflates past its size is refused after
/// inflating no more than its size allows; what is kept of a sprite is what it needs.
final class DecompressionBombTests: XCTestCase {
    func chunk(_ kind: String, _ data: [UInt8]) -> [UInt8] {
        func bigEndian(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
        let typed = Array(kind.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(CRC32.checksum(typed))
    }

    func zlib(_ bytes: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        XCTAssertEqual(compress2(&out, &length, bytes, uLong(bytes.count), 9), Z_OK)
        return Array(out[..<Int(length)])
    }

    /// A `width`×`height` RGBA PNG whose image data is `inflated` zero bytes.
    func png(_ width: UInt32, _ height: UInt32, inflating inflated: Int, extra: [[UInt8]] = []) -> [UInt8] {
        func bigEndian(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
        let header = bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + extra.joined()
            + chunk("IDAT", zlib([UInt8](repeating: 0, count: inflated))) + chunk("IEND", [])
    }

    func testABombIsRefusedHavingInflatedNoMoreThanItsSizeAllows() throws {
        let size = 512 * (1 + 512 * 4)  // 512 rows of 2,048 bytes and a filter byte each
        let bomb = png(512, 512, inflating: 64 << 20)
        XCTAssertLessThan(bomb.count, 100_000, "64 MiB of image data in under 100 kB")
        XCTAssertTrue(PNGCheck.isValid(bomb), "structurally a whole PNG: only inflating tells")
        let decoder = LibPNGDecoder()
        XCTAssertFalse(decoder.inflatesWithinItsSize(bomb))
        XCTAssertNil(decoder.decode(bomb), "never handed to libpng")
        let idat = Array(bomb[(8 + 25 + 8)..<(bomb.count - 12 - 4)])
        let counted = try XCTUnwrap(InflationBound.inflatedSize(idat, upTo: size))
        XCTAssertLessThanOrEqual(counted, size + 32 * 1024, "it stopped one buffer past the size, not at 64 MiB")

        // The same image with exactly its data is a sprite; one byte over is not.
        let exact = png(512, 512, inflating: size)
        XCTAssertTrue(decoder.inflatesWithinItsSize(exact))
        XCTAssertEqual(decoder.decode(exact)?.width, 512)
        XCTAssertFalse(decoder.inflatesWithinItsSize(png(512, 512, inflating: size + 1)))
    }

    func testTheExpectedSizeOfEachKindOfPNG() {
        XCTAssertEqual(InflationBound.expected(width: 96, height: 96, bitDepth: 8, colorType: 6, interlaced: false), 96 * (1 + 384))
        XCTAssertEqual(InflationBound.expected(width: 96, height: 96, bitDepth: 4, colorType: 3, interlaced: false), 96 * (1 + 48))
        XCTAssertEqual(InflationBound.expected(width: 3, height: 1, bitDepth: 1, colorType: 0, interlaced: false), 2)
        XCTAssertEqual(InflationBound.expected(width: 2, height: 2, bitDepth: 16, colorType: 2, interlaced: false), 2 * (1 + 12))
        // Adam7 on 8×8, 8-bit grey: passes of 1×1, 1×1, 2×1, 2×2, 4×2, 4×4, 8×4 pixels.
        XCTAssertEqual(InflationBound.expected(width: 8, height: 8, bitDepth: 8, colorType: 0, interlaced: true),
                       1 * 2 + 1 * 2 + 1 * 3 + 2 * 3 + 2 * 5 + 4 * 5 + 4 * 9)
        XCTAssertNil(InflationBound.expected(width: 8, height: 8, bitDepth: 8, colorType: 5, interlaced: false))
        XCTAssertNil(InflationBound.expected(width: 8, height: 8, bitDepth: 3, colorType: 0, interlaced: false))
    }

    func testEveryRealSpriteOfTheTestsFits() {
        let decoder = LibPNGDecoder()
        for (w, h) in [(1, 1), (96, 96), (475, 475), (512, 512), (7, 300)] {
            let png = encodePNG(paint(w, h) { x, y in (UInt8(x & 0xFF), UInt8(y & 0xFF), 9, 255) })
            XCTAssertTrue(decoder.inflatesWithinItsSize(png), "\(w)×\(h)")
            XCTAssertEqual(decoder.decode(png)?.height, h)
        }
    }

    func testWhatIsKeptOfASpriteIsWhatItNeeds() {
        let text = chunk("zTXt", Array("Comment".utf8) + [0, 0] + zlib([UInt8](repeating: 0x41, count: 1 << 20)))
        let transparency = chunk("tRNS", [0, 0, 0, 0, 0, 0])
        let profile = chunk("iCCP", Array("x".utf8) + [0, 0] + zlib([1, 2, 3]))
        let sprite = png(4, 4, inflating: 4 * 17, extra: [text, profile, chunk("tEXt", Array("Title\u{0}Pika".utf8))])
        XCTAssertTrue(PNGCheck.isValid(sprite))
        let kept = PNGCheck.withoutAncillaryChunks(sprite)
        XCTAssertTrue(PNGCheck.isValid(kept), "still a whole PNG")
        XCTAssertEqual(kept, png(4, 4, inflating: 4 * 17), "IHDR, IDAT, IEND, as they came")
        XCTAssertNotNil(LibPNGDecoder().decode(kept))
        XCTAssertEqual(LibPNGDecoder().decode(kept)?.pixels, LibPNGDecoder().decode(sprite)?.pixels)
        // A palette's transparency stays (the structure only: tRNS is a palette's here).
        let withTransparency = png(4, 4, inflating: 4 * 17, extra: [text, transparency])
        XCTAssertEqual(PNGCheck.withoutAncillaryChunks(withTransparency), png(4, 4, inflating: 4 * 17, extra: [transparency]))
    }
}
