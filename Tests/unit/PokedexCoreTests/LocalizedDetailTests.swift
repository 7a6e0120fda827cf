import PokedexLocks
import PokedexTestKit
import XCTest
@testable import PokedexCore

/// `LocalizedDetail` and `DisplayNames`: names, genus, flavour text, types, abilities and stats
/// in a caller's language, with the API's real names (German, Japanese), English where a
/// language has none, and the names of types, abilities and stats fetched once.
final class LocalizedDetailTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    static let terms: [(kind: String, name: String, names: [String: String])] = [
        ("type", "electric", ["en": "Electric", "de": "Elektro", "ja-hrkt": "でんき", "fr": "Électrik"]),
        ("type", "flying", ["en": "Flying", "de": "Flug", "ja-hrkt": "ひこう"]),
        ("ability", "static", ["en": "Static", "de": "Statik", "ja-hrkt": "せいでんき"]),
        ("stat", "hp", ["en": "HP", "de": "KP", "ja-hrkt": "HP"]),
        ("stat", "speed", ["en": "Speed", "de": "Initiative", "ja-hrkt": "すばやさ"]),
    ]

    /// ``FakePokeAPI`` with Pikachu's species texts (its real names and genera; flavour texts of the
    /// project's own, shaped as the games write them) and the resources of its names.
    func makeAPI(withTerms: Bool = true) -> FakePokeAPI {
        let api = FakePokeAPI()
        let base = FakePokeAPI.base
        api.client.route(base + "/pokemon-species/25/", json: """
            {"id":25,"name":"pikachu",
             "genera":[{"genus":"ねずみポケモン","language":{"name":"ja-Hrkt"}},{"genus":"Maus-Pokémon","language":{"name":"de"}},
                       {"genus":"Mouse Pokémon","language":{"name":"en"}}],
             "flavor_text_entries":[{"flavor_text":"Alt.","language":{"name":"de"}},
                {"flavor_text":"It naps in the sun\\nand wakes\\fup.","language":{"name":"en"}},
                {"flavor_text":"Pikachu grüßt den Morgen, indem es sich\\nim Gras ausstreckt.","language":{"name":"de"}},
                {"flavor_text":"あさの　ひかりを\\nあびて","language":{"name":"ja-Hrkt"}},
                {"flavor_text":"Texte.","language":{"name":"klingon"}}],
             "names":[{"name":"Pikachu","language":{"name":"en"}},{"name":"Pikachu","language":{"name":"de"}},
                      {"name":"ピカチュウ","language":{"name":"ja-Hrkt"}},{"name":"皮卡丘","language":{"name":"zh-Hant"}}]}
            """)
        if withTerms {
            for t in Self.terms {
                let names = t.names.map { #"{"name":"\#($0.value)","language":{"name":"\#($0.key)","url":""}}"# }.joined(separator: ",")
                api.client.route(base + "/\(t.kind)/\(t.name)/", json: #"{"id":1,"name":"\#(t.name)","names":[\#(names)]}"#)
            }
        }
        return api
    }

    func makeService(_ api: FakePokeAPI, language: String = "en") throws -> PokedexService {
        var config = ServiceConfiguration(apiURL: FakePokeAPI.base + "/", spriteHosts: ["sprites.test"],
                                          cacheDirectory: dir + "/cache", dataDirectory: dir + "/data",
                                          spriteURLTemplate: "https://sprites.test/{id}.png", prefetch: false)
        config.language = language
        return PokedexService(configuration: config, client: api.client,
                              store: try FileCacheStore(directory: config.cacheDirectory, capacity: 1 << 24),
                              favorites: try FavoritesBook(persistence: MemoryFavoritesPersistence()))
    }

    func termRequests(_ api: FakePokeAPI) -> Int {
        api.client.requests.filter { r in ["/type/", "/ability/", "/stat/"].contains { r.url.contains($0) } }.count
    }

    func testGermanAndJapaneseAsTheGamesWriteThem() async throws {
        let api = makeAPI()
        let s = try makeService(api)
        let de = try await s.localizedDetail("pikachu", language: "de").value()
        XCTAssertEqual(de.language, "de")
        XCTAssertEqual(de.displayName, "Pikachu")
        XCTAssertEqual(de.genus, "Maus-Pokémon")
        XCTAssertEqual(de.flavorText, "Pikachu grüßt den Morgen, indem es sich im Gras ausstreckt.", "the newest German entry")
        XCTAssertEqual(de.typeNames, ["Elektro", "Flug"], "in slot order, as types")
        XCTAssertEqual(de.abilityNames, ["Statik"])
        XCTAssertEqual(de.statNames, ["KP", "Initiative"])
        XCTAssertEqual(de.name, "pikachu", "the identifier stays")
        XCTAssertEqual(de.types, ["electric", "flying"])

        // A locale, as pokectl passes the terminal's: ja_JP is the kana the games print.
        let ja = try await s.localizedDetail("25", language: "ja_JP.UTF-8").value()
        XCTAssertEqual(ja.language, "ja-hrkt")
        XCTAssertEqual(ja.displayName, "ピカチュウ")
        XCTAssertEqual(ja.genus, "ねずみポケモン")
        XCTAssertEqual(ja.flavorText, "あさの　ひかりを　あびて", "a break between kana spaced with ideographic spaces is one of them")
        XCTAssertEqual(ja.typeNames, ["でんき", "ひこう"])
        XCTAssertEqual(ja.statNames, ["HP", "すばやさ"])
    }

    func testEnglishWhereALanguageHasNone() async throws {
        let api = makeAPI()
        let s = try makeService(api)
        let fr = try await s.localizedDetail("pikachu", language: "fr").value()
        XCTAssertEqual(fr.genus, "Mouse Pokémon", "no French genus: English")
        XCTAssertEqual(fr.flavorText, "It naps in the sun and wakes up.")
        XCTAssertEqual(fr.typeNames, ["Électrik", "Flying"], "Flying has no French name here")
        XCTAssertEqual(fr.displayName, "Pikachu", "the bundled table has every species in French")
        // A Pokémon the table knows by another identifier (the fake API's #3 is "mon3", not
        // venusaur), whose record has no names: made from its identifier.
        let mon = try await s.localizedDetail("mon3", language: "de").value()
        XCTAssertEqual(mon.displayName, "Mon3")
    }

    func testNamesOfThingsTheAPICannotGiveAreMadeFromTheIdentifiers() async throws {
        let api = makeAPI(withTerms: false)
        let s = try makeService(api)
        let d = try await s.localizedDetail("pikachu", language: "de").value()
        XCTAssertEqual(d.genus, "Maus-Pokémon")
        XCTAssertEqual(d.typeNames, ["Electric", "Flying"])
        XCTAssertEqual(d.abilityNames, ["Static"])
        XCTAssertEqual(d.statNames, ["Hp", "Speed"])
    }

    func testTypesAbilitiesAndStatsAreFetchedOnceForEveryPokemonAndLanguage() async throws {
        let api = makeAPI()
        let s = try makeService(api)
        _ = try await s.localizedDetail("pikachu", language: "de").value()
        XCTAssertEqual(termRequests(api), Self.terms.count, "each type, ability and stat once")
        let before = api.client.requests.count
        let ja = try await s.localizedDetail("pikachu", language: "ja").value()
        XCTAssertEqual(api.client.requests.count, before, "a new language costs no request: every name came the first time")
        XCTAssertEqual(ja.displayName, "ピカチュウ", "ja reads the kana where there are no kanji names")
        XCTAssertNotNil(try s.localizedDetail("pikachu", language: "zh_TW").ready, "warm: from memory, inline")
        _ = try await s.localizedDetail("mon7", language: "de").value()
        XCTAssertEqual(termRequests(api), Self.terms.count, "another Pokémon of the same types: none again")
        // And the plain Detail costs what it always has: no names fetched for it.
        let plain = makeAPI()
        let s2 = try makeService(plain)
        let d = try await s2.detail("pikachu").value()
        XCTAssertEqual(termRequests(plain), 0)
        XCTAssertEqual(d.genus, "Mouse Pokémon")
        XCTAssertEqual(d.displayName, "Pikachu")
        XCTAssertEqual(d.language, "")
    }

    func testTheServicesLanguageAndLanguagesPokeAPIHasNot() async throws {
        let s = try makeService(makeAPI(), language: "de")
        let d = try await s.localizedDetail("pikachu", language: "").value()
        XCTAssertEqual(d.language, "de", "\"\" is the service's own")
        let plain = try await s.detail("pikachu").value()
        XCTAssertEqual(plain.genus, "Mouse Pokémon", "Detail stays English")
        XCTAssertEqual(plain.displayName, "Pikachu", "with the name in the service's language")
        for bad in ["klingon", "pt_BR", "xx_XX.UTF-8", String(repeating: "d", count: 65)] {
            do {
                _ = try await s.localizedDetail("pikachu", language: bad).value()
                XCTFail(bad)
            } catch {
                XCTAssertEqual(error.dbusName, "io.github.pokedexd.Pokedex1.Error.InvalidArgument", bad)
                XCTAssertTrue(error.message.contains("ja-hrkt"), "lists what there is: \(error.message)")
            }
        }
    }

    func testDisplayNamesNeverWaitOnThePokemon() async throws {
        let api = makeAPI()
        let s = try makeService(api, language: "ja-hrkt")
        let names = try await s.displayNames([25, 3, 9999, 25], language: "").value()
        XCTAssertEqual(names, [DisplayName(id: 25, name: "pikachu", displayName: "ピカチュウ"),
                               DisplayName(id: 3, name: "venusaur", displayName: "フシギバナ"),
                               DisplayName(id: 25, name: "pikachu", displayName: "ピカチュウ")],
                       "in the order asked; 9999 is no Pokémon; before the list, the table's identifiers")
        XCTAssertEqual(api.client.requests.count, 0, "no request, not even the list")
        _ = try await s.listPage(offset: 0, limit: 5).value()
        let listed = try await s.displayNames([3], language: "de").value()
        XCTAssertEqual(listed, [DisplayName(id: 3, name: "mon3", displayName: "Mon3")],
                       "once the list is known, its identifiers: the fake API's #3 is not the table's venusaur")
        let de = try XCTUnwrap(try s.displayNames([25], language: "de").ready)
        XCTAssertEqual(de.map(\.displayName), ["Pikachu"], "from memory, inline")
        do {
            _ = try await s.displayNames(Array(repeating: 1, count: PokedexService.maxDisplayNames + 1), language: "de").value()
            XCTFail("over the cap")
        } catch {
            XCTAssertEqual(error.dbusName, "io.github.pokedexd.Pokedex1.Error.InvalidArgument")
        }
    }

    /// A names record on disk is verified like any record: damage is fetched again, not taken
    /// for a stray.
    func testVerifyCacheRepairsADamagedNamesRecord() async throws {
        let api = makeAPI()
        let s = try makeService(api)
        _ = try await s.localizedDetail("pikachu", language: "de").value()
        s.finishWrites()
        try CacheRecordDamage.flippedPayload.apply(to: APIRoutes.namesKey(.type, "electric"), in: dir + "/cache/v2")
        let report = try await s.verifyCache().value()
        XCTAssertEqual(report.damaged, 1)
        XCTAssertEqual(report.repaired, 1)
        XCTAssertEqual(report.orphans, 0, "not taken for a stray")
        XCTAssertEqual(api.client.count(FakePokeAPI.base + "/type/electric/"), 2, "fetched again")
        let stats = try await s.cacheStats().value()
        XCTAssertEqual(stats.kinds.first { $0.kind == .names }?.count, Self.terms.count)
    }

    /// A species record an older version kept (English only) is used, and fetched again whole
    /// in the background, without If-None-Match (a 304 would keep its old shape).
    func testRecordsKeptBeforeLanguagesAreFetchedAgainWhole() async throws {
        let api = makeAPI()
        let s1 = try makeService(api)
        _ = try await s1.detail("pikachu").value()
        s1.finishWrites()
        let old = SpeciesRecord(id: 25, name: "pikachu", genus: "Mouse Pokémon", flavorText: "Old.", names: ["en": "Pikachu"])
        let store = try FileCacheStore(directory: dir + "/cache", capacity: 1 << 24)
        try store.writeRecord("species/25", StoredRecord(payload: Array(try JSONEncoder().encode(old)),
                                                         freshness: Freshness(etag: "\"v1\"", fetchedAt: Date(), maxAge: 86400)))
        let s2 = try makeService(api)
        let first = try await s2.localizedDetail("pikachu", language: "de").value()
        XCTAssertEqual(first.genus, "Mouse Pokémon", "the old record answers at once")
        await settle(s2)
        let refetch = try XCTUnwrap(api.client.requests.last { $0.url.hasSuffix("/pokemon-species/25/") })
        XCTAssertNil(refetch.ifNoneMatch, "fetched whole")
        s2.finishWrites()
        let again = try await s2.localizedDetail("pikachu", language: "de").value()
        XCTAssertEqual(again.genus, "Maus-Pokémon")
    }

    func testFormsTakeTheirNamesFromTheirFormRecord() {
        let raichu = SpeciesRecord(id: 26, name: "raichu", genus: "", flavorText: "",
                                   names: ["en": "Raichu", "de": "Raichu", "ja-hrkt": "ライチュウ"])
        let alola = NamesRecord(name: "raichu-alola", names: [:], formNames: ["en": "Alolan Form", "de": "Alola-Form"])
        XCTAssertEqual(DisplayNames.name(id: 10100, apiName: "raichu-alola", species: raichu, form: alola, language: "de"),
                       "Raichu Alola-Form", "the species' name and the form's")
        let mega = NamesRecord(name: "venusaur-mega", names: ["en": "Mega Venusaur", "de": "Mega-Bisaflor"], formNames: [:])
        XCTAssertEqual(DisplayNames.name(id: 10033, apiName: "venusaur-mega", form: mega, language: "de"), "Mega-Bisaflor")
        XCTAssertEqual(DisplayNames.name(id: 10033, apiName: "venusaur-mega", form: mega, language: "ko"), "메가이상해꽃",
                       "no Korean name in the record: the bundled table's, from PokeAPI's Korean form name")
        XCTAssertEqual(DisplayNames.name(id: 10033, apiName: "venusaur-mega", form: mega, language: "xx"), "Mega Venusaur",
                       "a language PokeAPI has no name in: English")
        // A form name that holds its species' name is the whole name: "メガリザードンＸ", not
        // "リザードン メガリザードンＸ"; in every language the table has.
        let charizard = SpeciesRecord(id: 6, name: "charizard", genus: "", flavorText: "", names: ["en": "Charizard", "ja": "リザードン"])
        let megaX = NamesRecord(name: "charizard-mega-x", names: ["en": "Mega Charizard X", "de": "Mega-Glurak X"],
                                formNames: ["ja": "メガリザードンＸ", "en": "Mega Charizard X", "de": "Mega-Form"])
        XCTAssertEqual(DisplayNames.name(id: 10034, apiName: "charizard-mega-x", species: charizard, form: megaX, language: "ja"), "メガリザードンＸ")
        XCTAssertEqual(DisplayNames.name(id: 10034, apiName: "charizard-mega-x", species: charizard, form: megaX, language: "de"), "Mega-Glurak X")
        for (id, apiName) in [(10034 as UInt32, "charizard-mega-x"), (10080, "pikachu-rock-star"), (10100, "raichu-alola")] {
            let species = BundledNames.entries[BundledNames.entry(id, apiName: apiName)!.species]!
            for language in BundledNames.columns {
                let name = DisplayNames.name(id: id, apiName: apiName, language: language), speciesName = species.names[language]!
                XCTAssertFalse(name.hasPrefix(speciesName + " ") && name.dropFirst(speciesName.count + 1).contains(speciesName),
                               "\(apiName) in \(language): \(name)")
            }
        }
        let other = NamesRecord(name: "something-else", names: ["de": "Falsch"], formNames: [:])
        XCTAssertNotEqual(DisplayNames.name(id: 10033, apiName: "venusaur-mega", form: other, language: "de"), "Falsch",
                          "a form record of another Pokémon is not taken")
    }

    func testSpeciesTextsByLanguageAreCappedAndKeptToLanguagesShown() throws {
        var dropped: [String] = []
        let long = String(repeating: "x", count: APIDecoding.maxGenusBytes + 1)
        let body = Array("""
            {"id":1,"name":"bulbasaur","genera":[{"genus":"\(long)","language":{"name":"de"}},{"genus":"Samen","language":{"name":"xx"}},
             {"genus":"Seed Pokémon","language":{"name":"en"}}],
             "flavor_text_entries":[{"flavor_text":"Eins","language":{"name":"DE"}}],"names":[]}
            """.utf8)
        let s = try APIDecoding.species(body) { dropped.append($0) }
        XCTAssertEqual(s.genera, ["en": "Seed Pokémon"], "over its cap: dropped; a language names are not shown in: not kept")
        XCTAssertEqual(s.flavorTexts, ["de": "Eins"], "codes without case")
        XCTAssertEqual(s.genus(in: "de"), "Seed Pokémon")
        XCTAssertEqual(dropped.count, 1, "\(dropped)")
        // A record kept before languages were reads as English everywhere.
        let old = SpeciesRecord(id: 1, name: "bulbasaur", genus: "Seed Pokémon", flavorText: "A seed.", names: [:])
        XCTAssertEqual(old.genus(in: "ja-hrkt"), "Seed Pokémon")
        XCTAssertEqual(old.flavorText(in: "de"), "A seed.")
    }

    func testTheLanguagesAreTheTablesAndCallersNameThemAnyWay() {
        XCTAssertEqual(NameLanguage.available, BundledNames.columns)
        let cases: [(String, String?)] = [("", "fr"), ("de", "de"), ("DE", "de"), ("ja-Hrkt", "ja-hrkt"), ("ja", "ja"), ("roomaji", "ja-roma"),
                                          ("de_DE.UTF-8", "de"), ("zh_TW", "zh-hant"), ("pt_BR", nil), ("klingon", nil)]
        for (argument, code) in cases { XCTAssertEqual(NameLanguage.resolve(argument, fallback: "fr"), code, argument) }
    }

    func testWordsFillInOrderAndReadNoOtherDirective() {
        let german = Words(decimalSeparator: ",") { msgid in
            ["%s added to favorites": "%s zu den Favoriten hinzugefügt", "%s of %s": "%s von %s", "Height": "Größe"][msgid] ?? msgid
        }
        XCTAssertEqual(german.trf("%s added to favorites", "Glurak"), "Glurak zu den Favoriten hinzugefügt")
        XCTAssertEqual(german.trf("%s of %s", "1–20", "1351"), "1–20 von 1351")
        XCTAssertEqual(german.tr("Height"), "Größe")
        XCTAssertEqual(german.tenths(4), "0,4")
        XCTAssertEqual(german.tenths(905), "90,5")
        let hostile = Words { _ in "%n%x%s%s%d%" }
        XCTAssertEqual(hostile.trf("x", "a"), "%n%xa%d%", "only %s is read, and only as many as given")
    }
}
