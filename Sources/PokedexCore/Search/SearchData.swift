import FoundationEssentials
import PokedexLocks

/// Which Pokémon have which type, and which generation introduced them: built from the
/// 18-odd `/type/{name}` and 9 `/generation/{id}` resources, not one request per Pokémon.
struct SearchFilters: Codable, Sendable, Equatable {
    public var types: [String: [UInt32]]
    /// generation → species ids.
    public var generations: [Int: [UInt32]]
    /// species name → species id (forms such as "deoxys-attack" join "deoxys" by name).
    public var speciesIDs: [String: UInt32] = [:]

    public init(types: [String: [UInt32]], generations: [Int: [UInt32]], speciesIDs: [String: UInt32] = [:]) {
        self.types = types
        self.generations = generations
        self.speciesIDs = speciesIDs
    }

    enum CodingKeys: String, CodingKey { case types, generations, speciesIDs }

    /// Records written before `speciesIDs` existed still open.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        types = try c.decode([String: [UInt32]].self, forKey: .types)
        generations = try c.decode([Int: [UInt32]].self, forKey: .generations)
        speciesIDs = try c.decodeIfPresent([String: UInt32].self, forKey: .speciesIDs) ?? [:]
    }
}

enum FilterDecoding {
    struct NamedList: Decodable { var results: [APIDecoding.NamedResource] }
    struct TypeBody: Decodable {
        struct Slot: Decodable { var pokemon: APIDecoding.NamedResource }
        var pokemon: [Slot]
    }
    struct GenerationBody: Decodable {
        var id: Int
        var pokemon_species: [APIDecoding.NamedResource]
    }

    static func names(_ body: [UInt8], dropped: Dropped) throws -> [String] {
        try APIDecoding.decode(NamedList.self, body).results.compactMap { APIDecoding.checked($0.name, "a filter", dropped) }
    }
    static func typeMembers(_ body: [UInt8], dropped: Dropped) throws -> [UInt32] {
        try APIDecoding.decode(TypeBody.self, body).pokemon.compactMap { $0.pokemon.url.flatMap(APIDecoding.trailingID) }
    }
    static func generationSpecies(_ body: [UInt8], dropped: Dropped) throws -> (Int, [(String, UInt32)]) {
        let g = try APIDecoding.decode(GenerationBody.self, body)
        return (g.id, g.pokemon_species.compactMap { s in
            guard let id = s.url.flatMap(APIDecoding.trailingID), let name = APIDecoding.checked(s.name, "a species of generation \(g.id)", dropped) else { return nil }
            return (name, id)
        })
    }
}
