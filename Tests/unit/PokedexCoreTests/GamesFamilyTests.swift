import Foundation
@testable import PokedexCore
import PokedexModels
import PokedexTestKit
import XCTest

/// Every Pokémon's family, as its own card shows it, against the games' facts
/// (`Fixtures/games-pokedex.tsv`, written from the games, not from PokeAPI): for each of the
/// 1,328 Pokémon and forms, the member it evolves from and every fact of how, in English, German
/// and Japanese, with the games' words for items, moves and games.
final class GamesFamilyTests: XCTestCase {
    struct Row {
        var pokemon: String
        var number: UInt32
        var types: [String]
        var abilities: [String]
        var from: String
        var facts: [String]
    }

    static let rows: [Row] = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/games-pokedex.tsv").path
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 6, let number = UInt32(f[1]) else { return nil }
            return Row(pokemon: f[0], number: number, types: f[2].split(separator: "/").map(String.init),
                       abilities: f[3].split(separator: "/").map(String.init), from: f[4],
                       facts: f[5].split(separator: " ").map(String.init))
        }
    }()

    static let chains: [UInt32: EvolutionChainRecord] = MockData.chainBodies.compactMapValues { try? APIDecoding.evolutionChain($0) }

    /// The family on the card of `row`'s Pokémon in `language`, and the member it is.
    func card(_ row: Row, _ language: String) -> (members: [EvolutionMember], own: Int?)? {
        guard let id = BundledNames.pokemonID(named: row.pokemon), let species = BundledNames.entries[id]?.species,
              let chainID = Evolutions.chainID(speciesID: species, species: nil), let chain = Self.chains[chainID] else { return nil }
        let members = Evolutions.members(chain, subject: PokemonRef(id: id, name: row.pokemon), speciesID: species, language: language,
                                         words: MockData.words(language), species: nil,
                                         terms: { MockData.termName($0.rawValue, $1, language: language) })
        var detail = PokemonDetail(id: id, name: row.pokemon, height: 0, weight: 0, types: [], abilities: [], stats: [], spritePath: "",
                                   favorite: false, genus: "", flavorText: "")
        detail.evolution = members
        return (members, detail.ownFamilyIndex)
    }

    func testTheTableIsWhole() {
        XCTAssertEqual(Self.rows.count, 1328)
        XCTAssertEqual(Self.rows.filter { !$0.from.isEmpty }.count, 526)
        XCTAssertEqual(Self.chains.count, 541)
    }

    /// Each Pokémon's card: its member, the member it evolves from, and every fact of how in
    /// English; in German and Japanese the levels, counts and the games' names of items, moves
    /// and games. Every disagreement is listed; the goal is none, and at most 1 %.
    func testEveryFamilyStepAgreesWithTheGames() {
        var checked = 0
        var failures: [String] = []
        for row in Self.rows where !row.from.isEmpty {
            for language in ["en", "de", "ja"] {
                guard let (members, own) = card(row, language), let own else {
                    failures.append("\(row.pokemon) [\(language)]: not on its own card")
                    continue
                }
                checked += 1
                let m = members[own]
                let problems = self.problems(row, m, members, language)
                if !problems.isEmpty { failures.append("\(row.pokemon) [\(language)] \"\(m.trigger)\": " + problems.joined(separator: "; ")) }
            }
        }
        let share = Double(failures.count) / Double(max(1, checked))
        XCTAssertEqual(failures, [], "\(failures.count) of \(checked) steps disagree with the games (\(Int(share * 1000)) ‰)")
        XCTAssertLessThanOrEqual(share, 0.01)
        XCTAssertEqual(checked, 526 * 3)
    }

    /// What in `m`'s words (or its place in the family) the games contradict.
    func problems(_ row: Row, _ m: EvolutionMember, _ members: [EvolutionMember], _ language: String) -> [String] {
        var out: [String] = []
        guard let parent = members.first(where: { $0.id == m.from }) else { return ["evolves from nothing"] }
        guard let fromID = BundledNames.pokemonID(named: row.from) else { return ["the table's \(row.from) is unknown"] }
        // The member it evolves from: that Pokémon, or its species where it stands with it.
        let wantSpecies = BundledNames.entries[fromID]?.species, haveSpecies = BundledNames.entries[parent.id]?.species ?? parent.id
        if wantSpecies != haveSpecies || (FormFamily.region(of: row.from) != nil && parent.id != fromID) {
            out.append("from \(parent.name), not \(row.from)")
        }
        let text = m.trigger
        func has(_ s: String) -> Bool { text.range(of: s, options: .caseInsensitive) != nil }
        func need(_ s: String, _ fact: String) { if !has(s) { out.append("\(fact): no \"\(s)\"") } }
        func term(_ kind: String, _ id: String) -> String { MockData.termName(kind, id, language: language) ?? "?\(id)" }
        let english = language == "en"
        for fact in row.facts {
            let parts = fact.split(separator: "=", maxSplits: 1).map(String.init)
            let key = parts[0], value = parts.count > 1 ? parts[1] : ""
            switch key {
            case "level": english ? need("level \(value)", fact) : need(value, fact)
            case "item", "held": need(EvolutionFacts.gamesSpelling(.item, value, term("item", value)), fact)
            case "move", "use-move": need(term("move", value), fact)
            case "count", "damage", "recoil", "coins", "steps": need(value, fact)
            case "game": for v in value.split(separator: ",") { need(term("version", String(v)), fact) }
            case "region" where english: need("in \(value.capitalized)", fact)
            case "from-form" where english:
                need(BundledNames.pokemonID(named: value).flatMap { BundledNames.entries[$0]?.names["en"] } ?? value, fact)
            case "party" where english, "trade-for" where english:
                need(BundledNames.speciesID(named: value).flatMap { BundledNames.entries[$0]?.names["en"] } ?? value, fact)
            case "party-type" where english, "move-type" where english: need(value.capitalized, fact)
            case _ where !english: continue
            case "trade": need("trade", fact)
            case "friendship": need("friendship", fact)
            case "affection": need("affection", fact)
            case "beauty": need("beauty", fact)
            case "time":
                need(["day": "daytime", "night": "at night", "dusk": "at dusk", "full-moon": "full moon"][value] ?? value, fact)
            case "rain": need("rain", fact)
            case "gender":
                if !text.split(whereSeparator: { !$0.isLetter }).contains(Substring(value)) { out.append("\(fact): not said") }
            case "stats": need([">": "Attack > Defense", "<": "Attack < Defense", "=": "Attack = Defense"][value] ?? value, fact)
            case "upside-down": need("upside down", fact)
            case "place": need(["magnetic-field": "magnetic field", "moss-rock": "Moss Rock", "ice-rock": "Ice Rock"][value] ?? value, fact)
            case "style": need(value, fact)
            case "spin": need("spin", fact)
            case "crits": need("three critical hits", fact)
            case "tower": need("Tower of \(value.capitalized)", fact)
            case "bisharp": need("three Bisharp", fact)
            case "union-circle": need("Union Circle", fact)
            case "shed": need("appears when \(parent.displayName) evolves", fact)
            case "nature": need("nature", fact)
            case "cloak": need("cloak", fact)
            case "chance": need("by chance", fact)
            default: out.append("\(fact): a fact the test does not know")
            }
        }
        // The games' words, never one made from an identifier (where the games' differs).
        for kind in ["item", "move"] {
            for (id, names) in MockData.terms[kind] ?? [:] {
                let made = PokemonNames.title(id)
                if made != LocalizedText.pick(names, language), text.contains(made) { out.append("\"\(made)\" made from \(id)") }
            }
        }
        return out
    }
}
