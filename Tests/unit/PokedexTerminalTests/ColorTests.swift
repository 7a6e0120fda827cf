@testable import PokedexCore
import PokedexPNG
import XCTest
import PokedexTestKit

final class ColorTests: XCTestCase {
    func testDecoderReadsWhatWasEncoded() throws {
        let image = sampleSprite()
        let decoded = try XCTUnwrap(LibPNGDecoder().decode(encodePNG(image)))
        XCTAssertEqual(decoded, image)
    }

    func testDecoderRefusesDamagedAndForeignBytes() {
        var png = encodePNG(sampleSprite())
        XCTAssertNil(LibPNGDecoder().decode(Array(png.prefix(png.count / 2))), "cut off")
        png[png.count / 2] ^= 0xFF
        XCTAssertNil(LibPNGDecoder().decode(png), "a flipped byte breaks a CRC")
        XCTAssertNil(LibPNGDecoder().decode(Array("GIF89a not a png".utf8)))
        XCTAssertNil(LibPNGDecoder().decode([]))
        XCTAssertNil(LibPNGDecoder(maxPixels: 100).decode(encodePNG(sampleSprite())), "bigger than allowed")
    }

    func testSolidColoursComeBackExactly() {
        for rgb: (UInt8, UInt8, UInt8) in [(0xF8, 0xD0, 0x30), (0x68, 0x90, 0xF0), (0x78, 0xC8, 0x50), (0x80, 0x80, 0x80)] {
            let image = paint(8, 8) { _, _ in (rgb.0, rgb.1, rgb.2, 255) }
            let hex = "#" + [rgb.0, rgb.1, rgb.2].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            XCTAssertEqual(DominantColor.hex(of: image), hex)
        }
    }

    func testSkipsTransparentNearWhiteAndNearBlack() {
        // Most pixels are transparent red, black outline or white highlight: the body wins.
        let image = paint(10, 10) { x, y in
            switch (x, y) {
            case (0..<4, _): return (255, 0, 0, 20)       // 40 transparent
            case (4..<6, _): return (10, 10, 10, 255)     // 20 near-black
            case (6..<8, _): return (250, 250, 250, 255)  // 20 near-white
            default: return (120, 60, 200, 255)           // 20 purple
            }
        }
        XCTAssertEqual(DominantColor.hex(of: image), "#783cc8")
        XCTAssertEqual(DominantColor.hex(of: sampleSprite()), "#f8d030", "the yellow body, not outline or highlight")
    }

    func testShadesOfOneColourCountTogether() {
        // 30 pixels in two close shades of green outvote 25 of blue.
        let image = paint(11, 5) { x, _ in x < 3 ? (0x70, 0xC0, 0x50, 255) : x < 6 ? (0x72, 0xC2, 0x52, 255) : (0x30, 0x50, 0xF0, 255) }
        XCTAssertEqual(DominantColor.hex(of: image), "#71c151")
    }

    func testNothingToCountGivesNil() {
        XCTAssertNil(DominantColor.hex(of: paint(4, 4) { _, _ in (0, 0, 0, 0) }))
        XCTAssertNil(DominantColor.hex(of: paint(4, 4) { x, _ in x % 2 == 0 ? (255, 255, 255, 255) : (0, 0, 0, 255) }))
        XCTAssertNil(DominantColor.hex(of: RGBAImage(width: 0, height: 0, pixels: [])))
    }

    func testGIFCheck() {
        let gif = tinyGIF()
        XCTAssertTrue(GIFCheck.isValid(gif))
        XCTAssertFalse(GIFCheck.isValid(Array(gif.dropLast())), "no trailer")
        XCTAssertFalse(GIFCheck.isValid(Array(gif.prefix(20))), "cut off inside the image data")
        XCTAssertFalse(GIFCheck.isValid(Array(gif) + [0]), "bytes after the trailer")
        XCTAssertFalse(GIFCheck.isValid(encodePNG(sampleSprite())))
        XCTAssertFalse(GIFCheck.isValid(Array(gif.prefix(13)) + [0x3B]), "no frame")
    }
}

/// A 1×1 GIF89a with a two-colour table, one graphic control extension and one frame.
func tinyGIF() -> [UInt8] {
    // One typed literal: the parts added together took Swift 6.0 past its type-check limit.
    let rest: [UInt8] = [1, 0, 1, 0, 0x80, 0, 0, 255, 0, 0, 0, 0, 255,  // screen, colour table
                         0x21, 0xF9, 4, 0, 10, 0, 0, 0,  // graphic control extension
                         0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0,  // the frame
                         0x3B]  // trailer
    return Array("GIF89a".utf8) + rest
}
