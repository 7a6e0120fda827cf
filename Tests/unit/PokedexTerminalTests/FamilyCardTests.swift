import Foundation
@testable import PokedexTerminal
import PokedexModels
import PokedexTestKit
import XCTest

/// The card's family and matchups for the Pokémon players ask about, from PokeAPI's real
/// families and chart, at 60, 80 and 120 columns, in English, German and Japanese (snapshots:
/// `UPDATE_SNAPSHOTS=1` accepts a new rendering; review `Snapshots/family-*.txt` in the commit).
final class FamilyCardTests: XCTestCase {
    func card(_ i: Int, language: String, width: Int) -> [String] {
        DetailCard(detail: Self.detail(i, language: language), image: nil, width: width, mode: .none, words: MockData.words(language)).render()
    }

    static var cards: [(UInt32, String, [String], UInt32, [String: String], [String])] { MockCards.cards }

    static func detail(_ i: Int, language: String) -> PokemonDetail { MockCards.detail(i, language: language) }

    /// Only the family and the matchups, as ``card(_:language:width:)`` draws them.
    func lowerPart(_ i: Int, language: String, width: Int) -> [String] {
        let lines = card(i, language: language, width: width)
        return Array(lines.drop { !$0.hasPrefix(MockData.words(language).tr("Evolution")) })
    }

    func testTheCardsAtThreeWidthsInThreeLanguages() throws {
        for language in ["en", "de", "ja"] {
            for width in [60, 80, 120] {
                var all: [String] = []
                for i in Self.cards.indices {
                    let lines = card(i, language: language, width: width)
                    assertFits(lines, width)
                    all += lines + [String(repeating: "─", count: width)]
                }
                try snapshot("family-\(language)-\(width)", all)
            }
        }
    }

    func testWhatPlayersLookFor() {
        let charizard = card(0, language: "en", width: 80).joined(separator: "\n")
        XCTAssertTrue(charizard.contains("Charmander → Charmeleon (Level 16) → Charizard (Level 36)"), charizard)
        XCTAssertTrue(charizard.contains("Weak to     ×4 [Rock] ×2 [Water] [Electric]"), charizard)
        XCTAssertTrue(charizard.contains("×¼ [Bug] [Grass]"), charizard)
        XCTAssertTrue(charizard.contains("Immune to   ×0 [Ground]"), charizard)
        XCTAssertFalse(charizard.contains("Abilities such as Levitate"), "its abilities change nothing: nothing to say")
        XCTAssertTrue(charizard.contains("#006"), charizard)
        // A form's number is its species': Alolan Raichu is #026; its line, with Kanto's.
        let alolan = card(2, language: "en", width: 80).joined(separator: "\n")
        XCTAssertTrue(alolan.contains("Alolan Raichu  #026"), alolan)
        XCTAssertTrue(alolan.contains("Alolan Raichu") && alolan.contains("Use a Thunder Stone, in Alola"), alolan)
        // Galarian Slowpoke's own family, in the games' words.
        let galar = card(5, language: "en", width: 80).joined(separator: "\n")
        XCTAssertTrue(galar.contains("Galarian Slowbro") && galar.contains("Use a Galarica Cuff"), galar)
        XCTAssertFalse(galar.contains("Level 37"), galar)
        // Wonder Guard: only super-effective hits land, and nothing is said to resist.
        let shedinja = card(6, language: "en", width: 80).joined(separator: "\n")
        XCTAssertTrue(shedinja.contains("Wonder Guard: only super-effective hits land"), shedinja)
        XCTAssertTrue(shedinja.contains("×2 [Flying] [Rock] [Ghost] [Fire] [Dark]"), shedinja)
        XCTAssertFalse(shedinja.contains("Resists") || shedinja.contains("Immune to"), shedinja)
        XCTAssertTrue(shedinja.contains("Appears when Nincada evolves at level 20"), shedinja)
        // Levitate and Heatproof, each with what it makes of the matchups.
        let bronzor = card(7, language: "en", width: 80).joined(separator: "\n")
        XCTAssertTrue(bronzor.contains("Levitate    ×0 [Ground]"), bronzor)
        XCTAssertTrue(bronzor.contains("Heatproof   ×1 [Fire]"), bronzor)
        let german = card(0, language: "de", width: 80).joined(separator: "\n")
        XCTAssertTrue(german.contains("Glumanda → Glutexo (Level 16) → Glurak (Level 36)"), german)
        XCTAssertTrue(german.contains("×4 [Gestein]"), german)
        let gengar = card(4, language: "en", width: 80).joined(separator: "\n")
        XCTAssertTrue(gengar.contains("×0 [Normal] [Fighting]"), gengar)
        let eevee = card(1, language: "en", width: 80)
        XCTAssertEqual(eevee.filter { $0.contains("├─") || $0.contains("└─") }.count, 8, eevee.joined(separator: "\n"))
        // Under 60 columns the conditions go first; the names stay.
        let narrow = card(1, language: "en", width: 59)
        XCTAssertFalse(narrow.joined().contains("Stone"), narrow.joined(separator: "\n"))
        XCTAssertEqual(narrow.filter { $0.contains("─ ") }.count, 8)
        let narrowCharizard = card(0, language: "en", width: 40)
        XCTAssertTrue(narrowCharizard.contains("  Charmander → Charmeleon → Charizard"), narrowCharizard.joined(separator: "\n"))
        for width in [20, 24, 30, 44] {
            for i in Self.cards.indices {
                for language in ["en", "de", "ja"] {
                    let part = lowerPart(i, language: language, width: width)
                    XCTAssertGreaterThan(part.count, 3)
                    assertFits(part, width)
                }
            }
        }
    }
}
