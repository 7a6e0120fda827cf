import PokedexModels
import PokedexTerminal
import XCTest

/// Browse's pictures: sent once, placed per tile, replaced on redraw, freed on leaving.
final class TileGraphicsTests: XCTestCase {
    static let picture = RGBAImage(width: 2, height: 2, pixels: [UInt8](repeating: 200, count: 16))

    func graphics(_ p: ImageProtocol, tmux: Bool = false) -> TileGraphics {
        TileGraphics(protocolUsed: p, tmuxPassthrough: tmux, fit: { path, _, _ in path == "missing" ? nil : (Self.picture, 4, 2) },
                     png: { _ in [0x89, 0x50, 0x4E, 0x47] })
    }

    func tile(_ path: String, _ x: Int, _ y: Int = 1) -> BrowseView.Placement {
        BrowseView.Placement(spritePath: path, x: x, y: y, columns: 13, rows: 5)
    }

    func count(_ needle: String, _ s: String) -> Int { s.components(separatedBy: needle).count - 1 }

    func testKittySendsEachSpriteOnceAndReplacesPlacementsOnRedraw() {
        let g = graphics(.kitty)
        let first = g.update([tile("a", 0), tile("b", 14)], repainted: true)
        XCTAssertEqual(count("a=t,f=100,i=1,", first), 1)
        XCTAssertEqual(count("a=t,f=100,i=2,", first), 1)
        // Each placement at its tile, the picture centred in its room (13×5 cells, picture 4×2).
        XCTAssertTrue(first.contains("\u{1B}[3;5H\u{1B}_Ga=p,i=1,p=1001,C=1,q=2\u{1B}\\"), first)
        XCTAssertTrue(first.contains("\u{1B}[3;19H\u{1B}_Ga=p,i=2,p=1015,C=1,q=2\u{1B}\\"), first)

        XCTAssertEqual(g.update([tile("a", 0), tile("b", 14)], repainted: false), "", "nothing changed, nothing sent")

        // Scrolled: a leaves, c takes its tile, b moves.
        let scrolled = g.update([tile("c", 0), tile("b", 28)], repainted: false)
        XCTAssertTrue(scrolled.contains("a=d,d=i,i=1,p=1001,"), "a's placement taken off")
        XCTAssertTrue(scrolled.contains("a=d,d=i,i=2,p=1015,"), "b's old placement taken off")
        XCTAssertEqual(count("a=t,", scrolled), 1, "only c is new to the terminal")
        XCTAssertTrue(scrolled.contains("a=p,i=3,p=1001,"))
        XCTAssertTrue(scrolled.contains("a=p,i=2,p=1029,"), "b placed again without being sent again")

        // Back: a is placed from what the terminal kept.
        let back = g.update([tile("a", 0)], repainted: false)
        XCTAssertEqual(count("a=t,", back), 0)
        XCTAssertTrue(back.contains("a=p,i=1,p=1001,"))

        XCTAssertEqual(g.update([], repainted: false).contains("a=d,d=i,i=1,p=1001,"), true, "the detail card: no picture over it")

        // A whole frame (a resize) cleared the screen: the images are freed, sent and placed again.
        let resized = g.update([tile("a", 0), tile("b", 14)], repainted: true)
        for id in 1...3 { XCTAssertTrue(resized.contains("a=d,d=I,i=\(id),q=2"), "image \(id) freed: \(resized)") }
        XCTAssertEqual(count("a=t,", resized), 2)
        XCTAssertTrue(resized.contains("a=t,f=100,i=4,") && resized.contains("a=t,f=100,i=5,"), "new ids, never one freed")
        XCTAssertEqual(count("a=p,", resized), 2)
        let end = g.end()
        XCTAssertEqual(count("a=d,d=I,", end), 2, "what is left is freed on leaving")
        for id in 4...5 { XCTAssertTrue(end.contains("a=d,d=I,i=\(id),q=2"), end) }
    }

    func testSixelRepaintsWhenAPictureGoesAndDrawsOnlyArrivals() {
        let g = graphics(.sixel)
        XCTAssertFalse(g.needsRepaint([tile("a", 0)]))
        let first = g.update([tile("a", 0)], repainted: true)
        XCTAssertEqual(count("\u{1B}P", first), 1)
        XCTAssertFalse(g.needsRepaint([tile("a", 0), tile("b", 14)]), "an arrival is drawn alone")
        let arrival = g.update([tile("a", 0), tile("b", 14)], repainted: false)
        XCTAssertEqual(count("\u{1B}P", arrival), 1)
        XCTAssertTrue(arrival.hasPrefix("\u{1B}[3;19H"), "at b's tile")
        XCTAssertTrue(g.needsRepaint([tile("b", 14)]), "a's pixels only go with a repaint")
        let repainted = g.update([tile("b", 14)], repainted: true)
        XCTAssertEqual(count("\u{1B}P", repainted), 1, "everything left is drawn again")
        XCTAssertEqual(g.end(), "")
    }

    func testBlocksSendNothingAndUnreadableSpritesAreSkipped() {
        XCTAssertEqual(graphics(.blocks).update([tile("a", 0)], repainted: true), "")
        XCTAssertEqual(graphics(.kitty).update([tile("missing", 0)], repainted: true), "")
    }

    func testInsideTmuxEverySequenceGoesThroughItsPassthrough() {
        let out = graphics(.kitty, tmux: true).update([tile("a", 0)], repainted: true)
        XCTAssertTrue(out.contains("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=t,"), out)
    }

    func testTheViewPlacesPicturesOnlyOnTheGridAndLeavesTheirRoomBlank() {
        var model = BrowseModel()
        _ = model.handle(.resized(width: 80, height: 24))
        _ = model.start()
        _ = model.handle(.page(offset: 0, BrowseModelTests.page(0)))
        func view(_ pictures: BrowseView.Pictures) -> BrowseView {
            BrowseView(model: model, mode: .truecolor, art: { _ in TileArt(lines: ["\u{1B}[38;2;1;2;3m██\u{1B}[0m"], tint: nil) },
                       image: { _ in nil }, pictures: pictures)
        }
        let placements = view(.layered).placements()
        XCTAssertEqual(placements.count, 15, "5×3 tiles at 80×24")
        XCTAssertEqual(placements.first, BrowseView.Placement(spritePath: model.entry(0)!.spritePath, x: model.layout.left, y: 1,
                                                                columns: 13, rows: 5), "the grid is centred")
        XCTAssertEqual(placements[1].x, model.layout.left + 14)
        XCTAssertEqual(placements[5].y, 8)
        XCTAssertEqual(view(.none).placements(), [], "half blocks: nothing for the terminal to place")
        XCTAssertTrue(view(.none).render().lines.joined().contains("██"))
        XCTAssertFalse(view(.layered).render().lines.joined().contains("██"), "the room is the terminal's to draw in")
        // sixel: moving the selection writes nothing on a picture's cells (it would erase it).
        let before = view(.painted).render()
        _ = model.handle(.input(.key(.right)))
        let after = view(.painted).render()
        for p in view(.painted).placements() {
            for y in p.y..<(p.y + p.rows) {
                for x in p.x..<(p.x + p.columns) { XCTAssertEqual(before[x, y], after[x, y], "cell \(x),\(y)") }
            }
        }
        XCTAssertNotEqual(before, after, "the selection still shows, on the labels")
        _ = model.handle(.input(.key(.enter)))
        XCTAssertEqual(view(.layered).placements(), [], "no picture over the detail card")
    }
}
