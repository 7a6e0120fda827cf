/// The list of every Pokémon and what a caller's name or number means in it.
///
/// It keeps no state of its own: the list lives in the tiers, like every resource.
final class Catalog: Sendable {
    /// The most entries one call may ask for.
    static let maxLimit: UInt32 = 100

    private let loader: ResourceLoader
    private let routes: APIRoutes

    init(loader: ResourceLoader, routes: APIRoutes) {
        self.loader = loader
        self.routes = routes
    }

    /// The list from whichever tier has it, fetching it if none does.
    func index() async throws(PokedexError) -> PokemonIndex {
        do {
            return try await loader.load(APIRoutes.indexKey, url: routes.index, .index)
        } catch {
            throw PokedexError.wrap(error, context: "the Pokémon list is not available")
        }
    }

    /// The list if memory has it; never waits.
    var cachedIndex: PokemonIndex? { loader.cached(APIRoutes.indexKey, url: routes.index, .index) }

    /// The list from memory or disk, without fetching it.
    var indexOnHand: PokemonIndex? { loader.peek(APIRoutes.indexKey, .index) }

    /// Trims, lower-cases and checks a caller's Pokémon name or number.
    static func normalize(_ query: String) throws(PokedexError) -> String {
        let q = query.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !q.isEmpty else { throw .invalidArgument("give a Pokémon name or number, not an empty string") }
        return q
    }

    /// A normalized name or number in the list, or NotFound.
    static func resolve(_ normalized: String, original: String, in index: PokemonIndex) throws(PokedexError) -> PokemonIndex.Item {
        if let n = PokedexNumber.parse(normalized) {
            guard let item = index.item(id: n) else { throw .notFound("no Pokémon with number \(n)") }
            return item
        }
        if normalized.allSatisfy(\.isASCII), normalized.allSatisfy(\.isNumber) {
            throw .notFound("no Pokémon with number \(quoted(normalized))")  // too long to be one
        }
        guard let item = index.item(named: normalized) else {
            throw .notFound("no Pokémon named \(quoted(original.trimmingCharacters(in: .whitespacesAndNewlines)))")
        }
        return item
    }

    /// What a caller means, from memory only: nil when the list is not in memory or the
    /// name is unknown (the waiting path then explains, with a suggestion).
    func resolveFromMemory(_ query: String) throws(PokedexError) -> PokemonIndex.Item? {
        let q = try Self.normalize(query)
        guard let index = cachedIndex else { return nil }
        return try? Self.resolve(q, original: query, in: index)
    }

    static func checkLimit(_ limit: UInt32) throws(PokedexError) {
        guard (1...maxLimit).contains(limit) else {
            throw .invalidArgument("limit must be between 1 and \(maxLimit), not \(limit)")
        }
    }

    /// The items of one page; empty past the end.
    static func slice(_ index: PokemonIndex, offset: UInt32, limit: UInt32) -> ArraySlice<PokemonIndex.Item> {
        let start = Int(min(UInt64(offset), UInt64(index.items.count)))
        let end = Int(min(UInt64(offset) + UInt64(limit), UInt64(index.items.count)))
        return index.items[start..<end]
    }
}
