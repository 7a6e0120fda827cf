@testable import PokedexCore
import PokedexModels
@testable import PokedexTerminal
import PokedexTestKit
import XCTest

/// Every card there is, rendered: every species and form the service ships, in English, German
/// and Japanese, its family as its own card shows it, with the games' words for items, moves and
/// games: no word made from an identifier ("Kings Rock", "Thunder Stone" in a Japanese card, a
/// trigger's identifier), and its number as the games give it.
final class EveryCardWordsTests: XCTestCase {
    func testNoCardSaysAWordMadeFromAnIdentifier() {
        // Each item's and move's name made from its identifier, where it is not the games' word.
        var made: [String: [String]] = [:]
        for language in ["en", "de", "ja"] {
            for kind in ["item", "move"] {
                for (id, names) in MockData.terms[kind] ?? [:] {
                    let title = PokemonNames.title(id)
                    if title != LocalizedText.pick(names, language) { made[language, default: []].append(title) }
                }
            }
        }
        let triggers = MockData.terms["evolution-trigger"]?.keys.filter { $0.contains("-") } ?? []
        var cards = 0, families = 0
        var failures: [String] = []
        for (id, entry) in BundledNames.entries.sorted(by: { $0.key < $1.key }) {
            guard let chain = Evolutions.chainID(speciesID: entry.species, species: nil) else { continue }
            for language in ["en", "de", "ja"] {
                let words = MockData.words(language)
                var d = PokemonDetail(id: id, name: entry.identifier, height: 10, weight: 100, types: [], abilities: [], stats: [],
                                      spritePath: "", favorite: false, genus: "", flavorText: "")
                d.number = entry.species
                d.language = language
                d.displayName = entry.names[language] ?? entry.identifier
                d.evolution = MockData.family(chain, subject: PokemonRef(id: id, name: entry.identifier), speciesID: entry.species,
                                              language: language, words: words)
                let text = DetailCard(detail: d, image: nil, width: 120, mode: .none, words: words).render().joined(separator: "\n")
                cards += 1
                if d.evolution.count > 1 { families += 1 }
                for word in made[language] ?? [] where text.contains(word) { failures.append("\(entry.identifier) [\(language)]: \"\(word)\"") }
                for trigger in triggers where text.contains(trigger) { failures.append("\(entry.identifier) [\(language)]: \(trigger)") }
                if !text.contains(PokemonID.display(entry.species)) { failures.append("\(entry.identifier) [\(language)]: not numbered #\(entry.species)") }
            }
        }
        XCTAssertEqual(failures, [])
        XCTAssertEqual(cards, 1343 * 3, "every species and form the service ships, in three languages")
        XCTAssertGreaterThan(families, 2400)
    }
}
