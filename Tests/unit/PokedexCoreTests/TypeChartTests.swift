import Foundation
@testable import PokedexCore
import PokedexModels
import XCTest

/// The bundled chart against PokeAPI's own `damage_relations` (Fixtures/type-damage-relations.json,
/// tools/gen-type-table.py --fixture), every pair and every dual type, and the cards people know.
final class TypeChartTests: XCTestCase {
    /// Each type's `double_damage_from`, `half_damage_from` and `no_damage_from`, as PokeAPI gives them.
    static let relations: [String: [String: [String]]] = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/type-damage-relations.json").path
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        return (try? JSONDecoder().decode([String: [String: [String]]].self, from: data)) ?? [:]
    }()

    /// What PokeAPI says `attacker` does to `defender`.
    func apiFactor(_ attacker: String, _ defender: String) -> Double {
        let r = Self.relations[defender] ?? [:]
        if r["no_damage_from"]?.contains(attacker) == true { return 0 }
        if r["half_damage_from"]?.contains(attacker) == true { return 0.5 }
        if r["double_damage_from"]?.contains(attacker) == true { return 2 }
        return 1
    }

    func testEveryPairAsPokeAPISays() {
        XCTAssertEqual(Set(Self.relations.keys), Set(TypeChart.types))
        XCTAssertEqual(TypeChart.types.count, 18)
        for attacker in TypeChart.types {
            for defender in TypeChart.types {
                XCTAssertEqual(TypeChart.multiplier(attacker, against: [defender]), apiFactor(attacker, defender), "\(attacker) → \(defender)")
            }
        }
    }

    func testEveryDualTypeMultiplies() {
        for a in TypeChart.types {
            for d1 in TypeChart.types {
                for d2 in TypeChart.types where d2 != d1 {
                    XCTAssertEqual(TypeChart.multiplier(a, against: [d1, d2]), apiFactor(a, d1) * apiFactor(a, d2), "\(a) → \(d1)/\(d2)")
                }
            }
        }
        // A type twice counts once; one the chart does not know is neutral.
        XCTAssertEqual(TypeChart.multiplier("water", against: ["fire", "fire"]), 2)
        XCTAssertEqual(TypeChart.multiplier("water", against: ["fire", "stellar"]), 2)
        XCTAssertEqual(TypeChart.multiplier("shadow", against: ["fire"]), 1)
    }

    func matchups(_ types: [String], _ language: String = "en") -> [String: Double] {
        Dictionary(uniqueKeysWithValues: TypeChart.matchups(types, language: language).map { ($0.typeName, $0.multiplier) })
    }

    func testTheCardsPlayersKnow() {
        let charizard = matchups(["fire", "flying"])
        XCTAssertEqual(charizard["Rock"], 4)
        XCTAssertEqual(charizard["Water"], 2)
        XCTAssertEqual(charizard["Electric"], 2)
        XCTAssertEqual(charizard["Ground"], 0)
        XCTAssertEqual(charizard["Grass"], 0.25)
        XCTAssertEqual(charizard["Bug"], 0.25)
        XCTAssertNil(charizard["Normal"], "×1 is left out")
        let gengar = matchups(["ghost", "poison"])
        XCTAssertEqual(gengar["Normal"], 0)
        XCTAssertEqual(gengar["Fighting"], 0)
        // Alolan Raichu is Electric/Psychic.
        XCTAssertEqual(matchups(["electric", "psychic"]), ["Ground": 2, "Bug": 2, "Ghost": 2, "Dark": 2, "Fighting": 0.5,
                                                           "Flying": 0.5, "Steel": 0.5, "Electric": 0.5, "Psychic": 0.5])
        XCTAssertEqual(matchups(["fire", "flying"], "de")["Gestein"], 4)
        XCTAssertEqual(matchups(["fire", "flying"], "ja")["いわ"], 4)
        // Strongest first, then in the chart's order.
        XCTAssertEqual(TypeChart.matchups(["fire", "flying"], language: "en").map(\.type),
                       ["rock", "water", "electric", "fighting", "steel", "fire", "fairy", "ground", "bug", "grass"].sorted {
                           TypeChart.multiplier($0, against: ["fire", "flying"]) > TypeChart.multiplier($1, against: ["fire", "flying"])
                       }.stableByChart)
    }
}

private extension Array where Element == String {
    /// Grouped by multiplier as given, each group in the chart's order.
    var stableByChart: [String] {
        let m = { (t: String) in TypeChart.multiplier(t, against: ["fire", "flying"]) }
        return sorted { m($0) != m($1) ? m($0) > m($1) : TypeChart.types.firstIndex(of: $0)! < TypeChart.types.firstIndex(of: $1)! }
    }
}
