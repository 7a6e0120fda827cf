import Foundation
@testable import PokedexCore
import PokedexNetwork

/// A PokeAPI made from the project's bundled name table: every species and form it lists, with
/// their names in every language, one or two types and a genus in English, German and Japanese
/// worked out from the id, the type and generation filters, form records, and a small PNG for
/// each sprite. A few forms have no sprite of their own, as Gigantamax forms have none in
/// PokeAPI. It answers whatever URL the service asks, so a test of the desktop's search
/// meets real names ("glurak", "ピカチュウ", "メガリザードンＸ") without `../shared`.
public final class TablePokeAPI: HTTPClient {
    public static let base = "https://pokeapi.test/api/v2"
    public static let spriteHost = "sprites.test"
    public static let types = ["normal", "fire", "water", "grass", "electric", "ice", "fighting", "poison", "ground",
                               "flying", "psychic", "bug", "rock", "ghost", "dragon", "dark", "steel", "fairy"]
    /// Each type's name in German and Japanese (the games' words).
    static let typeNames: [String: (de: String, ja: String)] = [
        "normal": ("Normal", "ノーマル"), "fire": ("Feuer", "ほのお"), "water": ("Wasser", "みず"), "grass": ("Pflanze", "くさ"),
        "electric": ("Elektro", "でんき"), "ice": ("Eis", "こおり"), "fighting": ("Kampf", "かくとう"), "poison": ("Gift", "どく"),
        "ground": ("Boden", "じめん"), "flying": ("Flug", "ひこう"), "psychic": ("Psycho", "エスパー"), "bug": ("Käfer", "むし"),
        "rock": ("Gestein", "いわ"), "ghost": ("Geist", "ゴースト"), "dragon": ("Drache", "ドラゴン"), "dark": ("Unlicht", "あく"),
        "steel": ("Stahl", "はがね"), "fairy": ("Fee", "フェアリー"),
    ]

    public init() {}

    /// The types of Pokémon `id`: one, or two for every third.
    public static func types(of id: UInt32) -> [String] {
        let first = types[Int(id % 18)]
        guard id % 3 == 0 else { return [first] }
        let second = types[Int((id / 3 + 5) % 18)]
        return second == first ? [first] : [first, second]
    }

    /// Whether form `id` has no sprite of its own (its species' stands in).
    public static func hasNoSprite(_ id: UInt32) -> Bool { !PokemonID.isDefaultForm(id) && id % 4 == 0 }

    public func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        let url = request.url
        if url.hasPrefix("https://\(Self.spriteHost)/") {
            guard let id = UInt32(url.dropFirst("https://\(Self.spriteHost)/".count).dropLast(4)) else { return Self.notFound }
            return HTTPResponse(status: 200, body: makePNG((UInt8(id % 256), UInt8(id / 256 % 256), 200)))
        }
        guard url.hasPrefix(Self.base + "/") else { return Self.notFound }
        let path = url.dropFirst(Self.base.count + 1).split(separator: "/").map(String.init)
        guard let kind = path.first else { return Self.notFound }
        let key = path.count > 1 ? path[1] : ""
        let body: Any?
        switch kind {
        case "pokemon" where key.hasPrefix("?"): body = Self.list()
        case "pokemon": body = UInt32(key).flatMap(Self.pokemon)
        case "pokemon-species": body = UInt32(key).flatMap(Self.species)
        case "pokemon-form": body = UInt32(key).flatMap(Self.form)
        case "type" where key.hasPrefix("?"):
            body = ["count": Self.types.count, "results": Self.types.map { ["name": $0, "url": "\(Self.base)/type/\($0)/"] }]
        case "type": body = Self.type(key)
        case "generation" where key.hasPrefix("?"):
            body = ["count": 1, "results": [["name": "generation-i", "url": "\(Self.base)/generation/1/"]]]
        case "generation" where key == "1" || key == "generation-i":
            body = ["id": 1, "name": "generation-i",
                    "pokemon_species": (1...151).map { ["name": Self.entries[UInt32($0)]!.identifier, "url": "\(Self.base)/pokemon-species/\($0)/"] }]
        default: body = nil
        }
        guard let body, let data = try? JSONSerialization.data(withJSONObject: body) else { return Self.notFound }
        return HTTPResponse(status: 200, headers: ["etag": "\"t1\"", "cache-control": "public, max-age=86400"], body: Array(data))
    }

    static let notFound = HTTPResponse(status: 404, body: Array("Not Found".utf8))
    static let entries = BundledNames.entries
    /// The ids the list names: species in order, then the forms.
    public static let ids: [UInt32] = entries.keys.filter(PokemonID.isDefaultForm).sorted() + entries.keys.filter { !PokemonID.isDefaultForm($0) }.sorted()

    static func list() -> Any {
        ["count": ids.count, "next": NSNull(), "previous": NSNull(),
         "results": ids.map { ["name": entries[$0]!.identifier, "url": "\(base)/pokemon/\($0)/"] }]
    }

    static func names(_ names: [String: String]) -> [[String: Any]] {
        names.sorted { $0.key < $1.key }.map { ["name": $0.value, "language": ["name": $0.key, "url": ""]] }
    }

    static func pokemon(_ id: UInt32) -> Any? {
        guard let e = entries[id] else { return nil }
        return [
            "id": id, "name": e.identifier, "height": 4, "weight": 60,
            "types": types(of: id).enumerated().map { ["slot": $0.offset + 1, "type": ["name": $0.element, "url": "\(base)/type/\($0.element)/"]] },
            "abilities": [[String: Any]](), "stats": [[String: Any]](),
            "sprites": ["front_default": hasNoSprite(id) ? NSNull() : "https://\(spriteHost)/\(id).png" as Any],
            "species": ["name": entries[e.species]!.identifier, "url": "\(base)/pokemon-species/\(e.species)/"],
            "forms": [["name": e.identifier, "url": "\(base)/pokemon-form/\(id)/"]],
        ]
    }

    static func species(_ id: UInt32) -> Any? {
        guard let e = entries[id], e.isSpecies else { return nil }
        let genera = ["en": "Test Pokémon \(id)", "de": "Test-Pokémon \(id)", "ja": "テストポケモン\(id)"]
        return ["id": id, "name": e.identifier, "names": names(e.names),
                "genera": genera.sorted { $0.key < $1.key }.map { ["genus": $0.value, "language": ["name": $0.key, "url": ""]] },
                "flavor_text_entries": [["flavor_text": "A Pokémon.", "language": ["name": "en", "url": ""], "version": ["name": "x", "url": ""]]]]
    }

    static func form(_ id: UInt32) -> Any? {
        guard let e = entries[id] else { return nil }
        return ["id": id, "name": e.identifier, "is_default": true, "form_name": "",
                "names": e.isSpecies ? [] : names(e.names), "form_names": [[String: Any]](),
                "pokemon": ["name": e.identifier, "url": "\(base)/pokemon/\(id)/"]]
    }

    static func type(_ name: String) -> Any? {
        guard let words = typeNames[name] else { return nil }
        let members = ids.filter { types(of: $0).contains(name) }
        return ["id": (types.firstIndex(of: name) ?? 0) + 1, "name": name,
                "names": names(["en": name.prefix(1).uppercased() + name.dropFirst(), "de": words.de, "ja-hrkt": words.ja, "ja": words.ja]),
                "pokemon": members.map { ["slot": 1, "pokemon": ["name": entries[$0]!.identifier, "url": "\(base)/pokemon/\($0)/"]] }]
    }
}
