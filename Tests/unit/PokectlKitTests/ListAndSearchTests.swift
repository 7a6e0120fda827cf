import PokedexBusClient
import XCTest
@testable import PokectlKit

/// `list` and `search`: text and JSON, in English and German, and their errors.
final class ListAndSearchTests: XCTestCase {
    private func listing() -> FakeService {
        let fake = Fixtures.service()
        fake.on(Pokedex1.listPage) { (offset, limit) in
            XCTAssertEqual(limit, 20)
            return offset == 0 ? ListPage(total: 1351, entries: [Fixtures.bulbasaur, Fixtures.charizard, Fixtures.pikachu])
                : ListPage(total: 1351, entries: [])
        }
        return fake
    }

    func testListPrintsATableAndThePage() {
        let ran = Harness.run(["list"], listing())
        XCTAssertEqual(ran.code, 0)
        XCTAssertEqual(ran.out, """
            #   ★  NAME       SPRITE
            1      Bulbasaur  /cache/sprites/1.png
            6      Charizard  /cache/sprites/6.png
            25  ★  Pikachu    /cache/sprites/25.png
            page 1 of 68 · 1351 Pokémon

            """)
        XCTAssertEqual(ran.err, "")
    }

    func testListInGermanNamesAndWords() {
        let ran = Harness.run(["list"], listing(), words: Harness.german, language: "de")
        XCTAssertEqual(ran.code, 0)
        XCTAssertTrue(ran.out.contains("Bisasam"), ran.out)
        XCTAssertTrue(ran.out.contains("Glurak"), ran.out)
        XCTAssertTrue(ran.out.hasSuffix("Seite 1 von 68 · 1351 Pokémon\n"), ran.out)
    }

    func testListJSON() {
        let ran = Harness.run(["list", "--json"], listing())
        XCTAssertEqual(ran.code, 0)
        XCTAssertEqual(ran.out, """
            {"entries":[{"display_name":"Bulbasaur","favorite":false,"id":1,"name":"bulbasaur","number":1,"sprite_path":"/cache/sprites/1.png"},\
            {"display_name":"Charizard","favorite":false,"id":6,"name":"charizard","number":6,"sprite_path":"/cache/sprites/6.png"},\
            {"display_name":"Pikachu","favorite":true,"id":25,"name":"pikachu","number":25,"sprite_path":"/cache/sprites/25.png"}],\
            "page":1,"per_page":20,"total":1351}

            """)
    }

    func testListJSONInGermanHasTheGermanDisplayNames() {
        let ran = Harness.run(["list", "--json"], listing(), words: Harness.german, language: "de")
        XCTAssertTrue(ran.out.contains("\"display_name\":\"Glurak\""), ran.out)
        XCTAssertTrue(ran.out.contains("\"name\":\"charizard\""), ran.out)
    }

    func testAPagePastTheEndIsNotFound() {
        let ran = Harness.run(["list", "--page", "99"], listing())
        XCTAssertEqual(ran.code, 1)
        XCTAssertEqual(ran.out, "")
        XCTAssertTrue(ran.err.hasPrefix("pokectl: "), ran.err)
        XCTAssertTrue(ran.err.contains("68"), ran.err)
    }

    func testListUsageErrors() {
        let ran = Harness.run(["list", "--page", "0"], listing())
        XCTAssertEqual(ran.code, 2)
        XCTAssertTrue(ran.err.contains("--page starts at 1"), ran.err)
        XCTAssertEqual(Harness.run(["list", "--per-page", "101"], listing()).code, 2)
        XCTAssertEqual(Harness.run(["list", "--bogus"], listing()).code, 2)
    }

    private func searching(_ matches: [SearchMatch]) -> FakeService {
        let fake = Fixtures.service()
        fake.on(Pokedex1.searchDetailed) { (query, limit) in
            XCTAssertEqual(limit, 10)
            return matches
        }
        fake.set(Pokedex1.searchCoverage, (UInt32(40), UInt32(1025)))
        return fake
    }

    private static let matches = [
        SearchMatch(entry: Fixtures.charizard, match: "exact", matchedName: "", language: "", distance: 0),
        SearchMatch(entry: Fixtures.pikachu, match: "fuzzy", matchedName: "", language: "", distance: 2),
    ]

    func testSearchText() {
        let ran = Harness.run(["search", "charizard"], searching(Self.matches))
        XCTAssertEqual(ran.code, 0)
        XCTAssertEqual(ran.out, """
            #   ★  NAME       MATCH
            6      Charizard  exact
            25  ★  Pikachu    near miss (2 typos)
            other languages searched for 40 of 1025 species; 'pokectl sync' indexes them all

            """)
    }

    func testSearchTextInGerman() {
        let de = Harness.german
        let ran = Harness.run(["search", "charizard"], searching(Self.matches), words: de, language: "de")
        XCTAssertEqual(ran.code, 0)
        XCTAssertTrue(ran.out.contains("Glurak"), ran.out)
        XCTAssertTrue(ran.out.contains(de.tr("near miss")), ran.out)
        XCTAssertNotEqual(de.tr("near miss"), "near miss", "the German catalogue (make catalogues)")
        XCTAssertTrue(ran.out.contains(de.trf("other languages searched for %s of %s species; 'pokectl sync' indexes them all", "40", "1025")))
    }

    func testSearchJSONPassesTheServiceReplyOn() {
        let ran = Harness.run(["search", "charizard", "--type", "fire", "--json"], searching(Self.matches))
        XCTAssertEqual(ran.code, 0)
        XCTAssertTrue(ran.out.hasPrefix("{\"coverage\":{\"localized\":40,\"species\":1025},\"query\":\"charizard type:fire\",\"results\":["), ran.out)
        XCTAssertTrue(ran.out.contains("\"charizard\""), ran.out)
        XCTAssertTrue(ran.out.contains("\"fuzzy\""), ran.out)
    }

    func testSearchFindingNothingIsNotFound() {
        let ran = Harness.run(["search", "xyz", "--gen", "1"], searching([]))
        XCTAssertEqual(ran.code, 1)
        XCTAssertEqual(ran.err, "pokectl: no Pokémon matches \"xyz\" in generation 1\n")
        let de = Harness.german
        let german = Harness.run(["search", "xyz", "--gen", "1"], searching([]), words: de, language: "de")
        XCTAssertEqual(german.code, 1)
        XCTAssertEqual(german.err, "pokectl: " + de.trf("no Pokémon matches \"%s\"", "xyz") + " " + de.trf("in generation %s", "1") + "\n")
    }

    func testSearchUsage() {
        XCTAssertEqual(Harness.run(["search"], searching([])).code, 2)
        XCTAssertEqual(Harness.run(["search", "a", "--gen", "10"], searching([])).code, 2)
        XCTAssertEqual(Harness.run(["search", "a", "--limit", "0"], searching([])).code, 2)
    }
}
