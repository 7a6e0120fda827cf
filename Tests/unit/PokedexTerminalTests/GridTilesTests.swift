@testable import PokedexCore
import PokedexModels
import PokedexTestKit
@testable import PokedexTerminal
import XCTest

/// browse's grid tiles: every Pokémon's and form's name, in English, German and Japanese, whole
/// under its sprite, broken only where the language breaks (issue 56: "Gigantamax …").
final class GridTilesTests: XCTestCase {
    static let languages = ["en", "de", "ja"]
    /// A tile's label width: the tile less its gap and the label's leading space.
    static let width = BrowseLayout.tileWidth - 2

    /// The species' name, for a form.
    static func species(_ id: UInt32, _ language: String) -> String? {
        let s = PokedexNumber.shown(id)
        return s == id ? nil : name(s, language)
    }

    static func name(_ id: UInt32, _ language: String) -> String {
        let names = BundledNames.entries[id]!.names
        return names[language] ?? names["en"]!
    }

    /// What of `name` is left after the label's rows say its start, each row broken well: where
    /// a space was, after a hyphen, beside a wide letter, or, in a word wider than a row,
    /// with a hyphen added; nil when a row says anything else, or breaks inside a word that
    /// would have fitted.
    static func rest(after lines: [String], of name: String) -> Substring? {
        var rest = Substring(name)
        for (i, line) in lines.enumerated() {
            if rest.hasPrefix(line) {
                rest = rest.dropFirst(line.count)
            } else if line.hasSuffix("-"), rest.hasPrefix(line.dropLast()) {
                // A hyphen added: only inside a word wider than a row.
                let start = name.index(name.startIndex, offsetBy: name.count - rest.count)
                let wordStart = name[..<start].lastIndex(of: " ").map { name.index(after: $0) } ?? name.startIndex
                let word = name[wordStart...].prefix { $0 != " " }
                guard TerminalText.width(String(word)) > width else { return nil }
                rest = rest.dropFirst(line.count - 1)
                continue
            } else {
                return nil
            }
            guard i < lines.count - 1, let next = rest.first else { continue }
            if next == " " || next == "\u{3000}" { rest = rest.dropFirst(); continue }
            let last = line.last!
            if last == "-" || TerminalText.width(of: last) == 2 || TerminalText.width(of: next) == 2 { continue }
            return nil
        }
        return rest
    }

    /// The rows say the whole name, broken well.
    static func sayWhole(_ lines: [String], _ name: String) -> Bool { rest(after: lines, of: name)?.isEmpty == true }

    /// A cut label ("Orange" "Meteor…"): its rows say the name's start, broken well, and stop
    /// where a word ends (or, in a word wider than a row, where the row does).
    static func cutWell(_ lines: [String], _ name: String) -> Bool {
        guard let last = lines.last, last.hasSuffix("…") else { return false }
        let shown = Array(lines.dropLast()) + [String(last.dropLast())]
        guard let rest = rest(after: shown, of: name), let next = rest.first else { return false }
        let before = name[..<rest.startIndex].last
        if before == nil || before == " " || before == "-" || next == " " || TerminalText.width(of: next) == 2 { return true }
        let word = rest.prefix { $0 != " " }
        return TerminalText.width(String(shown.last!)) + TerminalText.width(String(word)) > width - 1
    }

    /// One row says `text`: whole, or its start cut well before "…" (in a word only when that
    /// word alone is wider than the row).
    static func says(_ row: String, _ text: String) -> Bool {
        if row == text { return true }
        guard row.hasSuffix("…") else { return false }
        let shown = row.dropLast()
        guard text.hasPrefix(shown) else { return false }
        let rest = text.dropFirst(shown.count)
        guard let next = rest.first else { return false }
        if shown.isEmpty || next == " " || shown.last == " " || shown.last == "-" || TerminalText.width(of: next) == 2 { return true }
        let start = shown.lastIndex(of: " ").map { shown.index(after: $0) } ?? shown.startIndex
        let word = String(shown[start...]) + String(rest.prefix { $0 != " " })
        return TerminalText.width(word) > width - 1
    }

    func testEveryNameInEveryLanguageIsWholeUnderItsSpriteOrCutBetweenWords() {
        var checked = 0, cut: [String] = [], formOnly = 0
        for id in BundledNames.entries.keys.sorted() {
            for language in Self.languages {
                let name = Self.name(id, language)
                let species = Self.species(id, language)
                // What the tile says: the name, or, for a form whose name two rows cannot hold,
                // what sets it apart from its species.
                let form = species.flatMap { TileLabel.formPart(of: name, species: $0) }
                for favorite in [false, true] {
                    let (label, star) = BrowseView.label(number: PokedexNumber.label(id), name: name, species: species, width: Self.width,
                                                         favorite: favorite)
                    let nameLines = label.numbered ? Array(label.lines.dropFirst()) : label.lines
                    let what = "#\(id) \(language) \(name)\(favorite ? " ★" : "")"
                    XCTAssertLessThanOrEqual(label.lines.count, TileLabel.rows, what)
                    for line in label.lines {
                        XCTAssertLessThanOrEqual(TerminalText.width(line), Self.width, "\(what): \(line)")
                    }
                    if Self.sayWhole(nameLines, name) {
                        // The whole name, broken well.
                    } else if let species, let form {
                        // The species over what sets the form apart, each whole or cut well.
                        XCTAssertEqual(nameLines.count, 2, what)
                        XCTAssertTrue(Self.says(nameLines.first ?? "", species), "\(what): \(label.lines)")
                        XCTAssertTrue(Self.says(nameLines.last ?? "", form), "\(what): \(label.lines)")
                        if !favorite { formOnly += 1 }
                        if !favorite, nameLines.joined().contains("…") { cut.append(what) }
                    } else {
                        XCTAssertTrue(Self.cutWell(nameLines, name), "\(what): cut inside a word: \(label.lines)")
                        if !favorite { cut.append(what) }
                    }
                    XCTAssertEqual(star != nil, favorite, what)
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 7000, "every species and form, in three languages")
        // Two rows of 12 columns hold all but a few forms' names; those end in "…", and the
        // title bar shows them whole when their tile is selected.
        for language in Self.languages {
            let n = cut.filter { $0.contains(" \(language) ") }.count
            print("grid tiles: \(language): \(checked / 6) names, \(n) cut between words: \(cut.filter { $0.contains(" \(language) ") }.prefix(8))")
        }
        print("grid tiles: \(formOnly) forms shown as their species over what sets them apart")
        // Two rows of 12 columns: in English and German a name ends in "…" for 1.6 % and 2.0 %
        // of them (forms: "Minior" over "Orange…"), in Japanese, whose words are twice as
        // wide, for 10.7 % ("デオキシス" over "アタックフ…"); none is cut inside a word that fits.
        let latin = cut.filter { $0.contains(" en ") || $0.contains(" de ") }.count
        XCTAssertLessThan(Double(latin), Double(checked / 3) * 0.025, "cut in English and German: \(latin)")
        XCTAssertLessThan(Double(cut.count), Double(checked / 2) * 0.05, "cut: \(cut.count)")
    }

    func testANameThatFitsKeepsTheNumberAboveIt() {
        let label = TileLabel(number: "#0025", name: "Pikachu", width: Self.width)
        XCTAssertEqual(label.lines, ["#0025", "Pikachu"])
        XCTAssertEqual(TileLabel(number: "#0006", name: "Gigantamax Charizard", width: Self.width).lines, ["Gigantamax", "Charizard"])
        XCTAssertEqual(TileLabel(number: "#0006", name: "Gigadynamax-Glurak", width: Self.width).lines, ["Gigadynamax-", "Glurak"])
        XCTAssertEqual(BrowseView.label(number: "#0025", name: "Pikachu", width: Self.width, favorite: true).starRow, 0)
        XCTAssertEqual(TileLabel(number: "#0774", name: "Orange Meteor Minior", width: Self.width).lines, ["Orange", "Meteor…"])
        XCTAssertEqual(TileLabel(number: "#0774", name: "Orange Meteor Minior", species: "Minior", width: Self.width).lines, ["Minior", "Orange…"])
        XCTAssertEqual(TileLabel.break("デオキシス アタックフォルム", width: Self.width), ["デオキシス", "アタックフォ", "ルム"],
                       "never a line that starts with a small kana")
        XCTAssertEqual(TileLabel(number: "#0003", name: "フシギバナ キョダイマックスのすがた", species: "フシギバナ", width: Self.width).lines,
                       ["フシギバナ", "キョダイ…"], "whose it is, over what sets it apart")
        XCTAssertEqual(TileLabel(number: "#0386", name: "Deoxys (Verteidigung)", species: "Deoxys", width: Self.width).lines,
                       ["Deoxys", "Verteidigung"])
    }

    /// The grid as browse draws it, at every size and in each language: long forms among
    /// species, favorites among them; each tile's rows are its label's, whole.
    func testTheGridDrawsEachTilesLabelWhole() {
        let ids: [UInt32] = [6, 10034, 10196, 25, 10080, 133, 10159, 745, 10126, 888, 10188, 1017, 10275, 892, 10191]
        for (width, height) in [(40, 12), (80, 24), (200, 60)] {
            for language in Self.languages {
                var m = BrowseModel(sound: false)
                _ = m.handle(.resized(width: width, height: height))
                _ = m.start()
                let entries = ids.enumerated().map { ListEntry(id: $1, name: BundledNames.entries[$1]!.identifier, spritePath: "", favorite: $0 % 3 == 0) }
                _ = m.handle(.page(offset: 0, ListPage(total: UInt32(entries.count), entries: entries)))
                let view = BrowseView(model: m, mode: .none, art: { _ in nil }, image: { _ in nil }, words: MockData.words(language),
                                      displayName: { BundledNames.entries[$0] == nil ? nil : Self.name($0, language) })
                let screen = view.render()
                let layout = m.layout
                // The selected tile's number and whole name, in the title bar where it fits.
                let title = screen.lines[0]
                if width >= 80 { XCTAssertTrue(title.contains(PokedexNumber.label(6) + " " + Self.name(6, language)), "\(width) \(language): \(title)") }
                for n in 0..<min(entries.count, layout.columns * layout.rows) {
                    let e = entries[n]
                    let x = layout.left + (n % layout.columns) * BrowseLayout.tileWidth
                    let y = BrowseLayout.gridTop + (n / layout.columns) * BrowseLayout.tileHeight
                    guard y + BrowseLayout.tileHeight <= height - 1 else { continue }
                    let (label, star) = BrowseView.label(number: PokedexNumber.label(e.id), name: Self.name(e.id, language),
                                                         species: Self.species(e.id, language), width: Self.width, favorite: e.favorite)
                    for (i, line) in label.lines.enumerated() {
                        let row = (x..<x + BrowseLayout.tileWidth - 1).map { screen[$0, y + 5 + i].text }.joined()
                        let room = TerminalText.width(line) + 2 <= Self.width
                        let want = (i == star && !room ? "★" : " ") + line + (i == star && room ? " ★" : "")
                        XCTAssertEqual(row.trimmingTrailingSpaces(), want, "\(width)×\(height) \(language) #\(e.id) row \(i)")
                    }
                }
            }
        }
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}
