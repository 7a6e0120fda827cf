import Foundation
import PokedexBusClient
import PokedexLocale
import PokedexModels
import PokedexProtocol
import XCTest

/// The family and the matchups over the bus: what they cost (one request a family, once), that
/// they read offline after a restart, and the service's words in a caller's language.
final class FamilyTests: DaemonTestCase {
    func testTheFamilyCostsOneRequestOnceAndTheMatchupsNone() throws {
        try h.startDaemon(["--no-prefetch", "--notify=no"])
        let c = try PokedexClient()
        let charizard = try c.detail("charizard")
        XCTAssertEqual(charizard.evolution.map(\.name), ["charmander", "charmeleon", "charizard"])
        XCTAssertEqual(charizard.evolution.map(\.trigger), ["", "Level 16", "Level 36"])
        XCTAssertEqual(charizard.evolution.map(\.from), [0, 4, 5])
        XCTAssertEqual(charizard.evolution.map(\.triggerKind), ["", "level-up", "level-up"])
        let m = Dictionary(uniqueKeysWithValues: charizard.matchups.map { ($0.type, $0.multiplier) })
        XCTAssertEqual(m["rock"], 4)
        XCTAssertEqual(m["water"], 2)
        XCTAssertEqual(m["electric"], 2)
        XCTAssertEqual(m["ground"], 0)
        XCTAssertEqual(m["grass"], 0.25)
        XCTAssertEqual(m["bug"], 0.25)
        XCTAssertNil(m["normal"])
        XCTAssertEqual(try h.requests("evolution-chain"), 1, "one request for the family")
        XCTAssertEqual(try h.requests("filters"), 0, "the matchups need no type resource")
        // Another member of the family: the chain is on hand.
        let before = try h.stats()["requests"] as? Int ?? 0
        let charmander = try c.detail("charmander")
        XCTAssertEqual(charmander.evolution.map(\.name), ["charmander", "charmeleon", "charizard"])
        XCTAssertEqual(try h.requests("evolution-chain"), 1, "none for a family on hand")
        let cost = (try h.stats()["requests"] as? Int ?? 0) - before
        XCTAssertEqual(cost, 4, "a cold Detail as before the families: pokemon, species, sprite, animated sprite; nothing for the family")
        // Every key with its D-Bus type.
        let raw = try XCTUnwrap(c.values(Pokedex1.detail, "6").first?.stringDict)
        XCTAssertEqual(raw["evolution"]?.array?.last?.fields?.map { $0.string ?? $0.uint.map(String.init) },
                       ["6", "charizard", "Charizard", "5", "level-up", "Level 36"], "a(ussuss): id, name, display_name, from, trigger_kind, trigger")
        let named = Coding.namingEvolutionFields(try XCTUnwrap(c.values(Pokedex1.detail, "6").first))
        XCTAssertEqual(named.stringDict?["evolution"]?.array?.last?.stringDict?["trigger"]?.string, "Level 36", "as pokectl show --json names them")
        guard case .dict(let matchups)? = raw["matchups"]?.unwrapped else { return XCTFail("matchups is a{sd}") }
        XCTAssertEqual(matchups.first?.key.string, "rock")
        XCTAssertEqual(matchups.first?.value.double, 4)
    }

    func testTheFamilyInALanguageAndOfflineAfterARestart() throws {
        try h.startDaemon(["--no-prefetch", "--notify=no"])
        let c = try PokedexClient()
        let charizard = try c.call(Pokedex1.localizedDetail, ("charizard", "ja"))
        XCTAssertEqual(charizard.evolution.map(\.displayName), ["ヒトカゲ", "リザード", "リザードン"])
        XCTAssertEqual(charizard.matchups.filter { $0.multiplier == 0 }.map(\.typeName), ["じめん"])
        XCTAssertEqual(charizard.matchups.first?.typeName, "いわ")
        // Pikachu's family from the bundled table's chain, though the mock lists no Pichu, with
        // the Alolan branch as such.
        let pikachu = try c.detail("pikachu")
        XCTAssertEqual(pikachu.evolution.map(\.name), ["pichu", "pikachu", "raichu", "raichu-alola"])
        XCTAssertEqual(pikachu.evolution[1].trigger, "High friendship")
        // A family that branches: Gloom into Vileplume or Bellossom.
        let gloom = try c.detail("gloom")
        XCTAssertEqual(gloom.evolution.map(\.name), ["oddish", "gloom", "vileplume", "bellossom"])
        XCTAssertEqual(gloom.evolution.map(\.from), [0, 43, 44, 44])
        XCTAssertEqual(gloom.evolution.map(\.trigger), ["", "Level 21", "Use a Leaf Stone", "Use a Sun Stone"])
        try h.control(["offline": true])
        h.stopDaemon()
        try h.startDaemon(["--no-prefetch", "--notify=no"])
        let offline = try PokedexClient().detail("gloom")
        XCTAssertEqual(offline.evolution, gloom.evolution, "the family from the disk")
        let stats = try PokedexClient().call(Pokedex1.cacheStats)
        XCTAssertEqual(stats.kinds.first { $0.kind == .evolutionChains }?.count, 3, "three families, one file each")
    }

    /// A card true to the games over the bus: the family the card's form has, in the games'
    /// words in the caller's language (PokeAPI's item/ resource, fetched once and kept by sync),
    /// a form's number, the abilities that change matchups, "did you mean" in the caller's
    /// language.
    func testACardTrueToTheGames() throws {
        try h.startDaemon(["--no-prefetch", "--notify=no"])
        let c = try PokedexClient()
        let pikachu = try c.call(Pokedex1.localizedDetail, ("pikachu", "ja"))
        XCTAssertEqual(pikachu.number, 25)
        XCTAssertEqual(pikachu.evolution.map(\.id), [172, 25, 26, 10100], "Alolan Raichu by its own id")
        XCTAssertEqual(pikachu.evolution.map(\.from), [0, 172, 25, 25])
        XCTAssertEqual(pikachu.evolution[2].trigger, "かみなりのいしを使う", "the games' word for the item")
        XCTAssertEqual(pikachu.evolution[3].trigger, "かみなりのいしを使う、アローラ地方で")
        XCTAssertEqual(try h.requests("names") >= 1, true)
        let items = try h.requests("names")
        _ = try c.call(Pokedex1.localizedDetail, ("raichu", "de"))
        XCTAssertEqual(try c.call(Pokedex1.localizedDetail, ("raichu", "de")).evolution[2].trigger, "Donnerstein verwenden")
        XCTAssertEqual(try h.requests("names") - items, 0, "the item's names are fetched once, for every language")
        // Lightning Rod: Electric does nothing to Pikachu.
        XCTAssertEqual(pikachu.abilityMatchups?.map(\.ability), ["lightning-rod"])
        XCTAssertEqual(pikachu.abilityMatchups?.first?.matchups.map { "\($0.type) \($0.multiplier)" }, ["electric 0.0"])
        // A form's number is its species'.
        let raw = try XCTUnwrap(c.values(Pokedex1.detail, "deoxys-attack").first?.stringDict)
        XCTAssertEqual(raw["number"]?.uint, 386)
        XCTAssertEqual(raw["id"]?.uint, 10001)
        // "Did you mean" the name as the games write it in the caller's language.
        XCTAssertThrowsError(try c.call(Pokedex1.localizedDetail, ("ピカチュ", "ja"))) { error in
            XCTAssertTrue("\(error)".contains("ピカチュウ"), "\(error)")
        }
        XCTAssertEqual(try c.call(Pokedex1.localizedDetail, ("ピカチユウ", "ja")).id, 25, "kana as typed name one Pokémon")
        // Kept by sync: offline after a restart, the item's words in every language.
        XCTAssertEqual(try c.call(Pokedex1.sync).failed, 0)
        try h.control(["offline": true])
        h.stopDaemon()
        try h.startDaemon(["--no-prefetch", "--notify=no"])
        let offline = try PokedexClient().call(Pokedex1.localizedDetail, ("gloom", "de"))
        XCTAssertEqual(offline.evolution.map(\.trigger), ["", "Level 21", "Blattstein verwenden", "Sonnenstein verwenden"])
    }

    func testSyncKeepsEveryFamilyAndTheOfflineCardShowsThem() throws {
        try h.startDaemon(["--no-prefetch", "--notify=no"])
        let result = try PokedexClient().call(Pokedex1.sync)
        XCTAssertEqual(result.failed, 0)
        let families = try h.requests("evolution-chain")
        // The mock's 44 species and 2 forms are in 19 families: each asked for once.
        XCTAssertEqual(families, 19, "one request a family, however many of its members")
        XCTAssertEqual(try PokedexClient().call(Pokedex1.cacheStats).kinds.first { $0.kind == .evolutionChains }?.count, families)
        try h.control(["offline": true])
        h.stopDaemon()
        try h.startDaemon(["--no-prefetch", "--notify=no"])
        let c = try PokedexClient()
        for name in ["ivysaur", "nidoqueen", "golbat", "gloom", "wigglytuff"] {
            XCTAssertGreaterThan(try c.detail(name).evolution.count, 1, "\(name)'s family offline")
        }
    }

    func testAFamilyTheAPIHasNoneOfLeavesTheCardWithoutIt() throws {
        // Deoxys (386) is alone in its family; the mock also has no chain 9999.
        try h.startDaemon(["--no-prefetch", "--notify=no"])
        let c = try PokedexClient()
        let deoxys = try c.detail("deoxys-attack")
        XCTAssertEqual(deoxys.evolution.map(\.name), ["deoxys"])
        XCTAssertFalse(deoxys.matchups.isEmpty)
    }

    /// The catalogues `make catalogues` builds, read per language as the service reads them.
    func testTheServicesWordsInACallersLanguage() throws {
        let catalogues = Catalogues(directory: Harness.packageRoot + "/.build/locale")
        XCTAssertEqual(catalogues.words("de").tr("Trade"), "Tausch")
        XCTAssertEqual(catalogues.words("ja-hrkt").tr("Level %s"), "レベル%s")
        XCTAssertEqual(catalogues.words("zh-hant").tr("Trade"), catalogues.words("zh-hant").tr("Trade"))
        XCTAssertEqual(catalogues.words("en").tr("Trade"), "Trade")
        XCTAssertEqual(catalogues.words("../../etc").tr("Trade"), "Trade", "a code is never a path")
        XCTAssertEqual(Catalogues(directory: "/nonexistent").words("de").tr("Trade"), "Trade")
    }
}
