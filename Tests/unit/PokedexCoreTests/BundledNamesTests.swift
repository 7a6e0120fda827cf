import Foundation
import PokedexModels
import XCTest
@testable import PokedexCore

/// The names shipped with the service (tools/gen-name-table.py): as the games write them.
final class BundledNamesTests: XCTestCase {
    func testNamesAsTheGamesWriteThem() {
        let cases: [(UInt32, String, String)] = [
            (122, "mr-mime", "Mr. Mime"), (83, "farfetchd", "Farfetch’d"), (772, "type-null", "Type: Null"),
            (29, "nidoran-f", "Nidoran♀"), (32, "nidoran-m", "Nidoran♂"), (669, "flabebe", "Flabébé"),
            (250, "ho-oh", "Ho-Oh"), (474, "porygon-z", "Porygon-Z"), (10199, "pikachu-gmax", "Gigantamax Pikachu"),
            (10100, "raichu-alola", "Alolan Raichu"), (10080, "pikachu-rock-star", "Pikachu Rock Star"),
            (386, "deoxys-normal", "Deoxys"),
        ]
        for (id, apiName, written) in cases {
            XCTAssertEqual(DisplayNames.name(id: id, apiName: apiName), written, apiName)
        }
    }

    func testOtherLanguagesAndTheFallbackToEnglish() {
        XCTAssertEqual(DisplayNames.name(id: 25, apiName: "pikachu", language: "ja-hrkt"), "ピカチュウ")
        XCTAssertEqual(DisplayNames.name(id: 6, apiName: "charizard", language: "de"), "Glurak")
        XCTAssertEqual(DisplayNames.name(id: 122, apiName: "mr-mime", language: "fr"), "M. Mime")
        XCTAssertEqual(DisplayNames.name(id: 25, apiName: "pikachu", language: "de"), "Pikachu", "the same in German")
        XCTAssertEqual(DisplayNames.name(id: 25, apiName: "pikachu", language: "xx"), "Pikachu", "an unknown language: English")
        // A form without a Korean name: its species' Korean one, never an English word in a
        // Korean row (issue 56); DistinctNames tells it from Pikachu's own row.
        XCTAssertEqual(DisplayNames.name(id: 10080, apiName: "pikachu-rock-star", language: "ko"), "피카츄")
        XCTAssertNotEqual(DistinctNames.name("피카츄", id: 10080, apiName: "pikachu-rock-star", language: "ko"), "피카츄")
        XCTAssertEqual(DisplayNames.name(id: 10080, apiName: "pikachu-rock-star", language: "es"), "Pikachu Rock Star",
                       "in a Latin script, the English name where the table has no other")
    }

    func testARecordWinsAndAMismatchedRowIsNotUsed() {
        let record = SpeciesRecord(id: 25, name: "pikachu", genus: "", flavorText: "", names: ["en": "Pikachu (new)"])
        XCTAssertEqual(DisplayNames.name(id: 25, apiName: "pikachu", species: record), "Pikachu (new)")
        XCTAssertEqual(DisplayNames.name(id: 10080, apiName: "pikachu-rock-star", species: record), "Pikachu Rock Star",
                       "a form keeps its own name beside its species' record")
        XCTAssertEqual(DisplayNames.name(id: 25, apiName: "mon-25"), "Mon 25", "an id the API now gives another Pokémon")
        XCTAssertEqual(DisplayNames.name(id: 99_999, apiName: "some-new-form"), "Some New Form")
        XCTAssertEqual(DisplayNames.name(id: 10080, apiName: "pikachu-rock"), "Pikachu Rock", "a form's row is for its own name only")
        XCTAssertEqual(DisplayNames.name(id: 137, apiName: "porygon-z"), "Porygon Z", "nor a species' row for another Pokémon")
        XCTAssertEqual(DisplayNames.name(id: 386, apiName: "deoxys"), "Deoxys", "the list's name is deoxys-normal; made from the identifier")
    }

    /// Every species PokeAPI lists (1…1025) has its English name, and every form row names a
    /// species the table has; ids and identifiers are unique.
    func testTheTableIsWhole() {
        let table = BundledNames.entries
        for id in UInt32(1)...1025 {
            guard let e = table[id] else { XCTFail("no species \(id)"); continue }
            XCTAssertTrue(e.isSpecies, "\(id)")
            XCTAssertFalse(e.names["en", default: ""].isEmpty, "\(id)")
            XCTAssertEqual(Set(e.names.keys), Set(BundledNames.columns), "\(id): every language, English where none")
        }
        for (id, e) in table where !e.isSpecies {
            XCTAssertGreaterThanOrEqual(id, PokemonID.firstAlternateForm)
            XCTAssertNotNil(table[e.species], "form \(id) of an unknown species")
        }
        XCTAssertEqual(Set(table.values.map(\.identifier)).count, table.count, "identifiers are unique")
    }

    /// Against PokeAPI's dump where this machine has one (../shared, unpacked by serve.py):
    /// each species' English name in the table is its record's. Skipped elsewhere.
    func testTheTableMatchesPokeAPIsDump() throws {
        let fm = FileManager.default
        let base = ProcessInfo.processInfo.environment["POKEAPI_EMU_CACHE"] ?? "/tmp/pokeapi-emulator"
        guard let dir = (try? fm.contentsOfDirectory(atPath: base))?.map({ "\(base)/\($0)/data/api/v2" })
            .first(where: { fm.fileExists(atPath: "\($0)/pokemon-species/1/index.json") }) else {
            throw XCTSkip("no unpacked PokeAPI dump under \(base) (../shared/pokeapi/serve.py makes one)")
        }
        struct Species: Decodable {
            struct Name: Decodable { struct Language: Decodable { var name: String }; var name: String; var language: Language }
            struct Variety: Decodable { struct Pokemon: Decodable { var name: String }; var is_default: Bool; var pokemon: Pokemon }
            var id: UInt32; var name: String; var names: [Name]; var varieties: [Variety]
        }
        for id in 1...1025 {
            let body = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/pokemon-species/\(id)/index.json"))
            let s = try JSONDecoder().decode(Species.self, from: body)
            let english = s.names.first { $0.language.name == "en" }?.name
            XCTAssertEqual(BundledNames.entries[s.id]?.names["en"], english, s.name)
            XCTAssertEqual(BundledNames.entries[s.id]?.identifier, s.varieties.first { $0.is_default }?.pokemon.name ?? s.name)
        }
    }
}
