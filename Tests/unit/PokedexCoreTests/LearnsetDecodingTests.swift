import Foundation
import PokedexModels
import XCTest
@testable import PokedexCore

/// A `pokemon` body's `moves` as the card keeps them (issue 57): the four ways a game's list
/// shows, by version group, in one reading with the record; every other way stepped over, and
/// nothing from the body trusted.
final class LearnsetDecodingTests: XCTestCase {
    static func detail(_ group: String, _ method: String, level: Int = 0, order: String = "null") -> String {
        """
        {"level_learned_at": \(level), "move_learn_method": {"name": "\(method)", "url": "https://pokeapi.co/api/v2/move-learn-method/1/"},
         "order": \(order), "version_group": {"name": "\(group)", "url": "https://pokeapi.co/api/v2/version-group/25/"}}
        """
    }

    static func move(_ name: String, _ id: Int, _ details: [String]) -> String {
        #"{"version_group_details": [\#(details.joined(separator: ","))], "move": {"name": "\#(name)", "url": "https://pokeapi.co/api/v2/move/\#(id)/"}}"#
    }

    /// Pikachu's body as PokeAPI writes it, the moves before the rest.
    static func body(_ moves: [String]) -> [UInt8] {
        Array("""
        {"moves": [\(moves.joined(separator: ","))],
         "id": 25, "name": "pikachu", "height": 4, "weight": 60,
         "types": [{"slot": 1, "type": {"name": "electric", "url": "https://pokeapi.co/api/v2/type/13/"}}],
         "abilities": [{"ability": {"name": "static", "url": "https://pokeapi.co/api/v2/ability/9/"}, "is_hidden": false, "slot": 1}],
         "stats": [{"base_stat": 35, "effort": 0, "stat": {"name": "hp", "url": "https://pokeapi.co/api/v2/stat/1/"}}],
         "species": {"name": "pikachu", "url": "https://pokeapi.co/api/v2/pokemon-species/25/"}}
        """.utf8)
    }

    func testTheFourWaysByVersionGroupAndNothingElse() throws {
        let moves = [
            Self.move("thunderbolt", 85, [Self.detail("scarlet-violet", "level-up", level: 36), Self.detail("scarlet-violet", "machine"),
                                          Self.detail("sword-shield", "machine"), Self.detail("champions", "train")]),
            Self.move("nuzzle", 609, [Self.detail("scarlet-violet", "level-up", level: 1, order: "1")]),
            Self.move("growl", 45, [Self.detail("scarlet-violet", "level-up", level: 1, order: "9")]),
            Self.move("thunder-punch", 9, [Self.detail("scarlet-violet", "level-up", level: 0)]),
            Self.move("volt-tackle", 344, [Self.detail("scarlet-violet", "egg"), Self.detail("platinum", "light-ball-egg")]),
            Self.move("surf", 57, [Self.detail("lets-go-pikachu-lets-go-eevee", "tutor"), Self.detail("yellow", "stadium-surfing-pikachu")]),
            Self.move("nothing-kept", 999, [Self.detail("colosseum", "colosseum-purification")]),
        ]
        var notes: [String] = []
        let record = try APIDecoding.pokemon(Self.body(moves)) { notes.append($0) }
        let learnset = try XCTUnwrap(record.learnset)
        XCTAssertEqual(notes, [])
        XCTAssertEqual(Set(learnset.versionGroups.keys), ["scarlet-violet", "sword-shield", "lets-go-pikachu-lets-go-eevee"],
                       "no group whose entries are all of other ways (Champions' roster, Colosseum)")
        XCTAssertEqual(learnset.entries("scarlet-violet", .levelUp).map(\.move), [9, 609, 45, 85],
                       "by level (0 on evolution first), then the API's order at a level")
        XCTAssertEqual(learnset.entries("scarlet-violet", .levelUp).map(\.level), [0, 1, 1, 36])
        XCTAssertEqual(learnset.entries("scarlet-violet", .machine), [.init(move: 85, method: .machine)])
        XCTAssertEqual(learnset.entries("scarlet-violet", .egg), [.init(move: 344, method: .egg)])
        XCTAssertEqual(learnset.entries("lets-go-pikachu-lets-go-eevee", .tutor), [.init(move: 57, method: .tutor)])
        XCTAssertEqual(learnset.count, 8)
    }

    /// A body's ways and version groups recur a hundred times, and a reader steps over the
    /// bytes of one it read before (issue 58): one alike in its first bytes or all but its last
    /// is read as itself, in PokeAPI's compact JSON and in its pretty-printed dump alike.
    func testRecurringWaysAndGroupsAreReadAsThemselves() throws {
        let groups = ["legends-arceus", "legends-za", "x-y", "red-blue", "legends-arceus", "x-y", "legends-za"]
        let moves = (1...40).map { id in
            Self.move("move-\(id)", id, groups.indices.map { k in
                Self.detail(groups[(id + k) % groups.count], ["level-up", "machine", "egg", "tutor"][(id * k) % 4], level: k)
            })
        }
        let compact = try APIDecoding.pokemon(Self.body(moves))
        // The same body as a pretty printer writes it: each member on a line of its own.
        let text = String(decoding: Self.body(moves), as: UTF8.self)
        let pretty = text.replacingOccurrences(of: ", \"", with: ",\n                        \"")
            .replacingOccurrences(of: "{\"", with: "{\n                    \"")
        XCTAssertNotEqual(pretty, text)
        XCTAssertEqual(try APIDecoding.pokemon(Array(pretty.utf8)), compact)
        let learnset = try XCTUnwrap(compact.learnset)
        XCTAssertEqual(Set(learnset.versionGroups.keys), Set(groups))
        for (k, group) in groups.enumerated() {
            for method in Learnset.Method.allCases {
                let expected = (1...40).filter { id in
                    groups.indices.contains { j in groups[(id + j) % groups.count] == group && ["level-up", "machine", "egg", "tutor"][(id * j) % 4] == method.rawValue }
                }
                XCTAssertEqual(Set(learnset.entries(group, method).map { UInt32($0.move) }), Set(expected.map(UInt32.init)), "\(group) \(method) (\(k))")
            }
        }
        // A copy that differs in a byte of its url is read again, and refused where it is wrong.
        let bad = Self.move("bad", 41, [Self.detail("x-y", "machine").replacingOccurrences(of: "version-group/25/", with: "version-group/25/\u{01}")])
        XCTAssertThrowsError(try APIDecoding.pokemon(Self.body(moves + [bad])))
    }

    func testNothingFromTheBodyIsTrusted() throws {
        let moves = [
            Self.move("ok", 1, [Self.detail("scarlet-violet", "level-up", level: 5, order: "300")]),
            Self.move("too-high", 2, [Self.detail("scarlet-violet", "level-up", level: 101)]),
            Self.move("bad-group", 3, [Self.detail("Scarlet Violet; rm -rf", "machine")]),
            #"{"move": {"name": "no-url", "url": null}, "version_group_details": [\#(Self.detail("scarlet-violet", "egg"))]}"#,
            #"{"move": {"name": "zero", "url": "https://pokeapi.co/api/v2/move/0/"}, "version_group_details": [\#(Self.detail("scarlet-violet", "egg"))]}"#,
        ]
        var notes: [String] = []
        let record = try APIDecoding.pokemon(Self.body(moves)) { notes.append($0) }
        let learnset = try XCTUnwrap(record.learnset)
        var expected = Learnset.Group()
        expected.levelUp = [(1, 5)]
        XCTAssertEqual(learnset.versionGroups, ["scarlet-violet": expected],
                       "an order past 255 is none; the rest dropped")
        XCTAssertEqual(notes.count, 4, "\(notes)")
        XCTAssertTrue(notes.contains { $0.contains("level 101") }, "\(notes)")
        // A detail without its method or group is not PokeAPI's shape: the body is refused.
        let broken = Self.move("x", 1, [#"{"level_learned_at": 1, "version_group": {"name": "x-y", "url": null}}"#])
        XCTAssertThrowsError(try APIDecoding.pokemon(Self.body([broken])))
        // The cap: a body with more entries than any Pokémon keeps the first 8,192.
        let many = (1...9000).map { Self.move("m\($0)", $0, [Self.detail("scarlet-violet", "machine")]) }
        notes = []
        let cappedRecord = try APIDecoding.pokemon(Self.body(many)) { notes.append($0) }
        let capped = try XCTUnwrap(cappedRecord.learnset)
        XCTAssertEqual(capped.count, APIDecoding.maxLearnsetEntries)
        XCTAssertEqual(notes, ["dropped 808 moves of pikachu: over the cap of 8192"], "said with the name, which comes after the moves")
    }

    /// Where PokeAPI's dump is unpacked on this machine (`../shared/pokeapi`'s serve.py keeps it
    /// in ~/.cache/pokeapi-emulator), or POKEAPI_DUMP: every body decoded, its kept entries
    /// counted as Foundation's parser counts them. Skipped where there is none (CI).
    func testEveryPokemonOfPokeAPIsDumpWhenThere() throws {
        let fm = FileManager.default
        let root = ProcessInfo.processInfo.environment["POKEAPI_DUMP"] ?? {
            let cache = fm.homeDirectoryForCurrentUser.appendingPathComponent(".cache/pokeapi-emulator").path
            let unpacked = (try? fm.contentsOfDirectory(atPath: cache))?.sorted().first
            return unpacked.map { cache + "/" + $0 + "/data/api/v2/pokemon" } ?? ""
        }()
        guard let ids = try? fm.contentsOfDirectory(atPath: root), !ids.isEmpty else {
            throw XCTSkip("no PokeAPI dump here (POKEAPI_DUMP, or ../shared/pokeapi's serve.py run once)")
        }
        let kept: Set<String> = ["level-up", "machine", "egg", "tutor"]
        var bodies = 0, entries = 0
        for id in ids where UInt32(id) != nil {
            guard let data = fm.contents(atPath: root + "/" + id + "/index.json") else { continue }
            var notes: [String] = []
            let record = try APIDecoding.pokemon(Array(data)) { notes.append($0) }
            let learnset = try XCTUnwrap(record.learnset)
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
            let expected = (json["moves"] as? [[String: Any]] ?? []).reduce(0) { sum, move in
                sum + (move["version_group_details"] as? [[String: Any]] ?? []).filter { d in
                    kept.contains(((d["move_learn_method"] as? [String: Any])?["name"] as? String) ?? "")
                }.count
            }
            XCTAssertEqual(learnset.count, expected, "pokemon \(id)")
            XCTAssertEqual(notes, [], "pokemon \(id)")
            bodies += 1
            entries += learnset.count
        }
        print("LearnsetDecodingTests: \(bodies) pokemon bodies, \(entries) entries kept")
    }
}
