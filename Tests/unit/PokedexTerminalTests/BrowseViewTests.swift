import Foundation
import PokedexModels
import PokedexTestKit
@testable import PokedexTerminal
import XCTest

/// Snapshots of `pokectl browse`'s frames at 80×24 and 120×40, with colour and without. A changed
/// rendering fails with the first differing line; `UPDATE_SNAPSHOTS=1` accepts it.
final class BrowseViewTests: XCTestCase {
    static let names = ["bulbasaur", "ivysaur", "venusaur", "charmander", "charmeleon", "charizard", "squirtle",
                        "wartortle", "blastoise", "caterpie", "metapod", "butterfree", "weedle", "kakuna", "beedrill",
                        "pidgey", "pidgeotto", "pidgeot", "rattata", "raticate"]

    /// A model at `width × height` with the first page in: sprites on disk for all but #4, #2 a favorite.
    static func model(width: Int, height: Int) -> BrowseModel {
        var m = BrowseModel()
        _ = m.handle(.resized(width: width, height: height))
        _ = m.start()
        let entries = names.enumerated().map { i, n in
            ListEntry(id: UInt32(i + 1), name: n, spritePath: i == 3 ? "" : "/cache/\(i + 1).png", favorite: i == 1)
        }
        _ = m.handle(.page(offset: 0, ListPage(total: 1351, entries: entries)))
        _ = m.handle(.input(.key(.right)))
        return m
    }

    static func render(_ m: BrowseModel, _ mode: ColorMode) -> Screen {
        let sprite = sampleSprite()
        return BrowseView(model: m, mode: mode, art: { _ in TileArt(image: sprite, mode: mode) }, image: { _ in sprite }).render()
    }

    /// The frame as text: without colour, the cells; with colour, each row's cells and the
    /// styles that change along it (on as many lines as they take), so a colour change shows in
    /// the diff.
    static func text(_ s: Screen, colour: Bool) -> String {
        var out = ""
        for y in 0..<s.height {
            out += (0..<s.width).map { s[$0, y].text }.joined() + "\n"
            guard colour else { continue }
            var last: Style?
            var runs: [String] = []
            for x in 0..<s.width where s[x, y].style != last {
                last = s[x, y].style
                runs.append("\(x):" + describe(s[x, y].style))
            }
            out += wrapped(runs)
        }
        return out
    }

    /// Style runs on lines of at most 100 characters, each indented by two spaces: a file whose
    /// lines Debian's lintian accepts (under 512).
    static func wrapped(_ runs: [String]) -> String {
        var out = "", line = ""
        for run in runs {
            if !line.isEmpty, line.count + 1 + run.count > 98 {
                out += "  " + line + "\n"
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + run
        }
        return out + "  " + line + "\n"
    }

    static func describe(_ st: Style) -> String {
        func hex(_ c: RGB?) -> String { c.map { String(format: "%02x%02x%02x", $0.r, $0.g, $0.b) } ?? "-" }
        return hex(st.foreground) + "/" + hex(st.background) + (st.bold ? "b" : "") + (st.dim ? "d" : "") + (st.reverse ? "r" : "")
    }

    func snapshot(_ name: String, _ text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let url = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().appendingPathComponent("Snapshots/\(name).txt")
        if ProcessInfo.processInfo.environment["UPDATE_SNAPSHOTS"] == "1" {
            try text.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let want = try String(contentsOf: url, encoding: .utf8)
        guard text != want else { return }
        let got = text.split(separator: "\n", omittingEmptySubsequences: false), expected = want.split(separator: "\n", omittingEmptySubsequences: false)
        let first = zip(got, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, expected.count)
        XCTFail("\(name) differs at line \(first + 1):\n got: \(first < got.count ? got[first] : "<end>")\nwant: \(first < expected.count ? expected[first] : "<end>")\n(UPDATE_SNAPSHOTS=1 accepts it)", file: file, line: line)
    }

    func testGridAt80x24() throws {
        let m = Self.model(width: 80, height: 24)
        let plain = Self.render(m, .none)
        XCTAssertEqual(plain.lines.count, 24)
        XCTAssertTrue(plain.lines[23].contains("1–15 of 1351"), plain.lines[23])
        XCTAssertTrue(plain.lines.joined().contains("#002 ★"), "the favorite's star")
        XCTAssertTrue(plain.lines.joined().contains("░░░░"), "#4's sprite is not on disk yet: a placeholder")
        try snapshot("browse-80x24-plain", Self.text(plain, colour: false))
        try snapshot("browse-80x24-truecolor", Self.text(Self.render(m, .truecolor), colour: true))
    }

    func testGridAt120x40() throws {
        let m = Self.model(width: 120, height: 40)
        try snapshot("browse-120x40-plain", Self.text(Self.render(m, .none), colour: false))
        try snapshot("browse-120x40-256", Self.text(Self.render(m, .palette256), colour: true))
    }

    func testSearchHelpAndDetailFrames() throws {
        var m = Self.model(width: 80, height: 24)
        _ = m.handle(.input(.key(.char("/"))))
        _ = m.handle(.input(.key(.char("p"))))
        XCTAssertTrue(Self.render(m, .none).lines[0].contains("/p"))
        _ = m.handle(.input(.key(.escape)))
        _ = m.handle(.input(.key(.char("?"))))
        XCTAssertTrue(Self.render(m, .none).lines.joined().contains("search as you type"))
        _ = m.handle(.input(.key(.char("?"))))
        _ = m.handle(.input(.key(.right)))  // Esc went back to the whole list, at its top
        _ = m.handle(.input(.key(.enter)))
        _ = m.handle(.detail(PokemonDetail(id: 2, name: "ivysaur", height: 10, weight: 130, types: ["grass", "poison"],
                                           abilities: ["overgrow"], stats: [.init(name: "hp", value: 60)], spritePath: "/cache/2.png",
                                           favorite: true, genus: "Seed Pokémon", flavorText: "An invented entry for this test: the card wraps it across two rows of the detail pane below.")))
        let detail = Self.render(m, .none)
        XCTAssertTrue(detail.lines.joined().contains("Seed Pokémon"))
        try snapshot("browse-detail-80x24-plain", Self.text(detail, colour: false))
    }

    func testTheDiffWritesOnlyWhatChanged() {
        var m = Self.model(width: 80, height: 24)
        var writer = ScreenWriter(mode: .truecolor)
        let first = writer.frame(Self.render(m, .truecolor))
        _ = m.handle(.input(.key(.right)))
        let second = writer.frame(Self.render(m, .truecolor))
        XCTAssertTrue(first.contains("\u{1B}[2J"), "the first frame is whole")
        XCTAssertFalse(second.contains("\u{1B}[2J"))
        XCTAssertLessThan(second.utf8.count, first.utf8.count / 3, "moving one tile rewrites two tiles and the status line")
        XCTAssertEqual(writer.frame(Self.render(m, .truecolor)), ScreenWriter.beginFrame + "\u{1B}[0m" + ScreenWriter.endFrame, "nothing changed, nothing written")
    }

    func testAnSGRLineIsReadBackIntoCells() {
        var s = Screen(width: 10, height: 1)
        s.putANSI("\u{1B}[38;2;1;2;3;48;5;196m▀\u{1B}[0mab", x: 0, y: 0)
        XCTAssertEqual(s[0, 0].style.foreground, RGB(1, 2, 3))
        XCTAssertEqual(s[0, 0].style.background, RGB(255, 0, 0))
        XCTAssertEqual(s[1, 0], Cell("a"))
        XCTAssertEqual(s.lines[0], "▀ab       ")
    }
}
