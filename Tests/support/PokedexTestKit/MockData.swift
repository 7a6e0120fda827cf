import Foundation
import PokedexLocks
@testable import PokedexCore
import PokedexModels

/// What the tests share with the mock (`Tests/support/mockapi`): every evolution family in PokeAPI's
/// shape, and the catalogues' words (`po/*.po`) without `make catalogues`.
public enum MockData {
    static let root = PackageRoot.url

    /// Every family of `Tests/support/mockapi/evolution-chains.json` as PokeAPI sends it, by chain id.
    public static let chainBodies: [UInt32: [UInt8]] = {
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent("Tests/support/mockapi/evolution-chains.json").path),
              let chains = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [:] }
        var out: [UInt32: [UInt8]] = [:]
        for c in chains {
            guard let id = c["id"] as? Int, let link = c["chain"] as? [Any] else { continue }
            let body: [String: Any] = ["id": id, "baby_trigger_item": NSNull(), "chain": expand(link)]
            out[UInt32(id)] = Array((try? JSONSerialization.data(withJSONObject: body)) ?? Data())
        }
        return out
    }()

    /// The names of what families name (items, moves, triggers, games), as the mock serves them
    /// (`Tests/support/mockapi/evolution-terms.json`): kind → identifier → language → name.
    public static let terms: [String: [String: [String: String]]] = {
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent("Tests/support/mockapi/evolution-terms.json").path),
              let kinds = try? JSONSerialization.jsonObject(with: data) as? [String: [String: [Any]]] else { return [:] }
        return kinds.mapValues { entries in entries.compactMapValues { $0.count == 2 ? $0[1] as? [String: String] : nil } }
    }()

    /// A term's name in `language` as the service picks it (the language, its relative, else English).
    public static func termName(_ kind: String, _ identifier: String, language: String) -> String? {
        terms[kind]?[identifier].flatMap { LocalizedText.pick($0, language) }
    }

    /// The compact link `[species, id, [detail…], [link…]]` as PokeAPI writes it.
    static func expand(_ link: [Any]) -> [String: Any] {
        let resourceKinds = ["held_item": "item", "item": "item", "known_move": "move", "used_move": "move", "known_move_type": "type",
                             "party_type": "type", "location": "location", "party_species": "pokemon-species",
                             "trade_species": "pokemon-species", "region": "region", "trigger": "evolution-trigger"]
        let details = (link[2] as? [[String: Any]] ?? []).map { d -> [String: Any] in
            var e: [String: Any] = ["gender": NSNull(), "held_item": NSNull(), "item": NSNull(), "min_level": NSNull(),
                                    "needs_overworld_rain": false, "time_of_day": "", "turn_upside_down": false,
                                    "relative_physical_stats": NSNull(), "version_group": NSNull(), "is_default": true,
                                    "base_form": NSNull(), "evolved_form": NSNull()]
            for (k, v) in d {
                if k == "version_group" {
                    e[k] = ["name": "vg", "url": "https://pokeapi.co/api/v2/version-group/\(v)/"]
                } else if k == "base_form" || k == "evolved_form", let form = v as? [Any], form.count == 2 {
                    e[k] = ["name": form[0], "url": "https://pokeapi.co/api/v2/pokemon/\(form[1])/"]
                } else if let kind = resourceKinds[k], let name = v as? String {
                    e[k] = ["name": name, "url": "https://pokeapi.co/api/v2/\(kind)/\(name)/"]
                } else {
                    e[k] = v
                }
            }
            return e
        }
        return ["species": ["name": link[0], "url": "https://pokeapi.co/api/v2/pokemon-species/\(link[1])/"],
                "evolution_details": details, "is_baby": false,
                "evolves_to": (link[3] as? [[Any]] ?? []).map(expand)]
    }

    /// The family of chain `id` as the card of `subject` (its first species' by default) shows
    /// it in `language`, with `words` and the games' names of items, moves and games.
    public static func family(_ id: UInt32, subject: PokemonRef? = nil, speciesID: UInt32? = nil, language: String,
                              words: Words) -> [EvolutionMember] {
        guard let body = chainBodies[id], let chain = try? APIDecoding.evolutionChain(body) else { return [] }
        let species = speciesID ?? subject.flatMap { BundledNames.entries[$0.id]?.species }
        return Evolutions.members(chain, subject: subject, speciesID: species, language: language, words: words, species: nil,
                                  terms: { termName($0.rawValue, $1, language: language) })
    }

    /// The matchups of `types`, names in `language`.
    public static func matchups(_ types: [String], language: String) -> [TypeMatchup] {
        TypeChart.matchups(types, language: language)
    }

    /// A type's name in `language` (the bundled chart's names).
    public static func typeName(_ type: String, language: String) -> String { TypeChart.name(type, language: language) }

    /// The words of `po/LANG.po` (English for "en"): what `make catalogues` compiles, read here
    /// so that the tests need no build step. Only single-form messages (no plurals) are read.
    public static func words(_ language: String) -> Words {
        if let known = readWords.withLock({ $0[language] }) { return known }
        let words = parseWords(language)
        readWords.withLock { $0[language] = words }
        return words
    }

    /// Each language's words, read once.
    private static let readWords = Mutex<[String: Words]>([:])

    private static func parseWords(_ language: String) -> Words {
        guard language != "en", let text = try? String(contentsOf: root.appendingPathComponent("po/\(language).po"), encoding: .utf8) else {
            return .english
        }
        var table: [String: String] = [:]
        var id: String?, str: String?, field = ""
        func flush() {
            if let id, let str, !id.isEmpty, !str.isEmpty { table[id] = str }
            id = nil
            str = nil
        }
        func literal(_ s: Substring) -> String {
            var out = "", escape = false
            for c in s.dropFirst().dropLast() {
                if escape {
                    out.append(c == "n" ? "\n" : c == "t" ? "\t" : c)
                    escape = false
                } else if c == "\\" { escape = true } else { out.append(c) }
            }
            return out
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("msgid ") { flush(); id = literal(line.dropFirst(6)); field = "id" }
            else if line.hasPrefix("msgstr ") { str = literal(line.dropFirst(7)); field = "str" }
            else if line.hasPrefix("\"") { if field == "id" { id? += literal(line) } else if field == "str" { str? += literal(line) } }
            else if line.hasPrefix("#, fuzzy") { field = "fuzzy" }
            else if line.isEmpty || line.hasPrefix("msgid_plural") || line.hasPrefix("msgstr[") { if line.isEmpty { flush() }; field = "" }
        }
        flush()
        let catalogue = table
        return Words(decimalSeparator: ["de", "fr", "es", "it"].contains(language) ? "," : ".") { catalogue[$0] ?? $0 }
    }
}
