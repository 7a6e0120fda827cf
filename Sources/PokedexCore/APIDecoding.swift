import Foundation

/// Turns PokeAPI's JSON bodies into the compact records the service keeps.
/// Only the fields the service answers with are decoded; the rest is skipped.
public enum APIDecoding {
    struct NamedResource: Decodable { var name: String; var url: String? }

    struct ListBody: Decodable {
        var count: UInt32
        var results: [NamedResource]
    }

    /// Decodes a JSON body in place: no copy of a 300–600 KB body into a `Data` first.
    static func decode<T: Decodable>(_ type: T.Type, _ body: [UInt8]) throws -> T {
        try body.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, !raw.isEmpty else { return try JSONDecoder().decode(T.self, from: Data()) }
            // The Data lives only for this call: JSONDecoder keeps nothing of it.
            return try JSONDecoder().decode(T.self, from: Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base),
                                                                 count: raw.count, deallocator: .none))
        }
    }

    /// The id at the end of a resource URL: `…/pokemon/25/` → 25.
    static func trailingID(_ url: String) -> UInt32? {
        url.split(separator: "/").last.flatMap { UInt32($0) }
    }

    /// Decodes `GET /pokemon/?limit=N`.
    public static func index(_ body: [UInt8]) throws -> PokemonIndex {
        let list = try decode(ListBody.self, body)
        var items: [PokemonIndex.Item] = []
        items.reserveCapacity(list.results.count)
        for r in list.results {
            guard let url = r.url, let id = trailingID(url) else { continue }
            items.append(.init(id: id, name: r.name))
        }
        return PokemonIndex(items: items, total: list.count)
    }

    struct PokemonBody: Decodable {
        struct TypeSlot: Decodable { var slot: Int; var type: NamedResource }
        struct AbilitySlot: Decodable { var slot: Int; var ability: NamedResource }
        struct StatEntry: Decodable {
            var base_stat: UInt32
            var stat: NamedResource
        }
        struct Sprites: Decodable {
            var front_default: String?
            var versions: Versions?
            struct Versions: Decodable {
                var genV: GenV?
                enum CodingKeys: String, CodingKey { case genV = "generation-v" }
            }
            struct GenV: Decodable {
                var blackWhite: BlackWhite?
                enum CodingKeys: String, CodingKey { case blackWhite = "black-white" }
            }
            struct BlackWhite: Decodable {
                var animated: Animated?
                struct Animated: Decodable { var front_default: String? }
            }
        }
        var id: UInt32
        var name: String
        var height: UInt32?
        var weight: UInt32?
        var types: [TypeSlot]
        var abilities: [AbilitySlot]
        var stats: [StatEntry]
        var sprites: Sprites?
        var species: NamedResource?
    }

    /// Decodes `GET /pokemon/{id}`.
    public static func pokemon(_ body: [UInt8]) throws -> PokemonRecord {
        let p = try decode(PokemonBody.self, body)
        return PokemonRecord(
            id: p.id, name: p.name, height: p.height ?? 0, weight: p.weight ?? 0,
            types: p.types.sorted { $0.slot < $1.slot }.map(\.type.name),
            abilities: p.abilities.sorted { $0.slot < $1.slot }.map(\.ability.name),
            stats: p.stats.map { .init(name: $0.stat.name, value: $0.base_stat) },
            spriteURL: p.sprites?.front_default,
            animatedSpriteURL: p.sprites?.versions?.genV?.blackWhite?.animated?.front_default,
            speciesURL: p.species?.url)
    }

    struct SpeciesBody: Decodable {
        struct Genus: Decodable { var genus: String; var language: NamedResource }
        struct Flavor: Decodable { var flavor_text: String; var language: NamedResource }
        struct Name: Decodable { var name: String; var language: NamedResource }
        var id: UInt32
        var name: String
        var genera: [Genus]?
        var flavor_text_entries: [Flavor]?
        var names: [Name]?
    }

    /// Decodes `GET /pokemon-species/{id}`.
    public static func species(_ body: [UInt8]) throws -> SpeciesRecord {
        let s = try decode(SpeciesBody.self, body)
        let genus = s.genera?.first { $0.language.name == "en" }?.genus ?? ""
        // The most recent English entry: the oldest games shout "POKéMON" in capitals.
        let flavor = s.flavor_text_entries?.last { $0.language.name == "en" }?.flavor_text ?? ""
        var names: [String: String] = [:]
        for n in s.names ?? [] { names[n.language.name] = n.name }
        return SpeciesRecord(id: s.id, name: s.name, genus: genus, flavorText: cleanFlavorText(flavor), names: names)
    }

    /// Removes the API's form feeds, soft hyphens and hard line breaks, and folds spaces.
    public static func cleanFlavorText(_ text: String) -> String {
        var out = ""
        var lastWasSpace = true
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\u{0C}", "\n", "\r", "\t", " ", "\u{A0}":
                if !lastWasSpace { out.unicodeScalars.append(" "); lastWasSpace = true }
            case "\u{AD}":
                continue
            default:
                out.unicodeScalars.append(scalar)
                lastWasSpace = false
            }
        }
        if out.hasSuffix(" ") { out.removeLast() }
        return out
    }
}
