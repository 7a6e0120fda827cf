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
    private static let resultsKeys = JSONReader.Keys("results")
    private static let typeKeys = JSONReader.Keys("pokemon")
    private static let slotKeys = JSONReader.Keys("pokemon")
    private static let generationKeys = JSONReader.Keys("id", "pokemon_species")

    /// The names of `GET /type/` or `/generation/`'s `results`.
    static func names(_ body: [UInt8], dropped: Dropped) throws -> [String] {
        try APIDecoding.reading(body) { (r) throws(JSONReader.Failure) in
            var results: [APIDecoding.NamedResource]?
            try r.object(resultsKeys) { (_, r) throws(JSONReader.Failure) in results = try r.namedResources() }
            guard let results else { throw r.missing("results") }
            return results
        }.compactMap { APIDecoding.checked($0.name, "a filter", dropped) }
    }

    /// The ids of a type's Pokémon, from `GET /type/{name}`.
    static func typeMembers(_ body: [UInt8], dropped: Dropped) throws -> [UInt32] {
        try APIDecoding.reading(body) { (r) throws(JSONReader.Failure) in
            var members: [APIDecoding.NamedResource]?
            try r.object(typeKeys) { (_, r) throws(JSONReader.Failure) in
                var list: [APIDecoding.NamedResource] = []
                try r.array { (r) throws(JSONReader.Failure) in
                    var pokemon: APIDecoding.NamedResource?
                    try r.object(slotKeys) { (_, r) throws(JSONReader.Failure) in pokemon = try r.namedResource() }
                    guard let pokemon else { throw r.missing("pokemon") }
                    list.append(pokemon)
                }
                members = list
            }
            guard let members else { throw r.missing("pokemon") }
            return members
        }.compactMap { $0.url.flatMap(APIDecoding.trailingID) }
    }

    /// A generation's number and its species, from `GET /generation/{name}`.
    static func generationSpecies(_ body: [UInt8], dropped: Dropped) throws -> (Int, [(String, UInt32)]) {
        let (id, species) = try APIDecoding.reading(body) { (r) throws(JSONReader.Failure) -> (Int, [APIDecoding.NamedResource]) in
            var id: Int?, species: [APIDecoding.NamedResource]?
            try r.object(generationKeys) { (k, r) throws(JSONReader.Failure) in
                if k == 0 { id = try r.integer() } else { species = try r.namedResources() }
            }
            guard let id else { throw r.missing("id") }
            guard let species else { throw r.missing("pokemon_species") }
            return (id, species)
        }
        return (id, species.compactMap { s in
            guard let speciesID = s.url.flatMap(APIDecoding.trailingID),
                  let name = APIDecoding.checked(s.name, "a species of generation \(id)", dropped) else { return nil }
            return (name, speciesID)
        })
    }
}
