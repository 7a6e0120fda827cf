import PokedexModels
import PokedexTestKit
@testable import PokedexTerminal
import XCTest

/// browse's card at every size from 40×12: a page that scrolls, every line of it reachable by
/// the keys the status line names, none cut (issue 56: Eevee's card at 80×24 ended at
/// "Evolution", with no key to go further).
final class CardPagesTests: XCTestCase {
    static let sizes = [(40, 12), (80, 24), (200, 60)]
    static let languages = ["en", "de", "ja"]

    /// A card of `MockCards.cards` with a genus and a flavour text as long as the games'.
    static func detail(_ i: Int, language: String) -> PokemonDetail {
        var d = MockCards.detail(i, language: language)
        let full = MockCards.full(i, language: language)
        d.genus = full.genus
        d.flavorText = full.flavorText
        d.abilityEffects = MockCards.effects(d.abilities, language: language)
        d.training = MockCards.training(d.abilities, language: language)
        return d
    }

    /// A model on the card of `d` in a `width × height` window, measured as the driver does.
    static func model(_ d: PokemonDetail, width: Int, height: Int) -> BrowseModel {
        var m = BrowseModel(open: d.name, sound: false)
        _ = m.handle(.resized(width: width, height: height))
        _ = m.start()
        _ = m.handle(.detail(d))
        if let i = MockCards.cards.firstIndex(where: { $0.0 == d.id }) { _ = m.handle(.moves(MockCards.moves(i, language: d.language))) }
        return m
    }

    static func view(_ m: inout BrowseModel, _ language: String) -> BrowseView {
        BrowseView.settle(&m) { BrowseView(model: $0, mode: .none, art: { _ in nil }, image: { _ in nil }, words: MockData.words(language)) }
    }

    /// The card's lines as the window shows them, from the top of the card.
    static func shown(_ s: Screen) -> [String] {
        s.lines.dropFirst(BrowseView.cardTop).dropLast().map { line in
            var l = String(line.dropFirst().dropLast())  // the margin and the scroll bar's column
            while l.hasSuffix(" ") { l.removeLast() }
            return l
        }
    }

    func testEveryLineOfEveryCardIsReachableWithTheKeysAndNoneIsCut() {
        for (width, height) in Self.sizes {
            for language in Self.languages {
                for i in FamilyCardTests.cards.indices {
                    let d = Self.detail(i, language: language)
                    // As browse draws it: the card's own member picked in its family.
                    let picked = d.evolution.count > 1 ? d.ownFamilyIndex ?? 0 : nil
                    let card = DetailCard(detail: d, image: nil, width: width - 2, mode: .none, words: MockData.words(language),
                                          selectedMember: picked, moves: MockCards.moves(i, language: language)).laidOut()
                    let name = "\(d.name) \(language) \(width)×\(height)"
                    for line in card.lines {
                        XCTAssertLessThanOrEqual(TerminalText.width(line), width - 2, "\(name): too wide: \(line)")
                        XCTAssertFalse(line.contains("…"), "\(name): cut: \(line)")
                    }
                    for key in [Key.down, .pageDown, .char("j"), .char(" ")] {
                        var m = Self.model(d, width: width, height: height)
                        var seen = Set<Int>()
                        // The window as drawn, its rows the card's lines from the scroll on.
                        func look() {
                            let rows = Self.shown(Self.view(&m, language).render())
                            for (n, row) in rows.enumerated() where m.cardScroll + n < card.lines.count {
                                XCTAssertEqual(row, card.lines[m.cardScroll + n], "\(name) at \(m.cardScroll)")
                                seen.insert(m.cardScroll + n)
                            }
                        }
                        // Pressed until the card stops moving: every line was on screen once. A key
                        // that moves a line at a time is looked at once a window (a 180-line card
                        // drawn after each of 180 presses made this test 100 s of the unit tier).
                        _ = Self.view(&m, language)  // the model told what the card measures
                        let fits = m.cardExtent?.fits ?? 1
                        let oneLine = key == .down || key == .char("j")
                        var looked: Int?
                        for _ in 0..<400 {
                            if !oneLine || looked.map({ m.cardScroll - $0 >= fits - 1 || m.cardScroll < $0 }) ?? true {
                                look()
                                looked = m.cardScroll
                            }
                            let before = m.cardScroll
                            _ = m.handle(.input(.key(key)))
                            if m.cardScroll == before { break }
                            if oneLine { XCTAssertEqual(m.cardScroll - before, 1, "\(name): \(key) moves a line") }
                        }
                        look()
                        XCTAssertEqual(seen.count, card.lines.count, "\(name): \(key) reaches \(seen.count) of \(card.lines.count) lines")
                    }
                }
            }
        }
    }

    func testEndHomeAndTabGoWhereTheySay() {
        let d = Self.detail(1, language: "en")  // Eevee: the tallest family
        var m = Self.model(d, width: 80, height: 24)
        _ = Self.view(&m, "en")
        let extent = try! XCTUnwrap(m.cardExtent)
        XCTAssertGreaterThan(extent.maxScroll, 0, "Eevee's card is taller than 80×24")
        let status = Self.view(&m, "en").render().lines.last ?? ""
        XCTAssertTrue(status.contains("↑↓ scroll"), status)
        XCTAssertTrue(status.contains("? keys"), status)
        _ = m.handle(.input(.key(.end)))
        var screen = Self.view(&m, "en").render()
        XCTAssertEqual(m.cardScroll, extent.maxScroll)
        XCTAssertTrue(screen.lines.joined().contains("From tutors"), "the moves are the last part: " + screen.lines.joined(separator: "\n"))
        _ = m.handle(.input(.key(.down)))
        XCTAssertEqual(m.cardScroll, extent.maxScroll, "not past the end")
        _ = m.handle(.input(.key(.home)))
        XCTAssertEqual(m.cardScroll, 0)
        // Tab: to each part's first line in turn, then Shift-Tab back.
        var starts: [Int] = []
        for _ in extent.sections {
            _ = m.handle(.input(.key(.tab)))
            _ = Self.view(&m, "en")
            starts.append(m.cardScroll)
        }
        XCTAssertEqual(starts, extent.sections.dropFirst().map { min($0, extent.maxScroll) } + [extent.maxScroll])
        _ = m.handle(.input(.key(.backTab)))
        XCTAssertLessThan(m.cardScroll, extent.maxScroll)
        // The keys' help over the card, and back to the card where it was.
        let at = m.cardScroll
        _ = m.handle(.input(.key(.char("?"))))
        screen = Self.view(&m, "en").render()
        XCTAssertTrue(screen.lines.joined().contains("scroll it"), screen.lines.joined(separator: "\n"))
        _ = m.handle(.input(.key(.char("x"))))
        XCTAssertEqual(m.mode, .detail)
        XCTAssertEqual(m.cardScroll, at)
        // A window made taller keeps the scroll within the card.
        _ = m.handle(.resized(width: 200, height: 60))
        _ = Self.view(&m, "en")
        XCTAssertEqual(m.cardScroll, m.cardExtent?.maxScroll)
    }

    func testPickingAFamilyMemberScrollsToIt() {
        let d = Self.detail(1, language: "en")
        var m = Self.model(d, width: 80, height: 16)
        _ = Self.view(&m, "en")
        for _ in 0..<8 {
            _ = m.handle(.input(.key(.right)))
            _ = Self.view(&m, "en")
            let line = try! XCTUnwrap(m.cardExtent?.selectedLine)
            XCTAssertTrue((m.cardScroll..<(m.cardScroll + m.cardExtent!.fits)).contains(line), "member on line \(line), window from \(m.cardScroll)")
        }
    }

    func testTheWheelScrollsAndSInTheGridSaysWhatItDid() {
        var m = Self.model(Self.detail(1, language: "en"), width: 80, height: 24)
        _ = Self.view(&m, "en")
        _ = m.handle(.input(.mouse(MouseEvent(.wheelDown, x: 5, y: 5))))
        XCTAssertEqual(m.cardScroll, BrowseModel.wheelLines)
        _ = m.handle(.input(.key(.escape)))
        XCTAssertEqual(m.mode, .grid)
        _ = m.handle(.input(.key(.char("s"))))
        let status = Self.view(&m, "en").render().lines.last ?? ""
        XCTAssertTrue(status.contains("cries on"), status)
        _ = m.handle(.input(.key(.char("s"))))
        XCTAssertTrue((Self.view(&m, "en").render().lines.last ?? "").contains("cries off"))
    }
}
