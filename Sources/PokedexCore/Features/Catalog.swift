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
            throw PokedexError.wrap(error, context: ServiceMessages.listUnavailable)
        }
    }

    /// The list if memory has it; never waits.
    var cachedIndex: PokemonIndex? { loader.cached(APIRoutes.indexKey, url: routes.index, .index) }

    /// The list from memory or disk, without fetching it.
    var indexOnHand: PokemonIndex? { loader.peek(APIRoutes.indexKey, .index) }

    /// Trims, lower-cases and checks a caller's Pokémon name or number.
    static func normalize(_ query: String) throws(PokedexError) -> String {
        let q = query.trimmingWhitespace().lowercased()
        guard !q.isEmpty else { throw .invalidArgument(ServiceMessages.emptyName) }
        return q
    }

    /// A normalized name or number in the list, or NotFound.
    static func resolve(_ normalized: String, original: String, in index: PokemonIndex) throws(PokedexError) -> PokemonIndex.Item {
        if let n = PokedexNumber.parse(normalized) {
            guard let item = index.item(id: n) else { throw .notFound(ServiceMessages.format(ServiceMessages.noNumber, String(n))) }
            return item
        }
        if normalized.allSatisfy(\.isASCII), normalized.allSatisfy(\.isNumber) {
            throw .notFound(ServiceMessages.format(ServiceMessages.noNumber, quoted(normalized)))  // too long to be one
        }
        if let item = index.item(named: normalized) { return item }
        let spellings = Self.spellings(of: normalized)
        for name in spellings { if let item = index.item(named: name) { return item } }
        // A species written without its form: the one default form among its forms
        // ("deoxys" is deoxys-normal), or the candidates when there are more ("nidoran").
        if let stem = spellings.last, !stem.isEmpty {
            let forms = index.items.filter { $0.name.hasPrefix(stem + "-") && PokemonID.isDefaultForm($0.id) }
            if forms.count == 1 { return forms[0] }
            if forms.count > 1 {
                let names = forms.prefix(Self.maxCandidates).map(\.name)
                throw .notFound(ServiceMessages.format(ServiceMessages.candidates, stem, names.dropLast().joined(separator: ", "), names.last!))
            }
        }
        throw .notFound(ServiceMessages.format(ServiceMessages.noName, quoted(String(original.trimmingWhitespace()))))
    }

    /// The most candidates an ambiguous name lists.
    static let maxCandidates = 8

    /// The API names a name as people type it may be: folded as search folds it (case, accents,
    /// width; spaces, dots and colons as hyphens: "Mr. Mime" → mr-mime, "Type: Null" → type-null,
    /// "Flabébé" → flabebe), with the gender signs as the API writes them ("Nidoran♀" →
    /// nidoran-f), then without apostrophes ("Farfetch'd" → farfetchd).
    static func spellings(of name: String) -> [String] {
        var signs = ""
        for ch in name {
            switch ch {
            case "♀": signs += "-f"
            case "♂": signs += "-m"
            default: signs.append(ch)
            }
        }
        let folded = TextFolding.fold(signs)
        let apostrophes: Set<Character> = ["'", "\u{2019}", "\u{02BC}", "`"]
        let bare = TextFolding.fold(String(signs.filter { !apostrophes.contains($0) }))
        return folded == bare ? [folded] : [folded, bare]
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
        slice(index.items, offset: offset, limit: limit)
    }

    /// One page of `items` (the list, a search's hits, the desktop's results); empty past the end.
    static func slice<T>(_ items: [T], offset: UInt32, limit: UInt32) -> ArraySlice<T> {
        let start = Int(min(UInt64(offset), UInt64(items.count)))
        let end = Int(min(UInt64(offset) + UInt64(limit), UInt64(items.count)))
        return items[start..<end]
    }
}
