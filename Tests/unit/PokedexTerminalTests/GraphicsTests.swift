import PokedexModels
import PokedexPNG
import PokedexTestKit
@testable import PokedexTerminal
import XCTest

/// The kitty and sixel images, decoded back and compared with the sprite they carry.
final class GraphicsTests: XCTestCase {
    static func difference(_ a: RGBAImage, _ b: RGBAImage) -> (mean: Double, missing: Int) { ImageDifference.measure(a, b) }

    func testBase64RoundTrips() {
        for n in 0..<10 {
            let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 * 37 + 5) }
            XCTAssertEqual(Base64.decode(Base64.encode(bytes)), bytes)
        }
        XCTAssertEqual(Base64.encode(Array("Pokémon".utf8)), "UG9rw6ltb24=")
    }

    func testKittyCarriesTheSpriteExactlyInChunks() throws {
        let sprite = PixelArt.enlarged(try XCTUnwrap(PixelArt.cropped(sampleSprite())), by: 3)
        let stream = KittyGraphics.draw(sprite, columns: 16, rows: 8, id: 7, placement: 2)
        let chunks = stream.components(separatedBy: "\u{1B}_G").count - 1
        XCTAssertGreaterThan(chunks, 1, "over 4096 base64 bytes: chunked")
        XCTAssertTrue(stream.hasPrefix("\u{1B}_Ga=T,f=32,s=\(sprite.width),v=\(sprite.height),c=16,r=8,i=7,p=2"))
        let back = try XCTUnwrap(KittyGraphics.decode(stream))
        XCTAssertEqual(back.image, sprite)
        XCTAssertEqual(back.columns, 16)
        XCTAssertEqual(Self.difference(sprite, back.image).mean, 0)
    }

    func testKittyAsPNGIsSmallAndExact() throws {
        let sprite = PixelArt.enlarged(try XCTUnwrap(PixelArt.cropped(sampleSprite())), by: 4)
        let png = try XCTUnwrap(LibPNGEncoder.encode(sprite))
        let stream = KittyGraphics.draw(png: png, columns: 20, rows: 10)
        XCTAssertLessThan(stream.utf8.count, sprite.pixels.count / 4, "PNG: a fraction of raw RGBA")
        let (keys, payload) = try XCTUnwrap(KittyGraphics.parse(stream))
        XCTAssertEqual(keys["f"], "100")
        XCTAssertEqual(keys["c"], "20")
        let back = try XCTUnwrap(LibPNGDecoder().decode(payload))
        XCTAssertEqual(Self.difference(sprite, back).mean, 0)
        XCTAssertEqual(Self.difference(sprite, back).missing, 0)
    }

    func testSixelKeepsColoursAndTransparency() throws {
        let sprite = try XCTUnwrap(PixelArt.cropped(sampleSprite()))
        let stream = Sixel.encode(sprite)
        XCTAssertTrue(stream.hasPrefix("\u{1B}P0;1;0q"), "P2=1: unpainted pixels stay transparent")
        let back = try XCTUnwrap(Sixel.decode(stream))
        XCTAssertEqual(back.width, sprite.width)
        XCTAssertEqual(back.height, sprite.height)
        let d = Self.difference(sprite, back)
        XCTAssertEqual(d.missing, 0)
        XCTAssertLessThanOrEqual(d.mean, 1.3, "pixel art's few colours are the palette, exactly but for sixel's 0–100 scale")
        // Nothing is painted where the sprite is transparent.
        for i in 0..<(sprite.width * sprite.height) where sprite.pixels[i * 4 + 3] < 128 { XCTAssertEqual(back.pixels[i * 4 + 3], 0) }
    }

    func testSixelCutsManyColoursToItsPalette() throws {
        // 4,096 colours: a 64×64 gradient, transparent in one corner.
        var pixels: [UInt8] = []
        for y in 0..<64 { for x in 0..<64 { pixels += [UInt8(x * 4), UInt8(y * 4), UInt8((x + y) * 2), x + y < 8 ? 0 : 255] } }
        let image = RGBAImage(width: 64, height: 64, pixels: pixels)
        let stream = Sixel.encode(image)
        XCTAssertEqual(stream.split(separator: "#").filter { $0.contains(";2;") }.count, 256, "256 colour registers")
        let back = try XCTUnwrap(Sixel.decode(stream))
        let d = Self.difference(image, back)
        XCTAssertEqual(d.missing, 0)
        XCTAssertLessThanOrEqual(d.mean, 24, "median cut to 256 colours")
        XCTAssertEqual(back.pixels[3], 0, "the transparent corner stays unpainted")
        let few = try XCTUnwrap(Sixel.decode(Sixel.encode(image, maxColors: 4)))
        XCTAssertGreaterThan(Self.difference(image, few).mean, d.mean, "fewer colours, further from the image")
    }

    func testSixelDecodingStopsAtTheStringTerminator() throws {
        let sprite = try XCTUnwrap(PixelArt.cropped(sampleSprite()))
        // What follows a picture (a card's text) is not read as sixel data.
        XCTAssertNotNil(Sixel.decode(Sixel.encode(sprite) + "\u{1B}8 Gengar! 100% ~ #1"))
    }

    func testFittedEnlargesByAWholeFactorOrShrinksToTheRoom() {
        let image = RGBAImage(width: 40, height: 60, pixels: [UInt8](repeating: 255, count: 40 * 60 * 4))
        let big = PixelArt.fitted(image, maxColumns: 32, maxRows: 16, cell: (10, 20))
        XCTAssertEqual([big.image.width, big.image.height, big.columns, big.rows], [200, 300, 20, 15], "5× fits 320×320 px")
        // Cells of 8×16 for 13×5 of them (a browse tile): 104×80 px, smaller than a 100×94 sprite.
        let sprite = RGBAImage(width: 100, height: 94, pixels: [UInt8](repeating: 255, count: 100 * 94 * 4))
        let small = PixelArt.fitted(sprite, maxColumns: 13, maxRows: 5, cell: (8, 16))
        XCTAssertEqual(small.image.width, 85)
        XCTAssertLessThanOrEqual(small.image.width, 13 * 8)
        XCTAssertLessThanOrEqual(small.image.height, 5 * 16)
        XCTAssertEqual(small.image.height, 80, "as tall as the room, keeping the shape")
        XCTAssertLessThanOrEqual(small.rows, 5)
        XCTAssertLessThanOrEqual(small.columns, 13)
    }

    func testKittyChunksAreQuietAndPicturesKeepTheirPixelSize() {
        let sprite = RGBAImage(width: 64, height: 64, pixels: [UInt8](repeating: 7, count: 64 * 64 * 4))
        let stream = KittyGraphics.draw(sprite)
        let chunks = stream.split(separator: "\u{1B}_G").map(String.init)
        XCTAssertGreaterThan(chunks.count, 2)
        XCTAssertFalse(chunks[0].contains("c=") || chunks[0].contains("r="), "no stretching to whole cells")
        for chunk in chunks.dropFirst() { XCTAssertTrue(chunk.hasPrefix("m=1,q=2;") || chunk.hasPrefix("m=0,q=2;"), String(chunk.prefix(12))) }
        XCTAssertEqual(KittyGraphics.parse(stream + KittyGraphics.draw(sprite))?.payload, sprite.pixels, "the first picture only")
    }

    func testSixelSendsNoGraphicsNewlineAfterTheLastBand() {
        let stream = Sixel.encode(RGBAImage(width: 4, height: 12, pixels: [UInt8](repeating: 200, count: 4 * 12 * 4)))
        XCTAssertTrue(stream.hasSuffix("!4~-#0!4~\u{1B}\\") || stream.hasSuffix("~~~~-#0~~~~\u{1B}\\"), stream)
        XCTAssertFalse(stream.hasSuffix("-\u{1B}\\"))
    }

}

/// Terminals' answers to the graphics queries.
final class GraphicsSupportTests: XCTestCase {
    func testTmuxSaysWhatItsClientsTerminalIs() {
        let kitty = GraphicsSupport.TmuxInfo(output: "on\nxterm-kitty|256,RGB,clipboard,extkeys,title\n")
        XCTAssertTrue(kitty.passthrough)
        XCTAssertEqual(kitty.support.best, .kitty)
        let foot = GraphicsSupport.TmuxInfo(output: "all\nfoot|256,RGB,sixel,title\n")
        XCTAssertEqual(foot.support.best, .sixel)
        let off = GraphicsSupport.TmuxInfo(output: "off\nxterm-kitty|RGB\n")
        XCTAssertFalse(off.passthrough)
        let detached = GraphicsSupport.TmuxInfo(output: "on\n|\n")
        XCTAssertEqual(detached.support.best, .blocks)
        XCTAssertFalse(GraphicsSupport.TmuxInfo(output: "").passthrough, "no tmux answering")
    }

    func testKittySixelAndCellSizeAnswers() {
        let kitty = GraphicsSupport.parse(Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;20;10t\u{1B}[?62;22c".utf8))
        XCTAssertEqual(kitty.best, .kitty)
        XCTAssertEqual(kitty.cell?.width, 10)
        XCTAssertEqual(kitty.cell?.height, 20)
        XCTAssertTrue(kitty.complete)
        let foot = GraphicsSupport.parse(Array("\u{1B}[?62;4;22c".utf8))
        XCTAssertEqual(foot.best, .sixel)
        let plain = GraphicsSupport.parse(Array("\u{1B}[?1;2c".utf8))
        XCTAssertEqual(plain.best, .blocks)
        XCTAssertTrue(plain.complete)
        XCTAssertFalse(GraphicsSupport.parse(Array("\u{1B}_Gi=31;OK\u{1B}\\".utf8)).complete, "still waiting for the DA answer")
        XCTAssertEqual(GraphicsSupport.tmuxPassthrough("\u{1B}_Ga=q\u{1B}\\"), "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=q\u{1B}\u{1B}\\\u{1B}\\")
    }

    /// Whatever cell size a terminal claims (huge, zero, negative) or a sprite server sends, a
    /// fitted picture stays within ``PixelArt/maxPixels`` and the arithmetic never traps.
    func testHostileCellSizesAndHugeSpritesFitWithinTheCap() {
        let sprite = paint(96, 96) { x, y in (UInt8(x), UInt8(y), 0, 255) }
        let huge = RGBAImage(width: 4096, height: 4096, pixels: [UInt8](repeating: 255, count: 4096 * 4096 * 4))
        let cells = [(Int.max, Int.max), (Int.min, Int.min), (0, 0), (-1, 20), (3000, 3000), (1, 1), (256, 257), (10, 20)]
        for image in [sprite, huge] {
            for cell in cells {
                for room in [(1, 1), (96, 96), (1000, 1000), (Int.max, Int.max), (Int.min, 0)] {
                    let fit = PixelArt.fitted(image, maxColumns: room.0, maxRows: room.1, cell: cell)
                    XCTAssertLessThanOrEqual(fit.image.width * fit.image.height, PixelArt.maxPixels, "\(cell) \(room)")
                    XCTAssertEqual(fit.image.pixels.count, fit.image.width * fit.image.height * 4)
                    XCTAssertGreaterThanOrEqual(fit.columns, 1)
                    XCTAssertLessThanOrEqual(fit.columns, PixelArt.maxCells)
                    XCTAssertLessThanOrEqual(fit.rows, PixelArt.maxCells)
                }
            }
        }
        XCTAssertTrue(PixelArt.clampedCell(width: Int.max, height: Int.min) == (256, 1))
        XCTAssertTrue(PixelArt.clampedCell(width: 9, height: 18) == (9, 18))
    }
}
