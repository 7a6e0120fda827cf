import Foundation
@testable import PokedexCore
import PokedexModels
import PokedexTestKit
import XCTest

/// Every family of PokeAPI's data (the mock's `evolution-chains.json`), read as the API sends it
/// and put in words: every trigger kind, Eevee's eight branches, Wurmple's chance, Tyrogue's
/// stats, the newest games' conditions.
final class EvolutionTests: XCTestCase {
    static var bodies: [UInt32: [UInt8]] { MockData.chainBodies }

    func chain(_ id: UInt32) throws -> EvolutionChainRecord {
        let body = try XCTUnwrap(Self.bodies[id], "no chain \(id) in Tests/mockapi/evolution-chains.json")
        return try APIDecoding.evolutionChain(body)
    }

    func words(_ id: UInt32) throws -> [String: String] {
        let members = Evolutions.members(try chain(id), language: "en", words: .english, species: nil)
        return Dictionary(uniqueKeysWithValues: members.map { ($0.name, $0.trigger) })
    }

    func testEveryFamilyReadsWholeWithEveryStepInWords() throws {
        XCTAssertEqual(Self.bodies.count, 541, "PokeAPI has 541 families")
        var triggers = Set<String>()
        for id in Self.bodies.keys.sorted() {
            let c = try chain(id)
            XCTAssertEqual(c.id, id)
            XCTAssertFalse(c.members.isEmpty, "chain \(id)")
            XCTAssertEqual(c.members.first?.from, 0, "chain \(id): the first member first")
            var seen = Set<UInt32>()
            for m in c.members {
                if m.from != 0 { XCTAssertTrue(seen.contains(m.from), "chain \(id): \(m.name) after the one it evolves from") }
                seen.insert(m.speciesID)
                // Every member but the first has its conditions, but Manaphy, for which PokeAPI lists none.
                XCTAssertEqual(m.conditions.isEmpty, m.from == 0 || m.name == "manaphy", "chain \(id): \(m.name) has conditions unless first")
                for cond in m.conditions {
                    triggers.insert(cond.trigger)
                    let text = EvolutionWords.describe(cond, .english)
                    XCTAssertFalse(text.isEmpty)
                    if cond.trigger != "other" {
                        XCTAssertFalse(text.contains("Special condition"), "\(m.name): \(cond.trigger) has words of its own")
                    }
                }
            }
            // As the table the service bundles says: the same species in the same family.
            XCTAssertEqual(Set(c.members.map(\.speciesID)), Set(BundledNames.families[UInt16(id)] ?? []), "chain \(id)")
        }
        XCTAssertTrue(triggers.isSuperset(of: ["level-up", "use-item", "trade", "use-move", "shed", "spin", "other"]), "\(triggers)")
    }

    /// Every trigger PokeAPI has, in any game (not only the newest each member keeps), has words.
    func testEveryTriggerPokeAPIHasHasItsOwnWords() {
        for trigger in ["level-up", "use-item", "trade", "use-move", "strong-style-move", "three-critical-hits", "three-defeated-bisharp",
                        "gimmighoul-coins", "shed", "agile-style-move", "tower-of-darkness", "tower-of-waters", "take-damage", "spin",
                        "recoil-damage"] {
            let text = EvolutionWords.describe(EvolutionCondition(trigger: trigger), .english)
            XCTAssertFalse(text.isEmpty || text.contains("Special"), "\(trigger): \(text)")
        }
        XCTAssertEqual(EvolutionWords.describe(EvolutionCondition(trigger: "a-trigger-of-2030"), .english), "Special condition")
        var tower = EvolutionCondition(trigger: "tower-of-waters")
        XCTAssertEqual(EvolutionWords.describe([EvolutionCondition(trigger: "tower-of-darkness"), tower], .english),
                       "Train in the Tower of Darkness or Train in the Tower of Waters")
        tower.byChance = true
        XCTAssertEqual(EvolutionWords.describe(tower, .english), "Train in the Tower of Waters, by chance (personality)")
    }

    func testTheFamiliesPlayersAskAbout() throws {
        let charmander = try chain(2)
        XCTAssertEqual(charmander.members.map(\.name), ["charmander", "charmeleon", "charizard"])
        XCTAssertEqual(try words(2), ["charmander": "", "charmeleon": "Level 16", "charizard": "Level 36"])
        XCTAssertEqual(try words(67), [
            "eevee": "", "vaporeon": "Use a Water Stone", "jolteon": "Use a Thunder Stone", "flareon": "Use a Fire Stone",
            "espeon": "High friendship, daytime", "umbreon": "High friendship, at night",
            // The newest games' way, not the mossy rock of older ones.
            "leafeon": "Use a Leaf Stone", "glaceon": "Use an Ice Stone", "sylveon": "High friendship, knowing a Fairy move",
        ])
        XCTAssertEqual(try chain(67).members.filter { $0.from == 133 }.count, 8)
        XCTAssertEqual(try words(47), ["tyrogue": "", "hitmonlee": "Level 20, Attack > Defense",
                                       "hitmonchan": "Level 20, Attack < Defense", "hitmontop": "Level 20, Attack = Defense"])
        XCTAssertEqual(try words(135), ["wurmple": "", "silcoon": "Level 7, by chance (personality)",
                                        "cascoon": "Level 7, by chance (personality)", "beautifly": "Level 10", "dustox": "Level 10"])
        XCTAssertEqual(try words(40)["gengar"], "Trade")
        // Alolan Raichu's own way ("in Alola") is not Raichu's.
        XCTAssertEqual(try words(10), ["pichu": "", "pikachu": "High friendship", "raichu": "Use a Thunder Stone"])
    }

    func testEveryKindOfConditionHasItsWords() throws {
        let all = try Self.bodies.keys.sorted().flatMap { id in
            Evolutions.members(try chain(id), language: "en", words: .english, species: nil).map { ($0.name, $0.trigger) }
        }
        let by = Dictionary(all, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(by["steelix"], "Trade holding Metal Coat")
        XCTAssertEqual(by["escavalier"], "Trade for Shelmet")
        XCTAssertEqual(by["mantine"], "With Remoraid in the party")
        XCTAssertEqual(by["pangoro"], "Level 32, with a Dark-type Pokémon in the party")
        XCTAssertEqual(by["goodra"], "Level 50, in the rain")
        XCTAssertEqual(by["malamar"], "Level 30, console held upside down")
        XCTAssertEqual(by["shedinja"], "Appears on evolving, with an empty party slot and a spare Poké Ball")
        // The newest games' way: a scroll, not the towers of The Isle of Armor.
        XCTAssertEqual(by["urshifu"], "Use a Scroll of Darkness or Use a Scroll of Waters")
        XCTAssertEqual(by["annihilape"], "Use Rage Fist 20 times")
        XCTAssertEqual(by["sirfetchd"], "Land three critical hits in one battle")
        XCTAssertEqual(by["runerigus"], "Take 49 damage, then pass under a stone arch")
        XCTAssertEqual(by["basculegion"], "Lose 294 HP to recoil")
        XCTAssertEqual(by["alcremie"], "Spin around holding a Sweet")
        XCTAssertEqual(by["kingambit"], "Defeat three Bisharp that lead a pack")
        XCTAssertEqual(by["gholdengo"], "Collect 999 Gimmighoul Coins")
        XCTAssertEqual(by["pawmot"], "After 1000 steps with Let's Go")
        XCTAssertEqual(by["palafin"], "Level 38, in a Union Circle")
        XCTAssertEqual(by["maushold"], "Level 25, special condition")
        XCTAssertEqual(by["froslass"], "Use a Dawn Stone, female")
        XCTAssertEqual(by["wyrdeer"].map { $0.hasPrefix("Use Psyshield Bash") }, true, by["wyrdeer"] ?? "none")
    }

    func testNamesInTheCallersLanguage() throws {
        let german = Words { ["Level %s": "Level %s", "Use a %s": "%s verwenden"][$0] ?? $0 }
        let members = Evolutions.members(try chain(2), language: "de", words: german, species: nil)
        XCTAssertEqual(members.map(\.displayName), ["Glumanda", "Glutexo", "Glurak"])
        let japanese = Evolutions.members(try chain(2), language: "ja", words: .english, species: nil)
        XCTAssertEqual(japanese.map(\.displayName), ["ヒトカゲ", "リザード", "リザードン"])
        // A type inside a condition in the language: Sylveon's Fairy move.
        let sylveon = Evolutions.members(try chain(67), language: "de", words: .english, species: nil).first { $0.name == "sylveon" }
        XCTAssertEqual(sylveon?.trigger, "High friendship, knowing a Fee move")
    }

    func testAHostileChainIsCappedAndChecked() throws {
        // 40 members in a line, one with a name that is not a name.
        var link: [String: Any] = ["species": ["name": "last", "url": "https://pokeapi.co/api/v2/pokemon-species/40/"],
                                   "evolution_details": [], "evolves_to": []]
        for i in stride(from: 39, through: 1, by: -1) {
            let name = i == 3 ? "BAD NAME\u{1B}[2J" : "mon-\(i)"
            link = ["species": ["name": name, "url": "https://pokeapi.co/api/v2/pokemon-species/\(i)/"],
                    "evolution_details": [["trigger": ["name": "level-up", "url": ""], "min_level": i]], "evolves_to": [link]]
        }
        let body = Array(try JSONSerialization.data(withJSONObject: ["id": 9, "chain": link]))
        var said: [String] = []
        let c = try APIDecoding.evolutionChain(body) { said.append($0) }
        XCTAssertEqual(c.members.map(\.name), ["mon-1", "mon-2"], "what evolves from a bad link goes with it")
        XCTAssertTrue(said.contains { $0.contains("not a PokeAPI name") })
        XCTAssertTrue(said.contains { $0.contains("over the cap of 32") })
        XCTAssertThrowsError(try APIDecoding.evolutionChain(Array("{\"chain\": {}}".utf8)))
    }
}
