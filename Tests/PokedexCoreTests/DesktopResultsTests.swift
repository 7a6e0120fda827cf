import XCTest
@testable import PokedexCore

/// What a person sees in GNOME Shell's and KRunner's rows (issue 27): forms that say which
/// form and show their species' number, species before forms, subtexts that fit.
final class DesktopResultsTests: XCTestCase {
    func hit(_ id: UInt32, _ name: String, _ match: MatchKind) -> SearchHit {
        SearchHit(item: .init(id: id, name: name), match: match, matched: name, language: "", distance: 0)
    }

    func testSubtextsFitTheirColumnAndPutWhatTellsRowsApartFirst() {
        XCTAssertEqual(DesktopSearch.subtext(number: 25, types: "Electric", genus: "Mouse Pokémon"), "#025 · Electric · Mouse Pokémon")
        XCTAssertEqual(DesktopSearch.subtext(number: 6, types: "Fire / Flying", genus: "Flame Pokémon"), "#006 · Fire / Flying")
        XCTAssertEqual(DesktopSearch.subtext(number: 25, types: nil, genus: nil), "#025")
        XCTAssertEqual(DesktopSearch.subtext(number: 10, types: nil, genus: "Worm Pokémon"), "#010 · Worm Pokémon")
        // Whatever the words, never past the column.
        let long = String(repeating: "Ü", count: 40)
        for (types, genus) in [(long, long), ("Psychic / Fairy", long), (nil, long), ("Elektro", "Maus-Pokémon")] {
            XCTAssertLessThanOrEqual(DesktopSearch.subtext(number: 1025, types: types, genus: genus).count, DesktopSearch.subtextLength)
        }
    }

    func testAFormShowsItsSpeciesNumber() {
        XCTAssertEqual(DesktopSearch.pokedexNumber(.init(id: 10080, name: "pikachu-rock-star"), species: nil), 25)
        XCTAssertEqual(DesktopSearch.pokedexNumber(.init(id: 25, name: "pikachu"), species: nil), 25)
        // A form the table does not know: its species record's number, else its own id.
        let vulpix = SpeciesRecord(id: 37, name: "vulpix", genus: "", flavorText: "", names: [:])
        XCTAssertEqual(DesktopSearch.pokedexNumber(.init(id: 19999, name: "vulpix-new"), species: vulpix), 37)
        XCTAssertEqual(DesktopSearch.pokedexNumber(.init(id: 19999, name: "vulpix-new"), species: nil), 19999)
        // A renumbered Pokémon takes no table row: its own id, not another's species.
        XCTAssertEqual(DesktopSearch.pokedexNumber(.init(id: 10080, name: "some-other-form"), species: nil), 10080)
        XCTAssertEqual(DistinctNames.name("10% Zygarde", id: 10118, apiName: "renamed-form", language: "en"), "10% Zygarde")
    }

    /// Every form carries a name of its own: no two of Pikachu's rows (or any species') read
    /// the same, in English or in German.
    func testNoTwoFormsOfASpeciesShareAName() {
        for language in ["en", "de"] {
            var seen: [UInt32: [String: UInt32]] = [:]
            for (id, entry) in BundledNames.entries {
                let name = DistinctNames.name(DisplayNames.name(id: id, apiName: entry.identifier, language: language),
                                              id: id, apiName: entry.identifier, language: language)
                if let other = seen[entry.species]?[name] {
                    XCTFail("#\(id) and #\(other) are both shown as \(name) (\(language))")
                }
                seen[entry.species, default: [:]][name] = id
            }
        }
        XCTAssertEqual(DisplayNames.name(id: 10080, apiName: "pikachu-rock-star", language: "en"), "Pikachu Rock Star")
        XCTAssertEqual(DistinctNames.name("10% Zygarde", id: 10118, apiName: "zygarde-10-power-construct", language: "en"),
                       "10% Zygarde (10 Power Construct)")
        XCTAssertEqual(DistinctNames.name("Pikachu Rock Star", id: 10080, apiName: "pikachu-rock-star", language: "en"),
                       "Pikachu Rock Star", "a name no other row has is left alone")
    }

    /// "pika": Pikachu and Pikipek before Pikachu's costumes, whatever the index's order among
    /// prefix matches; a match that is better stays first, form or not ("alola").
    func testSpeciesComeBeforeFormsAmongMatchesAsGood() {
        let pika = [hit(25, "pikachu", .prefix), hit(10080, "pikachu-rock-star", .prefix), hit(10081, "pikachu-belle", .prefix),
                    hit(731, "pikipek", .prefix), hit(10082, "pikachu-pop-star", .substring), hit(172, "pichu", .fuzzy)]
        XCTAssertEqual(DesktopSearch.intersect([pika]).map(\.item.id), [25, 731, 10080, 10081, 10082], "typos go when others are there")
        // Every species before the forms, even one found less well (Tadbulb: ズピカ).
        let zupika = [hit(25, "pikachu", .prefix), hit(10080, "pikachu-rock-star", .prefix), hit(938, "tadbulb", .localized)]
        XCTAssertEqual(DesktopSearch.intersect([zupika]).map(\.item.id), [25, 938, 10080])
        let alola = [hit(10091, "rattata-alola", .substring), hit(10100, "raichu-alola", .substring), hit(19, "rattata", .fuzzy)]
        XCTAssertEqual(DesktopSearch.intersect([alola]).map(\.item.id), [10091, 10100], "the forms the query names come first")
        let vulpixAlola = [hit(37, "vulpix", .prefix), hit(10103, "vulpix-alola", .prefix)]
        XCTAssertEqual(DesktopSearch.intersect([vulpixAlola]).map(\.item.id), [37, 10103])
        // Two terms: the same rule among hits whose worst term matched as well.
        let first = [hit(10080, "pikachu-rock-star", .prefix), hit(25, "pikachu", .prefix)]
        let again = [hit(25, "pikachu", .prefix), hit(10080, "pikachu-rock-star", .prefix)]
        XCTAssertEqual(DesktopSearch.intersect([first, again]).map(\.item.id), [25, 10080])
    }
}
