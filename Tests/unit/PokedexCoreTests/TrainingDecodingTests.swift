import Foundation
import PokedexModels
import XCTest
@testable import PokedexCore

/// What the card's abilities, breeding and training lines read from the `pokemon` and
/// `pokemon-species` bodies (issue 57): the hidden ability, the EV yield, the held items, the
/// egg groups, gender, egg cycles, catch rate, friendship and growth rate; nothing trusted.
final class TrainingDecodingTests: XCTestCase {
    static let eevee = Array(#"""
    {"abilities": [{"ability": {"name": "anticipation", "url": ""}, "is_hidden": true, "slot": 3},
                   {"ability": {"name": "run-away", "url": ""}, "is_hidden": false, "slot": 1},
                   {"ability": {"name": "adaptability", "url": ""}, "is_hidden": false, "slot": 2}],
     "held_items": [{"item": {"name": "oran-berry", "url": ""}, "version_details": [{"rarity": 5, "version": {"name": "x", "url": ""}},
                                                                                   {"rarity": 50, "version": {"name": "ultra-sun", "url": ""}}]}],
     "id": 133, "name": "eevee", "moves": [], "types": [{"slot": 1, "type": {"name": "normal", "url": ""}}],
     "stats": [{"base_stat": 55, "effort": 0, "stat": {"name": "hp", "url": ""}},
               {"base_stat": 65, "effort": 1, "stat": {"name": "special-defense", "url": ""}}]}
    """#.utf8)

    func testAbilitiesInSlotOrderWithTheHiddenOneMarked() throws {
        let r = try APIDecoding.pokemon(Self.eevee)
        XCTAssertEqual(r.abilities, ["run-away", "adaptability", "anticipation"])
        XCTAssertEqual(r.hiddenAbilities, [false, false, true])
        XCTAssertEqual(r.effortYield, [.init(name: "special-defense", value: 1)])
        XCTAssertEqual(r.heldItems, [.init(item: "oran-berry", version: "x", rarity: 5), .init(item: "oran-berry", version: "ultra-sun", rarity: 50)])
        XCTAssertEqual(r.learnset, Learnset(), "no moves: an empty learnset, not an outdated record")
        XCTAssertFalse(ResourceKind.pokemon.isOutdated(r))
        XCTAssertTrue(ResourceKind.pokemon.isWellFormed(r))
    }

    func testARecordKeptBeforeIsOutdatedAndFetchedAgain() throws {
        var r = try APIDecoding.pokemon(Self.eevee)
        r.learnset = nil
        r.hiddenAbilities = nil
        let old = try JSONDecoder().decode(PokemonRecord.self, from: Data(RecordJSON.encode(r)))
        XCTAssertTrue(ResourceKind.pokemon.isOutdated(old))
    }

    func testNothingInTheTrainingFieldsIsTrusted() throws {
        var notes: [String] = []
        let body = Array(#"""
        {"id": 1, "name": "x", "types": [], "abilities": [], "stats": [{"base_stat": 1, "effort": 9, "stat": {"name": "hp", "url": ""}}],
         "held_items": [{"item": {"name": "<script>", "url": ""}, "version_details": [{"rarity": 5, "version": {"name": "x", "url": ""}}]},
                        {"item": {"name": "potion", "url": ""}, "version_details": [{"rarity": 0, "version": {"name": "x", "url": ""}},
                                                                                    {"rarity": 101, "version": {"name": "y", "url": ""}}]}]}
        """#.utf8)
        let r = try APIDecoding.pokemon(body) { notes.append($0) }
        XCTAssertEqual(r.effortYield, [.init(name: "hp", value: 3)], "an effort over 3 is the games' most")
        XCTAssertEqual(r.heldItems, [])
        XCTAssertEqual(notes.count, 3, "\(notes)")
        // A record on disk someone wrote by hand: hidden flags that do not match, a level over 100.
        var bad = try APIDecoding.pokemon(Self.eevee)
        bad.hiddenAbilities = [true]
        XCTAssertFalse(ResourceKind.pokemon.isWellFormed(bad))
        bad = try APIDecoding.pokemon(Self.eevee)
        var g = Learnset.Group()
        g.levelUp = [(1, 200)]
        bad.learnset = Learnset(versionGroups: ["x-y": g])
        XCTAssertFalse(ResourceKind.pokemon.isWellFormed(bad))
    }

    func testASpeciesBreedingAndTraining() throws {
        let body = Array(#"""
        {"id": 133, "name": "eevee", "egg_groups": [{"name": "ground", "url": ""}], "gender_rate": 1, "hatch_counter": 35,
         "capture_rate": 45, "base_happiness": 50, "growth_rate": {"name": "medium", "url": ""}}
        """#.utf8)
        let s = try APIDecoding.species(body)
        XCTAssertEqual(s.breeding, .init(eggGroups: ["ground"], genderRate: 1, hatchCounter: 35, captureRate: 45, baseHappiness: 50,
                                         growthRate: "medium"))
        var notes: [String] = []
        let wild = Array(#"""
        {"id": 1, "name": "x", "egg_groups": [{"name": "Bad Group", "url": ""}], "gender_rate": 9, "hatch_counter": -1,
         "capture_rate": 300, "base_happiness": null, "growth_rate": null}
        """#.utf8)
        let w = try APIDecoding.species(wild) { notes.append($0) }
        XCTAssertEqual(w.breeding, .init(eggGroups: [], genderRate: nil, hatchCounter: nil, captureRate: nil, baseHappiness: nil, growthRate: nil))
        XCTAssertEqual(notes.count, 4, "\(notes)")
        let genderless = try APIDecoding.species(Array(#"{"id": 81, "name": "magnemite", "gender_rate": -1}"#.utf8))
        XCTAssertEqual(genderless.breeding?.genderRate, -1)
    }
}
