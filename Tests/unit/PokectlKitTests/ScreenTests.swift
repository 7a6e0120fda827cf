import Foundation
import PokedexBusClient
import PokedexLocale
import PokedexModels
import PokedexProtocol
import PokedexTerminal
import PokedexTestKit
import XCTest
@testable import PokectlKit

/// What pokectl prints, as a screen shows it, at 40, 80 and 200 columns in English, German and
/// Japanese: `show` (piped, and in colour with its sprite), `show --random` (piped, as a fetch
/// tool reads it, and within an 80×24 terminal beside fastfetch's lines) and `list --images`.
/// Each fails on a line wider than the screen, a word cut short (every word of every name and
/// label the service sent is found whole; Japanese, which wraps anywhere, letter by letter in
/// order) and a name column that moves from row to row (issue 56: "Spezialangri", names at
/// columns 11, 10, 12, a fastfetch logo that wrapped).
final class ScreenTests: XCTestCase {
    static let widths = [40, 80, 200]
    static let languages = ["en", "de", "ja"]
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "pokectl-screens-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data(encodePNG(sampleSprite())).write(to: URL(fileURLWithPath: sprite))
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    var sprite: String { dir + "/sprite.png" }

    /// The service as it answers these commands: the cards, a page of their rows, their names.
    func service(_ language: String) -> FakeService {
        let fake = FakeService()
        let cards = MockCards.cards.indices.map { i -> PokemonDetail in
            var d = MockCards.full(i, language: language)
            d.spritePath = sprite
            return d
        }
        fake.on(Pokedex1.localizedDetail) { (args: (String, String)) throws(BusError) in
            guard let d = cards.first(where: { $0.name == args.0 }) else { throw BusError(name: PokedexError.Kind.notFound.dbusName, message: "no \(args.0)") }
            return d
        }
        fake.on(Pokedex1.listPage) { _ throws(BusError) in
            ListPage(total: 1351, entries: cards.map { ListEntry(id: $0.id, name: $0.name, spritePath: self.sprite, favorite: $0.id == 133) })
        }
        fake.on(Pokedex1.displayNames) { (args: ([UInt32], String)) throws(BusError) in
            cards.filter { args.0.contains($0.id) }.map { DisplayName(id: $0.id, name: $0.name, displayName: $0.displayName) }
        }
        fake.on(Pokedex1.randomSprite) { _ throws(BusError) in RandomSprite(id: 10164, name: "slowpoke-galar", path: self.sprite, shiny: true) }
        return fake
    }

    func words(_ language: String) -> Words { MockData.words(language) }

    /// Runs pokectl as a screen `width` columns wide would, in colour where `color`.
    func screen(_ arguments: [String], _ language: String, width: Int, color: Bool) -> [String] {
        let env = ["COLUMNS": String(width)].merging(color ? ["COLORTERM": "truecolor"] : [:]) { $1 }
        let ran = Harness.run(arguments + (color ? ["--color", "always"] : []), service(language), words: words(language),
                              language: language, environment: env)
        XCTAssertEqual(ran.code, 0, "\(arguments) \(language): \(ran.err)")
        return ran.out.split(separator: "\n", omittingEmptySubsequences: false).map { Self.visible(String($0)) }
    }

    /// A line as the screen shows it: a cursor move right (CSI n C) stands for n columns, the
    /// other escape sequences (colour) take none (``TerminalText/plain(_:)``).
    static func visible(_ line: String) -> String {
        var s = line
        while let r = s.range(of: "\u{1B}\\[[0-9]*C", options: .regularExpression) {
            s.replaceSubrange(r, with: String(repeating: " ", count: Int(s[r].dropFirst(2).dropLast()) ?? 1))
        }
        return TerminalText.plain(s)
    }

    /// Fails on a line wider than `width`.
    func assertFits(_ lines: [String], _ width: Int, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for l in lines where TerminalText.width(l) > width {
            XCTFail("\(what): \(TerminalText.width(l)) columns of \(width): \(l)", file: file, line: line)
        }
    }

    /// Fails on a word of `texts` not found whole on the screen: each Latin word as a word of
    /// the screen's (split at spaces and punctuation), a Japanese text letter by letter in order
    /// (it wraps anywhere; the screen's own marks between are skipped).
    func assertWhole(_ texts: [String], in lines: [String], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let screenWords = Set(lines.flatMap(Self.words))
        let screenLetters = lines.map(Self.letters).joined()
        for text in texts where !text.isEmpty {
            if text.unicodeScalars.contains(where: Self.isJapanese) {
                let letters = Self.letters(text)
                if !screenLetters.contains(letters) { XCTFail("\(what): \"\(text)\" is not whole on the screen", file: file, line: line) }
                continue
            }
            for w in Self.words(text) where !screenWords.contains(w) {
                XCTFail("\(what): \"\(w)\" (of \"\(text)\") is not whole on the screen:\n\(lines.joined(separator: "\n"))", file: file, line: line)
                return
            }
        }
    }

    static func words(_ s: String) -> [String] {
        s.split { $0.isWhitespace || ",.:;()[]/·×½¼★☆│|…\"“”„、。（）「」・".contains($0) }.map(String.init).filter { $0.contains(where: \.isLetter) }
    }

    static func letters(_ s: String) -> String { String(s.unicodeScalars.filter { isJapanese($0) || $0.properties.isAlphabetic }.map(Character.init)) }

    static func isJapanese(_ u: Unicode.Scalar) -> Bool {
        (0x3040...0x30FF).contains(u.value) || (0x4E00...0x9FFF).contains(u.value) || (0xFF01...0xFF5E).contains(u.value)
    }

    /// What a card shows that must never be cut: its name, genus, types, abilities, stats'
    /// names (in English the games' short labels, "Sp. Atk"), flavour text and its family's names.
    static func texts(_ d: PokemonDetail) -> [String] {
        let stats = d.language == "en" ? ["HP", "Attack", "Defense", "Sp. Atk", "Sp. Def", "Speed"] : d.statNames
        return [d.displayName, d.genus, d.flavorText] + d.typeNames + d.abilityNames + stats + d.evolution.map(\.displayName)
    }

    func testShowFitsEveryWidthWithEveryWordWhole() {
        for language in Self.languages {
            for width in Self.widths {
                for i in MockCards.cards.indices {
                    let d = MockCards.full(i, language: language)
                    for color in [false, true] {
                        let what = "show \(d.name) \(language) \(width) columns\(color ? " in colour" : "")"
                        let lines = screen(["show", d.name], language, width: width, color: color)
                        assertFits(lines, width, what)
                        assertWhole(Self.texts(d), in: lines, what)
                    }
                }
            }
        }
    }

    func testShowRandomLeavesAFetchToolRoomAndItsNameWhole() {
        for language in Self.languages {
            let name = words(language).trf("Shiny %s", MockCards.full(5, language: language).displayName)
            for color in [false, true] {
                let what = "show --random \(language)\(color ? " in colour" : " piped")"
                // fastfetch puts about 48 columns of its own beside the logo, and 18 lines.
                let lines = screen(["show", "--random"], language, width: 80, color: color).filter { !$0.isEmpty }
                assertFits(lines, 30, what)
                // 15 lines of sprite at most and its name on two: 80×24 keeps a prompt's room.
                XCTAssertLessThanOrEqual(lines.count, 17, "\(what): \(lines.count) lines leave 80×24 no room:\n\(lines.joined(separator: "\n"))")
                assertWhole([name], in: lines, what)
                if TerminalText.width(name) <= 30 {
                    // Wider than the sprite, within the logo's 30 columns: one line under it.
                    XCTAssertEqual(lines.last?.trimmingCharacters(in: .whitespaces), name, what)
                }
                for width in [40, 200] {
                    let sized = screen(["show", "--random", "--width", String(width / 2), "--height", String(width / 4)], language,
                                       width: width, color: color).filter { !$0.isEmpty }
                    assertFits(sized, width, what + " --width \(width / 2)")
                    XCTAssertLessThanOrEqual(sized.count, width / 4 + 2, what + " --height \(width / 4), the name on two lines at most")
                }
            }
        }
    }

    func testListImagesKeepsItsNamesInOneColumnWhole() {
        for language in Self.languages {
            let names = MockCards.cards.indices.map { MockCards.full($0, language: language).displayName }
            for width in Self.widths {
                let what = "list --images \(language) \(width) columns"
                let lines = screen(["list", "--images"], language, width: width, color: true)
                assertFits(lines, width, what)
                assertWhole(names, in: lines, what)
                // Each row's number starts in the same column.
                let starts = Set(lines.compactMap { l -> Int? in
                    guard let r = l.range(of: "#") else { return nil }
                    return TerminalText.width(String(l[..<r.lowerBound]))
                })
                XCTAssertEqual(starts.count, 1, "\(what): the names start at columns \(starts.sorted()):\n\(lines.joined(separator: "\n"))")
            }
        }
    }
}
