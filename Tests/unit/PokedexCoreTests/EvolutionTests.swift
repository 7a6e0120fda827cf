import Foundation
@testable import PokedexCore
import PokedexModels
import PokedexTestKit
import XCTest

/// Every family of PokeAPI's data (the mock's `evolution-chains.json`), read as the API sends it
/// and put in words: every trigger kind, Eevee's eight branches, Wurmple's chance, Tyrogue's
/// stats, each form's own line, older games' ways after the current one, the games' own words
/// (`GamesFamilyTests` holds every Pokémon to the games' facts).
final class EvolutionTests: XCTestCase {
    static var bodies: [UInt32: [UInt8]] { MockData.chainBodies }

    func chain(_ id: UInt32) throws -> EvolutionChainRecord {
        let body = try XCTUnwrap(Self.bodies[id], "no chain \(id) in Tests/support/mockapi/evolution-chains.json")
        return try APIDecoding.evolutionChain(body)
    }

    /// The family of chain `id` on the card of `subject` (its first species' by default), each
    /// member's words by its identifier.
    func words(_ id: UInt32, subject: (UInt32, String, species: UInt32)? = nil, language: String = "en") throws -> [String: String] {
        _ = try chain(id)
        let members = MockData.family(id, subject: subject.map { PokemonRef(id: $0.0, name: $0.1) }, speciesID: subject?.species,
                                      language: language, words: MockData.words(language))
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
                XCTAssertEqual(m.ways.isEmpty, m.from == 0 || m.name == "manaphy", "chain \(id): \(m.name) has conditions unless first")
                for cond in m.ways.map(\.condition) {
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
            // The current games' way first, then the mossy rock of older ones.
            "leafeon": "Use a Leaf Stone, or near a Moss Rock", "glaceon": "Use an Ice Stone, or near an Ice Rock",
            "sylveon": "High friendship, knowing a Fairy move, or high affection, knowing a Fairy move",
        ])
        XCTAssertEqual(try chain(67).members.filter { $0.from == 133 }.count, 8)
        XCTAssertEqual(try words(47), ["tyrogue": "", "hitmonlee": "Level 20, Attack > Defense",
                                       "hitmonchan": "Level 20, Attack < Defense", "hitmontop": "Level 20, Attack = Defense"])
        XCTAssertEqual(try words(135), ["wurmple": "", "silcoon": "Level 7, by chance (personality)",
                                        "cascoon": "Level 7, by chance (personality)", "beautifly": "Level 10", "dustox": "Level 10"])
        XCTAssertEqual(try words(40)["gengar"], "Trade")
        // Pikachu's card names the Alolan branch as such.
        XCTAssertEqual(try words(10), ["pichu": "", "pikachu": "High friendship", "raichu": "Use a Thunder Stone",
                                       "raichu-alola": "Use a Thunder Stone, in Alola"])
    }

    /// Each form its own line; the species' line on the species' card.
    func testEachFormItsOwnFamily() throws {
        XCTAssertEqual(try words(33), ["slowpoke": "", "slowbro": "Level 37", "slowking": "Trade holding King’s Rock"])
        XCTAssertEqual(try words(33, subject: (10164, "slowpoke-galar", 79)),
                       ["slowpoke-galar": "", "slowbro-galar": "Use a Galarica Cuff", "slowking-galar": "Use a Galarica Wreath"])
        XCTAssertEqual(try words(22), ["meowth": "", "persian": "Level 28"])
        XCTAssertEqual(try words(22, subject: (10107, "meowth-alola", 52)), ["meowth-alola": "", "persian-alola": "High friendship"])
        XCTAssertEqual(try words(22, subject: (10161, "meowth-galar", 52)), ["meowth-galar": "", "perrserker": "Level 28"])
        // Perrserker's own card: Galarian Meowth's line.
        XCTAssertEqual(try words(22, subject: (863, "perrserker", 863)), ["meowth-galar": "", "perrserker": "Level 28"])
        XCTAssertEqual(try words(11), ["sandshrew": "", "sandslash": "Level 22"])
        XCTAssertEqual(try words(15)["ninetales"], "Use a Fire Stone")
        XCTAssertEqual(try words(44)["electrode"], "Level 30")
        XCTAssertEqual(try words(287, subject: (10179, "yamask-galar", 562)),
                       ["yamask-galar": "", "runerigus": "Take 49 damage, then pass under a stone arch"])
        XCTAssertEqual(try words(287), ["yamask": "", "cofagrigus": "Level 34"])
        XCTAssertEqual(try words(109, subject: (10235, "sneasel-hisui", 215)),
                       ["sneasel-hisui": "", "sneasler": "Daytime, holding Razor Claw"])
        // Corsola of Johto has no family; its Galarian form has Cursola.
        XCTAssertEqual(try words(113), ["corsola": ""])
        // A form with no way of its own (Zen Galarian Darmanitan) has its region's line.
        XCTAssertEqual(try words(282, subject: (10178, "darmanitan-galar-zen", 555)),
                       ["darumaka-galar": "", "darmanitan-galar-standard": "Use an Ice Stone"])
        // A species' regional condition, after its own: Cyndaquil in Hisui.
        XCTAssertEqual(try words(80)["quilava"], "Level 14, or level 17, in Hisui")
    }

    /// What the games decide that PokeAPI does not say, said: the game, the nature, the ability
    /// form, gender's forms, chance, and Shedinja's level.
    func testWhatTheGamesDecideIsSaid() throws {
        XCTAssertEqual(try words(413)["solgaleo"], "Level 53, in Sun, Ultra Sun, Sword or Scarlet")
        XCTAssertEqual(try words(413)["lunala"], "Level 53, in Moon, Ultra Moon, Shield or Violet")
        XCTAssertEqual(try words(446), ["toxel": "", "toxtricity": "Level 30, its nature decides the form",
                                        "toxtricity-low-key": "Level 30, its nature decides the form"])
        XCTAssertEqual(try words(383), ["rockruff": "", "lycanroc": "Level 25, daytime", "lycanroc-midnight": "Level 25, at night",
                                        "lycanroc-dusk": "Level 25, at dusk, from Own Tempo Rockruff"])
        XCTAssertEqual(try words(348)["meowstic-female"], "Level 25, female")
        XCTAssertEqual(try words(280)["basculegion-female"], "Lose 294 HP to recoil, female, from White-Striped Basculin")
        XCTAssertEqual(try words(144)["shedinja"],
                       "Appears when Nincada evolves at level 20, with an empty party slot and a spare Poké Ball")
        XCTAssertEqual(try words(178)["milotic"], "Trade holding Prism Scale, or high beauty")
        XCTAssertEqual(try words(34)["magnezone"], "Use a Thunder Stone, or in a special magnetic field")
        // Small Pumpkaboo becomes Small Gourgeist: the species' own way, once.
        XCTAssertEqual(try words(365), ["pumpkaboo": "", "gourgeist": "Trade"])
    }

    func testEveryKindOfConditionHasItsWords() throws {
        let all = try Self.bodies.keys.sorted().flatMap { id in
            _ = try chain(id)
            return MockData.family(id, language: "en", words: .english).map { ($0.name, $0.trigger) }
        }
        let by = Dictionary(all, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(by["steelix"], "Trade holding Metal Coat")
        // The games' "Up-Grade", where PokeAPI's English says "Upgrade".
        XCTAssertEqual(by["porygon2"], "Trade holding Up-Grade")
        XCTAssertEqual(by["escavalier"], "Trade for Shelmet")
        XCTAssertEqual(by["mantine"], "With Remoraid in the party")
        XCTAssertEqual(by["pangoro"], "Level 32, with a Dark-type Pokémon in the party")
        XCTAssertEqual(by["goodra"], "Level 50, in the rain")
        XCTAssertEqual(by["malamar"], "Level 30, console held upside down")
        // The current games' way first: a scroll, then the towers of The Isle of Armor.
        XCTAssertEqual(by["urshifu"], "Use a Scroll of Darkness, or train in the Tower of Darkness")
        XCTAssertEqual(by["annihilape"], "Use Rage Fist 20 times")
        XCTAssertEqual(by["kingambit"], "Defeat three Bisharp that lead a pack")
        XCTAssertEqual(by["gholdengo"], "Collect 999 Gimmighoul Coins")
        XCTAssertEqual(by["pawmot"], "After 1000 steps with Let's Go")
        XCTAssertEqual(by["palafin"], "Level 38, in a Union Circle")
        XCTAssertEqual(by["maushold-family-of-three"], "Level 25, special condition, by chance (personality)")
        XCTAssertEqual(by["froslass"], "Use a Dawn Stone, female")
        XCTAssertEqual(by["alcremie"], "Spin around holding a Sweet")
        XCTAssertEqual(by["wyrdeer"].map { $0.hasPrefix("Use Psyshield Bash") }, true, by["wyrdeer"] ?? "none")
        XCTAssertEqual(by["ursaluna"], "Use a Peat Block, under a full moon")
    }

    func testNamesInTheCallersLanguage() throws {
        let german = Words { ["Level %s": "Level %s", "Use a %s": "%s verwenden"][$0] ?? $0 }
        let members = Evolutions.members(try chain(2), language: "de", words: german, species: nil)
        XCTAssertEqual(members.map(\.displayName), ["Glumanda", "Glutexo", "Glurak"])
        let japanese = Evolutions.members(try chain(2), language: "ja", words: .english, species: nil)
        XCTAssertEqual(japanese.map(\.displayName), ["ヒトカゲ", "リザード", "リザードン"])
        // A type inside a condition in the language: Sylveon's Fairy move.
        let sylveon = Evolutions.members(try chain(67), language: "de", words: .english, species: nil).first { $0.name == "sylveon" }
        XCTAssertEqual(sylveon?.trigger, "High friendship, knowing a Fee move, or high affection, knowing a Fee move")
        // Items and moves as the games write them in the language, not made from identifiers.
        XCTAssertEqual(try words(10, language: "de")["raichu"], "Donnerstein verwenden")
        XCTAssertEqual(try words(33, language: "ja")["slowking"], "おうじゃのしるしを持たせて通信交換")
        XCTAssertEqual(try words(10, language: "ja")["raichu"], "かみなりのいしを使う")
        XCTAssertEqual(try words(442, language: "de")["hydrapple"].map { $0.contains("Drachenschrei") }, true)
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

/// A family is worded once for each chain, Pokémon and language, and worded again when its record
/// changes (fetched again) or the kept ones outgrow their bound.
final class FamilyWordsTests: XCTestCase {
    func testKeptForTheVerySameRecordOnly() throws {
        let words = FamilyWords()
        let chain = try APIDecoding.evolutionChain(try XCTUnwrap(MockData.chainBodies[67]))
        let members = MockData.family(67, language: "en", words: .english)
        let key = FamilyWords.Key(chain: 67, pokemon: 133, language: "en", localized: false)
        XCTAssertNil(words.members(key, of: chain))
        words.keep(members, key, of: chain)
        XCTAssertEqual(words.members(key, of: chain), members)
        XCTAssertNil(words.members(FamilyWords.Key(chain: 67, pokemon: 133, language: "de", localized: true), of: chain), "another language")
        var changed = chain
        changed.members.removeLast()
        XCTAssertNil(words.members(key, of: changed), "a family fetched again is worded again")
        for i in 0..<UInt32(FamilyWords.capacity) { words.keep([], FamilyWords.Key(chain: i, pokemon: i, language: "en", localized: false), of: chain) }
        XCTAssertNil(words.members(key, of: chain), "past the bound, the kept ones go")
    }
}
