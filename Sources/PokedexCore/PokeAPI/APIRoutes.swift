/// Where each resource lives at the API, and under which key the tiers keep it.
struct APIRoutes: Sendable {
    /// Base URL of the API, without a trailing slash.
    let api: String

    var index: String { api + "/pokemon/?offset=0&limit=100000" }
    func pokemon(_ id: UInt32) -> String { api + "/pokemon/\(id)/" }
    /// Where bodies name a species (their `species.url`), for a record known only by its key.
    func species(_ id: UInt32) -> String { api + "/pokemon-species/\(id)/" }
    var typeList: String { api + "/type/?limit=100" }
    func type(_ name: String) -> String { api + "/type/\(name)/" }
    var generationList: String { api + "/generation/?limit=100" }
    func generation(_ name: String) -> String { api + "/generation/\(name)/" }
    func evolutionChain(_ id: UInt32) -> String { api + "/evolution-chain/\(id)/" }
    /// A move by its id, as a learnset names it.
    func move(_ id: UInt32) -> String { api + "/move/\(id)/" }

    /// A type's, an ability's or a stat's resource, read for its names.
    func named(_ kind: NamedKind, _ name: String) -> String { api + "/\(kind.rawValue)/\(name)/" }

    static let indexKey = "index/pokemon"
    static func pokemonKey(_ id: UInt32) -> String { "pokemon/\(id)" }
    static func speciesKey(_ id: UInt32) -> String { "species/\(id)" }
    /// One slash, as every key.
    static func namesKey(_ kind: NamedKind, _ name: String) -> String { "names-\(kind.rawValue)/\(name)" }
    /// The `pokemon-form` of Pokémon `id` (its own id at the API may differ).
    static func formKey(_ id: UInt32) -> String { "form/\(id)" }
    /// An evolution family, by its chain's id at the API.
    static func evolutionKey(_ id: UInt32) -> String { "evolution/\(id)" }
    /// A move's record (type, category, power, accuracy, PP), by its id at the API.
    static func moveKey(_ id: UInt32) -> String { "move/\(id)" }
}
