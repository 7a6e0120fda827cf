import PokedexModels
import XCTest
@testable import PokedexCore

/// Issue 36: every command that takes a Pokémon takes what a person reads. For every species
/// the games have, its name as pokectl shows it in German, Japanese (kana and kanji) and French
/// resolves, as `show` and `fav` resolve it (``PokedexService/resolve(_:)``: the list's names,
/// then a whole name in any language, the reader's first), to that species and no other.
///
/// Under a sanitizer (`POKEDEX_SANITIZER`, `make check-sanitizers`) German alone: the table
/// through pure Swift takes 40–60 s there, for memory and threads other tests reach as well;
/// the plain unit tier checks all four languages.
final class NamesResolveTests: XCTestCase {
    static let languages = ProcessInfo.processInfo.environment["POKEDEX_SANITIZER"] == nil ? ["de", "ja-hrkt", "ja", "fr"] : ["de"]

    func testEveryDisplayNameInGermanJapaneseAndFrenchNamesItsSpecies() throws {
        let entries = BundledNames.entries
        let items = entries.sorted { $0.key < $1.key }.map { PokemonIndex.Item(id: $0.key, name: $0.value.identifier) }
        let index = PokemonIndex(items: items, total: UInt32(items.count))
        var localized: [UInt32: [String: String]] = [:]
        for (id, e) in entries where e.isSpecies { localized[id] = e.names }
        let search = SearchIndex(index: index, localized: localized)
        let species = entries.filter { $0.value.isSpecies }.keys.sorted()
        XCTAssertGreaterThanOrEqual(species.count, 1025, "every species the games have")

        var checked = 0, wrong: [String] = []
        for language in Self.languages {
            for id in species {
                guard let name = entries[id]?.names[language] else { continue }
                let resolved: PokemonIndex.Item? = (try? Catalog.resolve(Catalog.normalize(name), original: name, in: index))
                    ?? search.named(name, preferring: language)
                checked += 1
                if resolved?.id != id { wrong.append("\(language) \"\(name)\" → \(resolved.map { "#\($0.id) \($0.name)" } ?? "nothing"), not #\(id)") }
            }
        }
        XCTAssertEqual(wrong, [], "\(wrong.count) of \(checked) names")
        XCTAssertGreaterThanOrEqual(checked, Self.languages.count * 1025)
    }
}
