import Foundation
@testable import PokedexTerminal
import PokedexModels
import PokedexTestKit
import XCTest

/// The card's family and matchups for the Pokémon players ask about, from PokeAPI's real
/// families and chart, at 60, 80 and 120 columns, in English, German and Japanese (snapshots:
/// `UPDATE_SNAPSHOTS=1` accepts a new rendering; review `Snapshots/family-*.txt` in the commit).
final class FamilyCardTests: XCTestCase {
    /// (id, identifier, types, chain, display names by language).
    static let cards: [(UInt32, String, [String], UInt32, [String: String])] = [
        (6, "charizard", ["fire", "flying"], 2, ["en": "Charizard", "de": "Glurak", "ja": "リザードン"]),
        (133, "eevee", ["normal"], 67, ["en": "Eevee", "de": "Evoli", "ja": "イーブイ"]),
        (10100, "raichu-alola", ["electric", "psychic"], 10, ["en": "Alolan Raichu", "de": "Alola-Raichu", "ja": "ライチュウ (アローラのすがた)"]),
        (236, "tyrogue", ["fighting"], 47, ["en": "Tyrogue", "de": "Rabauz", "ja": "バルキー"]),
        (94, "gengar", ["ghost", "poison"], 40, ["en": "Gengar", "de": "Gengar", "ja": "ゲンガー"]),
    ]

    func card(_ i: Int, language: String, width: Int) -> [String] {
        let (id, name, types, chain, names) = Self.cards[i]
        let words = MockData.words(language)
        var d = PokemonDetail(id: id, name: name, height: 10, weight: 100, types: types, abilities: [],
                              stats: [.init(name: "hp", value: 60), .init(name: "speed", value: 90)], spritePath: "",
                              favorite: false, genus: "", flavorText: "")
        d.displayName = names[language] ?? name
        d.language = language
        d.typeNames = types.map { MockData.typeName($0, language: language) }
        d.statNames = language == "de" ? ["KP", "Initiative"] : language == "ja" ? ["HP", "すばやさ"] : ["HP", "Speed"]
        d.evolution = MockData.family(chain, language: language, words: words)
        d.matchups = MockData.matchups(types, language: language)
        return DetailCard(detail: d, image: nil, width: width, mode: .none, words: words).render()
    }

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
        XCTAssertTrue(charizard.contains("Abilities such as Levitate are not counted."))
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
