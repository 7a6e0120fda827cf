import Foundation
import PokedexModels
import XCTest
@testable import PokedexCore

/// The `move` and `ability` bodies the card's new sections read (issue 57): the current values,
/// each language's newest text, nothing from the body trusted; and every one of PokeAPI's dump
/// where it is on this machine.
final class MoveAbilityDecodingTests: XCTestCase {
    static let thunderbolt = Array(#"""
    {"accuracy": 100, "damage_class": {"name": "special", "url": "https://pokeapi.co/api/v2/move-damage-class/3/"},
     "flavor_text_entries": [
       {"flavor_text": "An old\ntext.", "language": {"name": "en", "url": ""}, "version_group": {"name": "gold-silver", "url": ""}},
       {"flavor_text": "Greift mit\nStromstoß an.", "language": {"name": "de", "url": ""}, "version_group": {"name": "sword-shield", "url": ""}},
       {"flavor_text": "A strong electric blast\ncrashes down on the target.", "language": {"name": "en", "url": ""}, "version_group": {"name": "scarlet-violet", "url": ""}}],
     "id": 85, "learned_by_pokemon": [{"name": "pikachu", "url": ""}], "name": "thunderbolt",
     "names": [{"language": {"name": "ja", "url": ""}, "name": "10まんボルト"}, {"language": {"name": "de", "url": ""}, "name": "Donnerblitz"},
               {"language": {"name": "en", "url": ""}, "name": "Thunderbolt"}, {"language": {"name": "xx-klingon", "url": ""}, "name": "?"}],
     "past_values": [{"power": 95, "version_group": {"name": "x-y", "url": ""}}],
     "power": 90, "pp": 15, "type": {"name": "electric", "url": "https://pokeapi.co/api/v2/type/13/"}}
    """#.utf8)

    func testAMoveHasItsCurrentValues() throws {
        var notes: [String] = []
        let m = try APIDecoding.move(Self.thunderbolt) { notes.append($0) }
        var expected = MoveRecord(id: 85, name: "thunderbolt", names: ["en": "Thunderbolt", "de": "Donnerblitz", "ja": "10まんボルト"],
                                  type: "electric", damageClass: "special", power: 90, accuracy: 100, pp: 15)
        expected.pastValues = [.init(versionGroup: "x-y", power: 95)]
        XCTAssertEqual(m, expected, "past_values are older: 90, not 95")
        XCTAssertEqual(m.asIn("black-white").power, 95, "before X and Y it had 95")
        XCTAssertEqual(m.asIn("x-y").power, 90)
        XCTAssertEqual(m.asIn("scarlet-violet"), m)
        let firePunch = MoveRecord(id: 7, name: "fire-punch", names: [:], type: "fire", damageClass: "physical", power: 75, accuracy: 100, pp: 15)
        XCTAssertEqual(firePunch.asIn("red-blue").damageClass, "special", "before Diamond and Pearl the type decided")
        XCTAssertEqual(firePunch.asIn("diamond-pearl").damageClass, "physical")
        XCTAssertEqual(notes, [])
        let status = Array(#"{"id": 45, "name": "growl", "type": {"name": "normal", "url": ""}, "damage_class": {"name": "status", "url": ""}, "power": null, "accuracy": 100, "pp": 40}"#.utf8)
        XCTAssertEqual(try APIDecoding.move(status).power, nil, "a status move's power is the games' —")
    }

    func testNothingInAMoveOrAbilityBodyIsTrusted() throws {
        var notes: [String] = []
        let wild = Array(#"{"id": 1, "name": "pound", "type": {"name": "normal", "url": ""}, "damage_class": {"name": "<b>", "url": ""}, "power": 99999, "accuracy": 250, "pp": 255}"#.utf8)
        let m = try APIDecoding.move(wild) { notes.append($0) }
        XCTAssertEqual([m.power, m.accuracy.map(UInt16.init), m.pp.map(UInt16.init)], [nil, nil, nil])
        XCTAssertEqual(m.damageClass, "")
        XCTAssertEqual(notes.count, 4, "\(notes)")
        for bad in [#"{"id": 1, "name": "pound"}"#, #"{"id": 1, "name": "Pound!", "type": {"name": "normal", "url": ""}}"#,
                    #"{"name": "pound", "type": {"name": "normal", "url": ""}}"#, #"[]"#] {
            XCTAssertThrowsError(try APIDecoding.move(Array(bad.utf8)), bad)
        }
        let long = String(repeating: "x", count: APIDecoding.maxDescriptionBytes + 1)
        notes = []
        let a = try APIDecoding.ability(Array(#"{"name": "static", "effect_entries": [{"effect": "…", "short_effect": "\#(long)", "language": {"name": "en", "url": ""}}]}"#.utf8)) { notes.append($0) }
        XCTAssertEqual(a.effects, [:])
        XCTAssertEqual(notes.count, 1)
    }

    func testAnAbilitysEffectInTheReadersLanguage() throws {
        let body = Array(#"""
        {"name": "static", "names": [{"name": "Statik", "language": {"name": "de", "url": ""}}, {"name": "せいでんき", "language": {"name": "ja", "url": ""}}],
         "effect_entries": [{"effect": "Whenever a move makes contact…", "short_effect": "Has a 30% chance of paralyzing attacking Pokémon on contact.", "language": {"name": "en", "url": ""}}],
         "flavor_text_entries": [{"flavor_text": "せっしょくした　あいてを\nまひさせる　ことがある。", "language": {"name": "ja", "url": ""}, "version_group": {"name": "sword-shield", "url": ""}}]}
        """#.utf8)
        let a = try APIDecoding.ability(body)
        XCTAssertEqual(a.effect(in: "en"), "Has a 30% chance of paralyzing attacking Pokémon on contact.")
        XCTAssertEqual(a.effect(in: "ja"), "せっしょくした　あいてを　まひさせる　ことがある。",
                       "no Japanese short effect: the games' own text, its line break a space as the games' text boxes show it")
        XCTAssertEqual(a.effect(in: "de"), a.effect(in: "en"), "neither in German: English")
        XCTAssertEqual(a.names["ja"], "せいでんき")
    }

    /// Every move and ability of PokeAPI's dump (../shared/pokeapi's, unpacked by its serve.py,
    /// or POKEAPI_DUMP's `pokemon` folder's siblings) decodes, with nothing dropped but what the
    /// body lacks. Skipped where there is none (CI).
    func testEveryMoveAndAbilityOfPokeAPIsDumpWhenThere() throws {
        let fm = FileManager.default
        let root = ProcessInfo.processInfo.environment["POKEAPI_DUMP"].map { ($0 as NSString).deletingLastPathComponent } ?? {
            let cache = fm.homeDirectoryForCurrentUser.appendingPathComponent(".cache/pokeapi-emulator").path
            return ((try? fm.contentsOfDirectory(atPath: cache))?.sorted().first).map { cache + "/" + $0 + "/data/api/v2" } ?? ""
        }()
        guard let moves = try? fm.contentsOfDirectory(atPath: root + "/move"), !moves.isEmpty else {
            throw XCTSkip("no PokeAPI dump here (POKEAPI_DUMP, or ../shared/pokeapi's serve.py run once)")
        }
        var counts: [String: Int] = [:]
        for (kind, ids) in [("move", moves), ("ability", (try? fm.contentsOfDirectory(atPath: root + "/ability")) ?? [])] {
            for id in ids where UInt32(id) != nil {
                guard let data = fm.contents(atPath: "\(root)/\(kind)/\(id)/index.json") else { continue }
                var notes: [String] = []
                if kind == "move" {
                    let m = try APIDecoding.move(Array(data)) { notes.append($0) }
                    XCTAssertEqual(m.id, UInt32(id))
                    if m.id < 10000 { XCTAssertNotNil(m.pp, "move \(id)"); XCTAssertFalse(m.names.isEmpty, "move \(id)") }
                } else {
                    let a = try APIDecoding.ability(Array(data)) { notes.append($0) }
                    if UInt32(id)! < 10000 { XCTAssertFalse(a.effect(in: "en").isEmpty, "ability \(id)") }
                }
                XCTAssertEqual(notes, [], "\(kind) \(id)")
                counts[kind, default: 0] += 1
            }
        }
        print("MoveAbilityDecodingTests: \(counts)")
    }
}
