import Foundation
import PokedexCore
@testable import PokedexTerminal
import XCTest
import PokedexTestKit

/// Snapshot tests of `pokectl show`'s card. A changed rendering fails with a diff; to accept it,
/// run with `UPDATE_SNAPSHOTS=1` and review the files under `Snapshots/` in the commit.
final class DetailCardTests: XCTestCase {
    static let pikachu = PokemonDetail(
        id: 25, name: "pikachu", height: 4, weight: 60, types: ["electric"], abilities: ["static", "lightning-rod"],
        stats: [.init(name: "hp", value: 35), .init(name: "attack", value: 55), .init(name: "defense", value: 40),
                .init(name: "special-attack", value: 50), .init(name: "special-defense", value: 50), .init(name: "speed", value: 90)],
        spritePath: "/tmp/25.png", favorite: true, genus: "Mouse Pokémon",
        flavorText: "A made-up entry for the tests: this small Pokémon hums a tune on rainy days and naps in the sun.",
        color: "#f8d030", animatedSpritePath: "")

    static let charizard = PokemonDetail(
        id: 6, name: "charizard", height: 17, weight: 905, types: ["fire", "flying"], abilities: ["blaze", "solar-power"],
        stats: [.init(name: "hp", value: 78), .init(name: "attack", value: 84), .init(name: "defense", value: 78),
                .init(name: "special-attack", value: 109), .init(name: "special-defense", value: 85), .init(name: "speed", value: 100)],
        spritePath: "", favorite: false, genus: "Flame Pokémon",
        flavorText: "A made-up entry for the tests, long enough to wrap. It has two sentences, like the games do.")

    func testTruecolorAt80Columns() throws {
        let lines = DetailCard(detail: Self.pikachu, image: sampleSprite(), width: 80, mode: .truecolor).render()
        assertFits(lines, 80)
        XCTAssertTrue(lines.joined().contains("\u{1B}[38;2;248;208;48"), "the body's yellow, in 24-bit colour")
        XCTAssertTrue(lines.joined().contains("▀"))
        try snapshot("pikachu-truecolor-80", lines)
    }

    func testPalette256At80Columns() throws {
        let lines = DetailCard(detail: Self.pikachu, image: sampleSprite(), width: 80, mode: .palette256).render()
        assertFits(lines, 80)
        XCTAssertFalse(lines.joined().contains("38;2;"), "no 24-bit sequences in 256-colour mode")
        XCTAssertTrue(lines.joined().contains("38;5;"))
        try snapshot("pikachu-256-80", lines)
    }

    func testNoColourIsPlainText() throws {
        let lines = DetailCard(detail: Self.pikachu, image: sampleSprite(), width: 80, mode: .none).render()
        XCTAssertFalse(lines.joined().contains("\u{1B}"), "no escape sequences at all")
        XCTAssertFalse(lines.joined().contains("▀"), "no picture without colour")
        assertFits(lines, 80)
        try snapshot("pikachu-plain-80", lines)
    }

    func testTwoTypesNoImage() throws {
        let lines = DetailCard(detail: Self.charizard, image: nil, width: 80, mode: .truecolor).render()
        assertFits(lines, 80)
        try snapshot("charizard-truecolor-noimage-80", lines)
    }

    func testNarrowTerminalPutsTextBelow() throws {
        let lines = DetailCard(detail: Self.pikachu, image: sampleSprite(), width: 40, mode: .palette256).render()
        assertFits(lines, 40)
        let title = try XCTUnwrap(lines.firstIndex { $0.contains("Pikachu") })
        XCTAssertGreaterThan(title, 3, "the name comes after the picture")
        try snapshot("pikachu-256-40", lines)
    }

    func testSizesInBothSystems() {
        XCTAssertEqual(Self.render(Self.pikachu).filter { $0.hasPrefix("Height") || $0.hasPrefix("Weight") },
                       ["Height    0.4 m (1′04″)", "Weight    6.0 kg (13.2 lb)"])
        XCTAssertTrue(Self.render(Self.charizard).contains("Height    1.7 m (5′07″)"))
        XCTAssertTrue(Self.render(Self.charizard).contains("Weight    90.5 kg (199.5 lb)"))
    }

    func testStatBarsScaleTo255() {
        var d = Self.pikachu
        d.stats = [.init(name: "hp", value: 255), .init(name: "speed", value: 0), .init(name: "attack", value: 300)]
        let lines = Self.render(d, width: 80)
        let full = lines.first { $0.hasPrefix("HP") }!, empty = lines.first { $0.hasPrefix("Speed") }!
        let over = lines.first { $0.hasPrefix("Attack") }!
        XCTAssertEqual(full.filter { $0 == "█" }.count, 24)
        XCTAssertEqual(empty.filter { "█▏▎▍▌▋▊▉".contains($0) }.count, 0)
        XCTAssertEqual(over.filter { $0 == "█" }.count, 24, "capped at 255")
    }

    func testFlavourTextWrapsToTheWidth() {
        for width in [30, 50, 80, 120] {
            let lines = Self.render(Self.pikachu, width: width)
            let start = lines.lastIndex(of: "")! + 1
            let flavour = lines[start...].joined(separator: " ")
            XCTAssertEqual(flavour, Self.pikachu.flavorText)
            for l in lines[start...] { XCTAssertLessThanOrEqual(TerminalText.width(l), width) }
        }
    }

    /// The card as a German reader sees it: the service's names, the catalogue's labels, a comma.
    func testGermanCardWithTheServicesNamesAndTheCataloguesWords() throws {
        var d = Self.charizard
        d.displayName = "Glurak"
        d.language = "de"
        d.genus = "Flammen-Pokémon"
        d.typeNames = ["Feuer", "Flug"]
        d.abilityNames = ["Großbrand", "Solarkraft"]
        d.statNames = ["KP", "Angriff", "Verteidigung", "Spezialangriff", "Spezialverteidigung", "Initiative"]
        d.flavorText = "Glurak wärmt sich gern an sonnigen Tagen auf einem Felsen."
        let german = Words(decimalSeparator: ",") { ["Height": "Größe", "Weight": "Gewicht", "Abilities": "Fähigkeiten"][$0] ?? $0 }
        let lines = DetailCard(detail: d, image: nil, width: 80, mode: .none, words: german).render()
        XCTAssertEqual(lines.prefix(4), ["Glurak  #006", "Flammen-Pokémon", "", "[Feuer] [Flug]"])
        XCTAssertTrue(lines.contains("Größe       1,7 m (5′07″)"), lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains("Gewicht     90,5 kg (199,5 lb)"), lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains("Fähigkeiten Großbrand, Solarkraft"))
        XCTAssertTrue(lines.contains { $0.hasPrefix("Spezialverteidigung  85 ") }, "the label column as wide as the widest label")
        assertFits(lines, 80)
        // A card under the sprite at 40 columns keeps every word whole: the labels, and the
        // sizes and abilities wrapped between words.
        let narrow = DetailCard(detail: d, image: nil, width: 36, mode: .none, words: german).render()
        assertFits(narrow, 36)
        XCTAssertTrue(narrow.contains { $0.hasPrefix("Spezialverteidigung  85 ") }, narrow.joined(separator: "\n"))
        XCTAssertTrue(narrow.contains { $0.hasPrefix("Spezialangriff      109 ") }, narrow.joined(separator: "\n"))
        XCTAssertTrue(narrow.contains("Gewicht     90,5 kg (199,5 lb)"), narrow.joined(separator: "\n"))
        // Only a card too narrow for the word cuts it.
        let tiny = DetailCard(detail: d, image: nil, width: 24, mode: .none, words: german).render()
        assertFits(tiny, 24)
        // Japanese: wide labels counted as two columns, and the text wrapped where it has no spaces.
        var ja = d
        ja.displayName = "リザードン"
        ja.statNames = ["HP", "こうげき", "ぼうぎょ", "とくこう", "とくぼう", "すばやさ"]
        ja.flavorText = String(repeating: "やま　１２００メートルまで　にもつを　かかえて　とぶことが　できる。", count: 2)
        let jaLines = DetailCard(detail: ja, image: nil, width: 40, mode: .none).render()
        assertFits(jaLines, 40)
        XCTAssertTrue(jaLines.contains { $0.hasPrefix("すばやさ  100 ") }, jaLines.joined(separator: "\n"))
    }

    static func render(_ d: PokemonDetail, width: Int = 80) -> [String] {
        DetailCard(detail: d, image: nil, width: width, mode: .none).render()
    }
}

final class TerminalColourTests: XCTestCase {
    func testDetectsTheMode() {
        XCTAssertEqual(ColorMode.detect(environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"]), .truecolor)
        XCTAssertEqual(ColorMode.detect(environment: ["TERM": "xterm-256color", "COLORTERM": "24bit"]), .truecolor)
        XCTAssertEqual(ColorMode.detect(environment: ["TERM": "xterm-256color"]), .palette256)
        XCTAssertEqual(ColorMode.detect(environment: ["TERM": "screen", "COLORTERM": "yes"]), .palette256)
        XCTAssertEqual(ColorMode.detect(environment: ["TERM": "dumb", "COLORTERM": "truecolor"]), .none)
        XCTAssertEqual(ColorMode.detect(environment: [:]), .none)
        XCTAssertEqual(ColorMode.detect(environment: ["TERM": "xterm", "COLORTERM": "truecolor", "NO_COLOR": "1"]), .none)
    }

    func testPaletteMapping() {
        XCTAssertEqual(RGB(0, 0, 0).palette256, 16)
        XCTAssertEqual(RGB(255, 255, 255).palette256, 231)
        XCTAssertEqual(RGB(255, 0, 0).palette256, 196)
        XCTAssertEqual(RGB(0x80, 0x80, 0x80).palette256, 244, "greys go to the grey ramp")
        XCTAssertEqual(RGB(0xF8, 0xD0, 0x30).palette256, 221)
    }

    func testHalfBlocks() {
        // Top row red, bottom row blue, right column transparent.
        let image = paint(2, 2) { x, y in x == 1 ? (0, 0, 0, 0) : y == 0 ? (255, 0, 0, 255) : (0, 0, 255, 255) }
        let lines = SpriteArt.lines(image, maxColumns: 2, maxRows: 1, mode: .truecolor)
        XCTAssertEqual(lines, ["\u{1B}[38;2;255;0;0;48;2;0;0;255m▀\u{1B}[0m"], "cropped to the visible column, upper pixel as foreground")
        let lowerOnly = paint(1, 2) { _, y in y == 0 ? (0, 0, 0, 0) : (0, 255, 0, 255) }
        XCTAssertEqual(SpriteArt.lines(lowerOnly, maxColumns: 4, maxRows: 4, mode: .truecolor).count, 2, "one visible pixel, grown to fit")
        XCTAssertEqual(SpriteArt.lines(image, maxColumns: 2, maxRows: 1, mode: .none), [])
        XCTAssertEqual(SpriteArt.lines(paint(3, 3) { _, _ in (9, 9, 9, 0) }, maxColumns: 3, maxRows: 3, mode: .truecolor), [])
    }

    func testImageFitsItsBox() {
        let big = paint(96, 96) { x, y in (UInt8(x), UInt8(y), 128, 255) }
        let lines = SpriteArt.lines(big, maxColumns: 32, maxRows: 16, mode: .palette256)
        XCTAssertEqual(lines.count, 16)
        for l in lines { XCTAssertEqual(TerminalText.width(l), 32) }
        let tall = paint(10, 40) { _, _ in (200, 10, 10, 255) }
        let tallLines = SpriteArt.lines(tall, maxColumns: 32, maxRows: 10, mode: .truecolor)
        XCTAssertEqual(tallLines.count, 10)
        XCTAssertEqual(TerminalText.width(tallLines[0]), 5, "keeps its shape")
    }

    func testWrapAndTruncate() {
        XCTAssertEqual(TerminalText.wrap("aaa bbb ccc ddd", to: 10), ["aaa bbb", "ccc ddd"])
        XCTAssertEqual(TerminalText.wrap(String(repeating: "x", count: 25), to: 10), ["xxxxxxxxxx", "xxxxxxxxxx", "xxxxx"])
        XCTAssertEqual(TerminalText.truncate("Lightning Rod", to: 8), "Lightni…")
        XCTAssertEqual(TerminalText.width("\u{1B}[1mピカチュウ\u{1B}[0m"), 10)
    }
}

/// Snapshots under `Snapshots/` and the width check, for every card test.
extension XCTestCase {
    func snapshot(_ name: String, _ lines: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let dir = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().appendingPathComponent("Snapshots")
        let url = dir.appendingPathComponent(name + ".txt")
        let text = lines.joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["UPDATE_SNAPSHOTS"] == "1" {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        if text != expected {
            let got = text.split(separator: "\n", omittingEmptySubsequences: false)
            let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, want.count)
            XCTFail("\(name) differs from Snapshots/\(name).txt at line \(first + 1):\n got: \(first < got.count ? got[first] : "<end>")\nwant: \(first < want.count ? want[first] : "<end>")\n(UPDATE_SNAPSHOTS=1 accepts the new rendering)", file: file, line: line)
        }
    }

    func assertFits(_ lines: [String], _ width: Int, file: StaticString = #filePath, line: UInt = #line) {
        for l in lines { XCTAssertLessThanOrEqual(TerminalText.width(l), width, "too wide: \(l)", file: file, line: line) }
    }
}
