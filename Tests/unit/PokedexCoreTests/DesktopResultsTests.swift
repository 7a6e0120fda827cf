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
        // KRunner's column: the number and the types.
        let pikachu = DesktopResult(id: 25, name: "Pikachu", description: "#025 · Electric · Mouse Pokémon", brief: "#025 · Electric",
                                    spritePath: "")
        XCTAssertEqual(pikachu.krunnerSubtext, "#025 · Electric")
        XCTAssertEqual(DesktopResult(id: 25, name: "Pikachu", description: "#025", spritePath: "").krunnerSubtext, "#025")
        // KRunner: what fits beside the name in the 27 columns its selected row shows (measured
        // on Plasma 5.27): the genus last, then the number, the types never.
        XCTAssertEqual(DesktopSearch.krunnerSubtext(name: "Mew", number: 151, types: "Psychic", genus: "New Species Pokémon"), "#151 · Psychic")
        XCTAssertEqual(DesktopSearch.krunnerSubtext(name: "Mew", number: 151, types: "Psychic", genus: "Cat"), "#151 · Psychic · Cat")
        XCTAssertEqual(DesktopSearch.krunnerSubtext(name: "Glurak", number: 6, types: "Feuer / Flug", genus: "Flammen-Pokémon"),
                       "#006 · Feuer / Flug")
        XCTAssertEqual(DesktopSearch.krunnerSubtext(name: "Charizard", number: 6, types: "Fire / Flying", genus: "Flame Pokémon"),
                       "#006 · Fire/Flying", "closer, so both types stay")
        XCTAssertEqual(DesktopSearch.krunnerSubtext(name: "Gigantamax Charizard", number: 6, types: "Fire / Flying", genus: "Flame Pokémon"),
                       "Fire/Flying", "a long name: the types alone")
        XCTAssertEqual(DesktopSearch.krunnerSubtext(name: "ピカチュウ", number: 25, types: "でんき", genus: "ねずみポケモン"),
                       "#025 · でんき", "CJK letters count two columns")
        XCTAssertEqual(DesktopSearch.krunnerSubtext(name: "ハードロック・ピカチュウ", number: 25, types: "でんき", genus: "ねずみポケモン"),
                       "でんき", "nothing fits: the types still")
        XCTAssertEqual(DesktopSearch.krunnerSubtext(name: "Pikachu", number: 25, types: nil, genus: nil), "#025")
        // Whatever the words, never past the column.
        let long = String(repeating: "Ü", count: 40)
        for (types, genus) in [(long, long), ("Psychic / Fairy", long), (nil, long), ("Elektro", "Maus-Pokémon")] {
            XCTAssertLessThanOrEqual(DesktopSearch.subtext(number: 1025, types: types, genus: genus).count, DesktopSearch.subtextLength)
        }
    }

    func testKRunnersIconsAreShrunkToFitWithoutDarkFringes() {
        // 96×60: red where opaque, a transparent black border a pixel wide.
        var pixels = [UInt8]()
        for y in 0..<60 { for x in 0..<96 { pixels += (x == 0 || y == 0) ? [0, 0, 0, 0] : [255, 0, 0, 255] } }
        let icon = RGBAImage(width: 96, height: 60, pixels: pixels).shrunk(toFit: DesktopIcons.maxSide)
        XCTAssertEqual([icon.width, icon.height], [48, 30], "the shape kept")
        XCTAssertEqual(icon.pixel(0, 0).r, 255, "no black from the transparent border")
        XCTAssertEqual(icon.pixel(0, 0).a, 63, "a quarter opaque: one of four pixels")
        XCTAssertTrue(icon.pixel(47, 29) == (255, 0, 0, 255))
        let small = RGBAImage(width: 20, height: 30, pixels: Array(repeating: 9, count: 20 * 30 * 4))
        XCTAssertEqual(small.shrunk(toFit: 48), small, "already fits")
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
        for language in ["en", "de", "ja", "ko", "zh-hans"] {
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
        XCTAssertEqual(DesktopSearch.intersect([pika]).map(\.item.id), [25, 731, 172, 10080, 10081, 10082],
                       "a name that starts almost alike fills the first screen, before the forms")
        // Enough species to fill the first screen: typos go.
        let ch = [hit(4, "charmander", .prefix), hit(5, "charmeleon", .prefix), hit(6, "charizard", .prefix),
                  hit(595, "joltik", .localized), hit(935, "charcadet", .prefix), hit(441, "chatot", .fuzzy)]
        XCTAssertEqual(DesktopSearch.intersect([ch]).map(\.item.id), [4, 5, 6, 935, 595])
        // A name given whole wants that Pokémon, not its look-alikes.
        let mew = [hit(151, "mew", .exact), hit(150, "mewtwo", .prefix), hit(10001, "mew-form", .prefix), hit(52, "meowth", .fuzzy)]
        XCTAssertEqual(DesktopSearch.intersect([mew]).map(\.item.id), [151, 150, 10001])
        // Only look-alikes of forms and other species: as many as fit, and no form's.
        let near = (0..<8).map { (n: Int) in hit(UInt32(700 + n), "near\(n)", .fuzzy) }
        let few = [hit(25, "pikachu", .prefix)] + near + [hit(10080, "pikachu-rock-star", .fuzzy)]
        XCTAssertEqual(DesktopSearch.intersect([few]).map(\.item.id), [25, 700, 701, 702, 703])
        // Then the family of the species whose API name the query holds, up to the first screen.
        let family: DesktopSearch.Relatives = { item in
            item.id == 25 ? [.init(id: 172, name: "pichu"), .init(id: 26, name: "raichu")] : item.id == 938 ? [.init(id: 939, name: "bellibolt")] : []
        }
        let real = [hit(25, "pikachu", .prefix), hit(10080, "pikachu-rock-star", .prefix),
                    SearchHit(item: .init(id: 938, name: "tadbulb"), match: .localized, matched: "ズピカ", language: "ja", distance: 0),
                    SearchHit(item: .init(id: 731, name: "pikipek"), match: .fuzzy, matched: "pikipek", language: "", distance: 1)]
        let shown = DesktopSearch.intersect([real], relatives: family)
        XCTAssertEqual(shown.map(\.item.id), [25, 938, 731, 172, 26, 10080], "not Bellibolt: Tadbulb was found by its Japanese name")
        XCTAssertEqual(shown.map(\.match)[3...4], [.related, .related])
        XCTAssertEqual(DesktopSearch.intersect([[hit(25, "pikachu", .exact)]], relatives: family).map(\.item.id), [25],
                       "a name given whole: that Pokémon")
        // Nothing found as typed: the typos, species first.
        let typos = [hit(10080, "pikachu-rock-star", .fuzzy), hit(25, "pikachu", .fuzzy)]
        XCTAssertEqual(DesktopSearch.intersect([typos]).map(\.item.id), [25, 10080])
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

    /// A form PokeAPI names in no word of the reader's language: its species' name there,
    /// told from the species' own row without an English word (Japanese rows said "Partner
    /// Eevee": issue 56).
    func testAFormWithNoNameInTheLanguageIsNamedInItNotInEnglish() {
        XCTAssertEqual(DisplayNames.name(id: 10159, apiName: "eevee-starter", language: "en"), "Partner Eevee")
        XCTAssertEqual(DisplayNames.name(id: 10159, apiName: "eevee-starter", language: "de"), "Partner Evoli")
        let ja = DistinctNames.name(DisplayNames.name(id: 10159, apiName: "eevee-starter", language: "ja"), id: 10159,
                                    apiName: "eevee-starter", language: "ja")
        XCTAssertTrue(ja.hasPrefix("イーブイ ("), ja)
        func englishWord(_ s: String) -> Bool {
            // Two Latin letters in a row: a word ("メガアブソルZ" writes the games' own letter).
            zip(s, s.dropFirst()).contains { $0.isASCII && $0.isLetter && $1.isASCII && $1.isLetter }
        }
        XCTAssertFalse(englishWord(ja), ja)
        for language in ["ja", "ko", "zh-hans"] {
            for (id, entry) in BundledNames.entries where !PokemonID.isDefaultForm(id) {
                let name = DistinctNames.name(DisplayNames.name(id: id, apiName: entry.identifier, language: language), id: id,
                                              apiName: entry.identifier, language: language)
                XCTAssertFalse(englishWord(name), "#\(id) \(entry.identifier) in \(language): \(name)")
            }
        }
    }

    /// KRunner's star button shows the row's state: empty to add, filled to remove.
    func testTheStarShowsWhetherItIsAFavorite() {
        XCTAssertEqual(KRunnerAction.all(favorite: false).first?.icon, "non-starred-symbolic")
        XCTAssertEqual(KRunnerAction.all(favorite: false).first?.id, "favorite")
        XCTAssertEqual(KRunnerAction.all(favorite: true).first?.icon, "starred-symbolic")
        XCTAssertEqual(KRunnerAction.all(favorite: true).first?.id, "unfavorite")
    }
}
