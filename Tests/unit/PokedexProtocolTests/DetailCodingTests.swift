import CSystemd
import Glibc
import XCTest
import PokedexModels
@testable import PokedexProtocol

/// `Detail`'s two readers, the typed one (``PokedexClient``) and the generic one (pokectl),
/// against what the service writes, on real sd-bus messages.
final class DetailCodingTests: XCTestCase {
    private var scratch: ScratchBus!
    override func setUpWithError() throws { scratch = try ScratchBus() }
    override func tearDown() { scratch = nil }

    private func message(_ write: (MessageWriter) throws(BusError) -> Void) throws -> OpaquePointer {
        try scratch.message(write)
    }

    /// Both readers of what the service writes for `d`.
    private func readBoth(_ d: PokemonDetail) throws -> (typed: PokemonDetail, generic: PokemonDetail) {
        let m = try message { w throws(BusError) in try Pokedex1.detail.writeReply(w, d) }
        defer { sd_bus_message_unref(m) }
        let typed = try Pokedex1.detail.readReply(MessageReader(m))
        XCTAssertGreaterThanOrEqual(sd_bus_message_rewind(m, 1), 0)
        let generic = try Pokedex1.detail.decodeReply(try MessageReader(m).readAll())
        return (typed, generic)
    }

    static func charizard(language: String = "") -> PokemonDetail {
        var d = PokemonDetail(
            id: 6, name: "charizard", height: 17, weight: 905, types: ["fire", "flying"], abilities: ["blaze", "solar-power"],
            stats: [.init(name: "hp", value: 78), .init(name: "speed", value: 100)], spritePath: "/c/6.png", favorite: true,
            genus: "Flame Pokémon", flavorText: "Warms itself\non a rock", color: "#e06040", animatedSpritePath: "/c/6.gif")
        d.cryPath = "/c/cries/6.ogg"
        d.number = 6
        d.displayName = language == "de" ? "Glurak" : "Charizard"
        d.evolution = [
            EvolutionMember(id: 4, name: "charmander", displayName: language == "de" ? "Glumanda" : "Charmander", from: 0, triggerKind: "", trigger: ""),
            EvolutionMember(id: 5, name: "charmeleon", displayName: "Charmeleon", from: 4, triggerKind: "level-up", trigger: "Level 16"),
            EvolutionMember(id: 6, name: "charizard", displayName: "Charizard", from: 5, triggerKind: "level-up", trigger: "Level 36"),
        ]
        let names = language == "de" ? ["rock": "Gestein", "water": "Wasser", "ground": "Boden", "grass": "Pflanze"] : [:]
        d.matchups = [("rock", 4.0), ("water", 2.0), ("ground", 0.0), ("grass", 0.25)].map { type, m in
            TypeMatchup(type: type, typeName: names[type] ?? TypeChart.name(type, language: "en"), multiplier: m)
        }
        // Solar Power changes no matchup; Levitate's and Thick Fat's as a service writes them.
        d.abilityMatchups = [
            AbilityMatchup(ability: "levitate", matchups: [TypeMatchup(type: "ground", typeName: names["ground"] ?? "Ground", multiplier: 0)]),
            AbilityMatchup(ability: "thick-fat", matchups: [("fire", 0.25), ("ice", 0.125)].map { type, m in
                TypeMatchup(type: type, typeName: TypeChart.name(type, language: language.isEmpty ? "en" : language), multiplier: m)
            }),
        ]
        var t = TrainingFacts()
        t.game = "scarlet-violet"
        t.hiddenAbility = "solar-power"
        t.eggGroups = ["monster", "dragon"]
        t.genderRate = 1
        t.eggCycles = 20
        t.captureRate = 45
        t.baseFriendship = 50
        t.growthRate = "medium-slow"
        t.evYield = [.init(name: "special-attack", value: 3)]
        t.heldItems = [.init(item: "charcoal", rarity: 5)]
        t.heldItemsVersion = "ultra-sun"
        if language == "de" {
            d.language = "de"
            d.typeNames = ["Feuer", "Flug"]
            d.abilityNames = ["Großbrand", "Solarkraft"]
            d.abilityEffects = ["Verstärkt Feuer-Attacken in Notlagen.", "Erhöht bei Sonne den Spezial-Angriff."]
            d.statNames = ["KP", "Initiative"]
            t.gameName = "Karmesin/Purpur"
            t.eggGroupNames = ["Monster", "Drache"]
            t.growthRateName = "Mittellangsam"
            t.heldItemNames = ["Holzkohle"]
            t.heldItemsVersionName = "Ultrasonne"
        }
        d.training = t
        return d
    }

    func testBothReadersGiveBackWhatTheServiceWrote() throws {
        var bare = PokemonDetail(id: 10001, name: "deoxys-attack", height: 0, weight: 0, types: [], abilities: [], stats: [],
                                 spritePath: "", favorite: false, genus: "", flavorText: "", color: "", animatedSpritePath: "")
        bare.displayName = ""
        bare.number = 386  // Deoxys's, as the service says for its forms
        for d in [Self.charizard(), Self.charizard(language: "de"), bare] {
            let (typed, generic) = try readBoth(d)
            XCTAssertEqual(typed, d, d.name)
            XCTAssertEqual(generic, d, d.name)
        }
    }

    func testTheTypedReaderSkipsWhatItDoesNotKnow() throws {
        // A newer service's keys, and a known key of another type, are skipped, as the generic
        // reader leaves them; the keys after them are still read.
        let m = try message { w throws(BusError) in
            try w.container("a", "{sv}") { () throws(BusError) in
                try w.entry("id", "u") { () throws(BusError) in try w.append(UInt32(25)) }
                try w.entry("future", "a(us)") { () throws(BusError) in
                    try w.container("a", "(us)") { () throws(BusError) in
                        try w.container("r", "us") { () throws(BusError) in try w.append(UInt32(1)); try w.append("x") }
                    }
                }
                try w.entry("height", "s") { () throws(BusError) in try w.append("tall") }
                try w.entry("evolution", "a(ussuss)") { () throws(BusError) in
                    try w.container("a", "(ussuss)") { () throws(BusError) in
                        try w.container("r", "ussuss") { () throws(BusError) in
                            try w.append(UInt32(172)); try w.append("pichu"); try w.append("Pichu")
                            try w.append(UInt32(0)); try w.append(""); try w.append("")
                        }
                    }
                }
                try w.entry("evolution_v0", "aa{sv}") { () throws(BusError) in  // a shape this client does not know
                    try w.container("a", "a{sv}") { () throws(BusError) in
                        try w.container("a", "{sv}") { () throws(BusError) in
                            try w.entry("id", "u") { () throws(BusError) in try w.append(UInt32(25)) }
                        }
                    }
                }
                try w.entry("matchups", "a{sd}") { () throws(BusError) in
                    try w.container("a", "{sd}") { () throws(BusError) in
                        try w.container("e", "sd") { () throws(BusError) in try w.append("ground"); try w.append(2.0) }
                        try w.container("e", "sd") { () throws(BusError) in try w.append("nan"); try w.append(Double.nan) }
                    }
                }
                try w.entry("name", "s") { () throws(BusError) in try w.append("pikachu") }
            }
        }
        defer { sd_bus_message_unref(m) }
        let typed = try Pokedex1.detail.readReply(MessageReader(m))
        XCTAssertGreaterThanOrEqual(sd_bus_message_rewind(m, 1), 0)
        let generic = try Pokedex1.detail.decodeReply(try MessageReader(m).readAll())
        XCTAssertEqual(typed, generic)
        XCTAssertEqual(typed.name, "pikachu")
        XCTAssertEqual(typed.height, 0)
        XCTAssertEqual(typed.evolution, [EvolutionMember(id: 172, name: "pichu", displayName: "Pichu", from: 0, triggerKind: "", trigger: "")])
        XCTAssertEqual(typed.matchups.map(\.type), ["ground"])
        XCTAssertEqual(typed.matchups.first?.typeName, "Ground")
    }

    func testPokectlJSONNamesTheFamilysFields() throws {
        let m = try message { w throws(BusError) in try Pokedex1.detail.writeReply(w, Self.charizard()) }
        defer { sd_bus_message_unref(m) }
        let raw = try XCTUnwrap(try MessageReader(m).readAll().first)
        let rows = try XCTUnwrap(Coding.namingEvolutionFields(raw).stringDict?["evolution"]?.array)
        XCTAssertEqual(rows.map { $0.stringDict?["display_name"]?.string }, ["Charmander", "Charmeleon", "Charizard"])
        XCTAssertEqual(rows.last?.stringDict?["from"]?.uint, 5)
        XCTAssertEqual(rows.last?.stringDict?["trigger"]?.string, "Level 36")
        XCTAssertEqual(Set(rows[0].stringDict?.keys ?? [:].keys), Set(Coding.evolutionFields))
    }

    /// `Moves`' answer read straight off the message and through the generic tree give back the
    /// table written: "—" (nil) as 0 and back, every way, a list as long as Mew's.
    func testBothReadersGiveBackTheMovesWritten() throws {
        func row(_ n: Int) -> MoveRow {
            let status = n % 3 == 0
            let name: String = n % 2 == 0 ? "Donnerblitz" : "１０まんボルト"
            let power: UInt16? = status ? nil : 90
            let accuracy: UInt8? = n % 5 == 0 ? nil : 100
            return MoveRow(method: Learnset.Method.allCases[n % 4], level: UInt8(n % 101), id: UInt32(n + 1), move: "move-\(n)",
                           name: name, type: "electric", typeName: "Elektro", category: status ? "status" : "special",
                           categoryName: status ? "Status" : "Spezial", power: power, accuracy: accuracy, pp: 15)
        }
        let rows = (0..<240).map(row)
        let t = MoveTable(id: 151, pokemon: "mew", game: "scarlet-violet", gameName: "Karmesin/Purpur", games: ["scarlet-violet", "x-y"],
                          language: "de", rows: rows)
        let m = try message { w throws(BusError) in try Pokedex1.moves.writeReply(w, t) }
        defer { sd_bus_message_unref(m) }
        XCTAssertEqual(try Pokedex1.moves.readReply(MessageReader(m)), t)
        XCTAssertGreaterThanOrEqual(sd_bus_message_rewind(m, 1), 0)
        XCTAssertEqual(try Pokedex1.moves.decodeReply(try MessageReader(m).readAll()), t)
    }

    func testADetailWithoutItsIdOrNameIsRefusedByBoth() throws {
        let m = try message { w throws(BusError) in
            try w.container("a", "{sv}") { () throws(BusError) in
                try w.entry("name", "s") { () throws(BusError) in try w.append("pikachu") }
            }
        }
        defer { sd_bus_message_unref(m) }
        XCTAssertThrowsError(try Pokedex1.detail.readReply(MessageReader(m)))
        XCTAssertGreaterThanOrEqual(sd_bus_message_rewind(m, 1), 0)
        XCTAssertThrowsError(try Pokedex1.detail.decodeReply(try MessageReader(m).readAll()))
    }
}
