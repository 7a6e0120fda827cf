import Foundation
import PokedexBusClient
import PokedexTestKit
import XCTest

/// Names, genus, flavour text, types, abilities and stats in German and Japanese over the real
/// bus, against the mock's real PokeAPI names; pokectl in a German locale (its own words from
/// the catalogue built in .build/locale, `0,9 m`); GNOME's metas and KRunner's matches in the
/// service's language.
final class LanguageTests: DaemonTestCase {
    func names(_ kind: String) throws -> Int { (try h.stats()["by_kind"] as? [String: Int])?[kind] ?? 0 }

    func testLocalizedDetailInGermanAndJapaneseAndWhatItCosts() throws {
        try h.startDaemon(["--no-prefetch"])
        let c = try PokedexClient()
        let de = try c.call(Pokedex1.localizedDetail, ("pikachu", "de"))
        XCTAssertEqual(de.displayName, "Pikachu")
        XCTAssertEqual(de.genus, "Maus-Pokémon")
        XCTAssertTrue(de.flavorText.hasPrefix("Pikachu grüßt den Morgen"), de.flavorText)
        XCTAssertEqual(de.typeNames, ["Elektro"])
        XCTAssertEqual(de.abilityNames, ["Statik", "Blitzfänger"])
        XCTAssertEqual(de.statNames, ["KP", "Angriff", "Verteidigung", "Spezialangriff", "Spezialverteidigung", "Initiative"])
        XCTAssertEqual(de.name, "pikachu")
        XCTAssertEqual(de.types, ["electric"])
        // Its breeding and training lines: two egg groups, its game's two versions (Scarlet and
        // Violet), the Metal Coat it holds (in the mock) and the version it holds it in.
        XCTAssertEqual(try names("names"), 2 + 6 + 1 + 2 + 2 + 1 + 1,
                       "two abilities and six stats, each once, the Thunder Stone its family names, and what its training lines name")
        XCTAssertEqual(try names("filters"), 1, "and the type")

        let requests = try XCTUnwrap(try h.stats()["requests"] as? Int)
        let ja = try c.call(Pokedex1.localizedDetail, ("pikachu", "ja_JP.UTF-8"))
        XCTAssertEqual(ja.language, "ja-hrkt")
        XCTAssertEqual(ja.displayName, "ピカチュウ")
        XCTAssertEqual(ja.genus, "ねずみポケモン")
        XCTAssertEqual(ja.typeNames, ["でんき"])
        XCTAssertEqual(ja.statNames.last, "すばやさ")
        XCTAssertEqual(try h.stats()["requests"] as? Int, requests, "a second language costs no request")

        let charizard = try c.call(Pokedex1.localizedDetail, ("6", "de"))
        XCTAssertEqual(charizard.displayName, "Glurak")
        XCTAssertEqual(charizard.typeNames, ["Feuer", "Flug"])
        XCTAssertEqual(try names("names"), 15, "no ability, stat, egg group or game again, and Charizard's family names no item")
        XCTAssertEqual(try names("filters"), 1 + 2, "only the two types not seen yet")

        // A form takes its name from its pokemon-form record: its own, else its species' and its form's.
        let form = try c.call(Pokedex1.localizedDetail, ("deoxys-attack", "de"))
        XCTAssertEqual(form.displayName, "Deoxys (Angriff)")
        let formJa = try c.call(Pokedex1.localizedDetail, ("deoxys-attack", "ja-hrkt"))
        XCTAssertEqual(formJa.displayName, "デオキシス アタックフォルム")
        // English where a language has none: Korean genus of Pikachu is not in the mock.
        let ko = try c.call(Pokedex1.localizedDetail, ("pikachu", "ko"))
        XCTAssertEqual(ko.displayName, "피카츄")
        XCTAssertEqual(ko.genus, "Mouse Pokémon")

        let msg = assertBusError(errorPrefix + "InvalidArgument") { () throws(BusError) in
            _ = try c.call(Pokedex1.localizedDetail, ("pikachu", "klingon"))
        }
        XCTAssertTrue(msg.contains("zh-hant"), msg)
        // The plain Detail is what it was, with the name added.
        let plain = try c.detail("pikachu")
        XCTAssertEqual(plain.genus, "Mouse Pokémon")
        XCTAssertEqual(plain.displayName, "Pikachu")
        XCTAssertTrue(plain.typeNames.isEmpty)
    }

    func testTypesReadForTheSearchFiltersAreNotFetchedAgainForTheirNames() throws {
        try h.startDaemon()
        let c = try PokedexClient()
        _ = try c.search("type:electric", limit: 5)  // the filters, with every type's body
        let filters = try names("filters")
        XCTAssertGreaterThan(filters, 2)
        let d = try c.call(Pokedex1.localizedDetail, ("charizard", "de"))
        XCTAssertEqual(d.typeNames, ["Feuer", "Flug"])
        XCTAssertEqual(try names("filters"), filters, "the types' names came with the filters")
    }

    func testDisplayNamesComeFromTheTableBeforeAnyRecord() throws {
        try h.startDaemon(["--no-prefetch"])
        let c = try PokedexClient()
        let names = try c.call(Pokedex1.displayNames, ([29, 25, 6, 10001, 999_999], "ja-hrkt"))
        XCTAssertEqual(names.map(\.displayName), ["ニドラン♀", "ピカチュウ", "リザードン", "デオキシス アタックフォルム"],
                       "the table's; a form's from PokeAPI's Japanese form name, after its species' name that it lacks")
        XCTAssertEqual(names.map(\.name), ["nidoran-f", "pikachu", "charizard", "deoxys-attack"])
        XCTAssertEqual(names.map(\.id), [29, 25, 6, 10001], "an id that is no Pokémon is left out")
        let en = try c.call(Pokedex1.displayNames, ([29, 25], ""))
        XCTAssertEqual(en.map(\.displayName), ["Nidoran♀", "Pikachu"])
        XCTAssertEqual(try h.stats()["requests"] as? Int, 0, "not even the list: the table has every name")
    }

    func testPokectlInAGermanLocale() throws {
        guard Self.localeInstalled("de_DE.utf8") else { return XCTFail("de_DE.UTF-8 is not installed: 'make locales' makes it") }
        try h.startDaemon(["--no-prefetch"])
        let env = ["LANG": "de_DE.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "COLUMNS": "100",
                   "TEXTDOMAINDIR": Harness.packageRoot + "/.build/locale"]
        let show = try h.pokectl(["show", "--no-image", "pikachu"], env: env)
        XCTAssertEqual(show.status, 0, show.err)
        for expected in ["Pikachu", "Maus-Pokémon", "[Elektro]", "Statik, Blitzfänger", "Initiative", "Pikachu grüßt den Morgen",
                         "Größe", "Gewicht", "Fähigkeiten", "0,9 m", "8,5 kg"] {
            XCTAssertTrue(show.out.contains(expected), "\(expected) in:\n\(show.out)")
        }
        XCTAssertFalse(show.out.contains("Height"), show.out)
        let ja = try h.pokectl(["show", "--no-image", "--language", "ja", "pikachu"], env: env)
        XCTAssertTrue(ja.out.contains("ピカチュウ") && ja.out.contains("でんき"), ja.out)
        XCTAssertTrue(ja.out.contains("Größe"), "--language is for names; pokectl's words follow the locale:\n\(ja.out)")
        let list = try h.pokectl(["list", "--per-page", "30"], env: env)
        XCTAssertTrue(list.out.contains("Glurak") && list.out.contains("Nidoran♀"), list.out)
        let json = try h.pokectl(["list", "--per-page", "30", "--json"], env: env)
        XCTAssertTrue(json.out.contains(#""display_name":"Glurak","favorite":false,"id":6,"name":"charizard""#), json.out)
        let search = try h.pokectl(["search", "glurak"], env: env)
        XCTAssertTrue(search.out.contains("Glurak") && search.out.contains("lokalisierter Name (de: Glurak)"), search.out)
        let favs = try h.pokectl(["fav", "6"], env: env)
        XCTAssertTrue(favs.out.contains("Glurak"), favs.out)
        let jaSearch = try h.pokectl(["search", "--language", "ja", "リザ"], env: env)
        XCTAssertTrue(jaSearch.out.contains("リザードン"), jaSearch.out)
        let bad = try h.pokectl(["show", "--language", "klingon", "pikachu"], env: env)
        XCTAssertEqual(bad.status, 2, bad.err)
        XCTAssertTrue(bad.err.contains("ja-hrkt"), bad.err)
    }

    func testDesktopResultsInTheServicesLanguage() throws {
        try h.startDaemon(["--no-prefetch"], env: ["LANG": "de_DE.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""])
        let c = try PokedexClient()
        _ = try c.call(Pokedex1.localizedDetail, ("6", ""))  // the record, and its types' names
        var metas: [DesktopResult] = []
        for _ in 0..<50 {
            let values = try c.call(destination: Pokedex1.busName, path: SearchProvider2.objectPath, interface: SearchProvider2.interfaceName,
                                    "GetResultMetas") { w throws(BusError) in try w.append(strings: ["6", "29"]) }
            metas = try SearchProvider2.getResultMetas.decodeReply(values)
            if metas.first?.description.contains("Flug") == true { break }
            usleep(100_000)
        }
        XCTAssertEqual(metas.map(\.name), ["Glurak", "Nidoran♀"])
        // The number and the types first; the genus would pass the 32 characters a row shows.
        XCTAssertEqual(metas.first?.description, "#006 · Feuer / Flug")
        let matches = try c.call(destination: Pokedex1.busName, path: KRunner1.objectPath, interface: KRunner1.interfaceName, "Match") { w throws(BusError) in
            try w.append("glurak")
        }
        let decoded = try KRunner1.match.decodeReply(matches)
        XCTAssertEqual(decoded.first?.result.name, "Glurak")
        XCTAssertEqual(decoded.first?.result.description, "#006 · Feuer / Flug", "KRunner's narrower column: no genus")
    }

    static func localeInstalled(_ name: String) -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/locale")
        p.arguments = ["-a"]
        let out = Pipe()
        p.standardOutput = out
        guard (try? p.run()) != nil else { return false }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return text.split(separator: "\n").contains { $0.lowercased() == name.lowercased() }
    }
}
