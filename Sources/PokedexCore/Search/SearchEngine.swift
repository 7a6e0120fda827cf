import FoundationEssentials
import PokedexLocks
import PokedexNetwork

/// Search: the index over every name (API and localized), and the type and generation
/// filters it needs; built off the bus thread, rebuilt when its inputs change.
final class SearchEngine: Sendable {
    private struct State {
        /// species id → language → name, from every species record seen.
        var localized: [UInt32: [String: String]] = [:]
        var filters: SearchFilters?
        /// The index, and whether its inputs changed since it was built.
        var built: (index: SearchIndex, stale: Bool)?
        var scannedDisk = false

        mutating func markStale() { built?.stale = true }
    }

    private let state = Mutex(State())
    /// The filters are fetched once, whoever asks first (the warm start, or a `type:` search).
    private let filterFlight = SingleFlight<Int, SearchFilters>()
    private let catalog: Catalog
    private let loader: ResourceLoader
    private let fetcher: Fetcher
    private let routes: APIRoutes

    init(catalog: Catalog, loader: ResourceLoader, fetcher: Fetcher, routes: APIRoutes) {
        self.catalog = catalog
        self.loader = loader
        self.fetcher = fetcher
        self.routes = routes
    }

    /// A species record was read: its localized names become searchable.
    func noteSpecies(_ s: SpeciesRecord) {
        guard !s.names.isEmpty else { return }
        state.withLock { st in
            guard st.localized[s.id] != s.names else { return }
            st.localized[s.id] = s.names
            st.markStale()
        }
    }

    /// The most matches ``PokedexService/searchPage(_:offset:limit:)`` counts and pages through.
    static let maxMatches: UInt32 = 5000

    /// Checks a caller's query and limit; `language`: the reader's, whose names rank first.
    static func check(_ query: String, limit: UInt32, language: String? = nil) throws(PokedexError) -> SearchQuery {
        try Catalog.checkLimit(limit)
        guard query.unicodeScalars.count <= 256 else { throw .invalidArgument(ServiceMessages.format(ServiceMessages.queryTooLong, "256")) }
        var q = SearchQuery(parsing: query)
        q.language = language
        guard !q.text.isEmpty || q.hasFilters else {
            throw .invalidArgument(ServiceMessages.joined(ServiceMessages.queryEmpty, ServiceMessages.queryHint))
        }
        return q
    }

    /// A filter of `q` that names no type or generation there is, as the caller's error; nil
    /// when there is none (or the filters are not known yet: the search finds nothing then).
    func unknownFilter(_ q: SearchQuery) -> PokedexError? {
        guard q.hasFilters, state.withLock({ $0.filters }) != nil else { return nil }
        return builtIndex?.unknownFilter(q).map { .invalidArgument($0) }
    }

    /// The hits if the index (and the filters the query names) are built and current, else nil.
    func searchFromMemory(_ q: SearchQuery, limit: UInt32) -> [SearchHit]? {
        let (built, filters) = state.withLock { ($0.built, $0.filters) }
        guard let built, !built.stale else { return nil }
        if q.hasFilters && filters == nil { return nil }
        return built.index.search(q, limit: Int(limit))
    }

    /// The hits, building the index and fetching the filters if needed.
    func search(_ q: SearchQuery, limit: UInt32) async throws(PokedexError) -> [SearchHit] {
        if q.hasFilters { try await loadFilters() }
        return try await index().search(q, limit: Int(limit))
    }

    /// Ends a NotFound message with the best guess: `…; did you mean "pikachu"?`. A number has
    /// no near miss ("0" is not "type-null"): its message says which numbers there are.
    func withSuggestion(_ error: PokedexError, for query: String, language: String) async -> PokedexError {
        guard case .notFound(let message) = error, query.unicodeScalars.count <= 64, !message.contains("did you mean") else { return error }
        if PokedexNumber.parse(query) != nil || query.allSatisfy(\.isNumber) {
            guard let index = try? await catalog.index() else { return error }
            let species = index.items.lazy.map(\.id).filter(PokemonID.isDefaultForm).max() ?? 0
            let forms = index.items.lazy.map(\.id).filter { !PokemonID.isDefaultForm($0) }
            let range = forms.isEmpty ? ServiceMessages.format(ServiceMessages.numbersRun, String(species))
                : ServiceMessages.format(ServiceMessages.numbersRunWithForms, String(species), String(forms.min()!), String(forms.max()!))
            return .notFound(ServiceMessages.joined(message, range))
        }
        guard let guess = try? await index().suggestion(for: query, language: language) else { return error }
        return .notFound(ServiceMessages.joined(message, ServiceMessages.format(ServiceMessages.didYouMean, "\"\(guess)\"")))
    }

    /// (species whose localized names are indexed, species the API lists): every species the
    /// bundled table knows from the first start, and those whose records came since.
    var coverage: (localized: UInt32, species: UInt32) {
        let species = catalog.cachedIndex?.items.filter { PokemonID.isDefaultForm($0.id) } ?? []
        let fromRecords = state.withLock { $0.localized }
        let localized = species.filter { Self.names(of: $0, fromRecords: fromRecords) != nil }
        return (UInt32(localized.count), UInt32(species.count))
    }

    /// A species' names: from its record where one was read, else from the bundled table.
    static func names(of item: PokemonIndex.Item, fromRecords: [UInt32: [String: String]]) -> [String: String]? {
        fromRecords[item.id] ?? BundledNames.names(item.id, apiName: item.name)
    }

    /// Every listed species' names, as ``names(of:fromRecords:)`` gives them, and the forms'
    /// from the bundled table: the list shows "Mega-Bisaflor", so a search finds it.
    static func withBundledNames(_ fromRecords: [UInt32: [String: String]], index: PokemonIndex) -> [UInt32: [String: String]] {
        var out = fromRecords
        for item in index.items {
            if let names = names(of: item, fromRecords: fromRecords) { out[item.id] = names }
        }
        return out
    }

    /// The index built last, if any; never builds one.
    var builtIndex: SearchIndex? { state.withLock { $0.built?.index } }

    /// The search index, built from the list, every species record on disk, and the type
    /// and generation filters; rebuilt when any of them changed.
    func index() async throws(PokedexError) -> SearchIndex {
        if let built = state.withLock({ $0.built }), !built.stale { return built.index }
        let index = try await catalog.index()
        if state.withLock({ s in defer { s.scannedDisk = true }; return !s.scannedDisk }) {
            for item in index.items where PokemonID.isDefaultForm(item.id) {
                if let s = loader.peek(APIRoutes.speciesKey(item.id), .species) { noteSpecies(s) }
            }
            if let f = loader.peekFilters() { state.withLock { $0.filters = f } }
        }
        let (localized, filters) = state.withLock { ($0.localized, $0.filters) }
        // The types' names in every language came with the filters (their `type` bodies).
        var typeNames: [String: [String: String]] = [:]
        for type in (filters?.types ?? [:]).keys {
            if let names = loader.peek(APIRoutes.namesKey(.type, type), .names) { typeNames[type] = names.names }
        }
        let built = SearchIndex(
            index: index, localized: Self.withBundledNames(localized, index: index),
            types: (filters?.types ?? [:]).mapValues(Set.init),
            generations: Self.generationsByPokemon(filters ?? SearchFilters(types: [:], generations: [:]), index: index),
            typeNames: typeNames)
        state.withLock { $0.built = (built, false) }
        return built
    }

    /// Generations list species; forms join their species by name.
    static func generationsByPokemon(_ filters: SearchFilters, index: PokemonIndex) -> [Int: Set<UInt32>] {
        var generationOfSpecies: [UInt32: Int] = [:]
        for (g, ids) in filters.generations { for id in ids { generationOfSpecies[id] = g } }
        var speciesByName = filters.speciesIDs
        for item in index.items where PokemonID.isDefaultForm(item.id) && speciesByName[item.name] == nil {
            speciesByName[item.name] = item.id
        }
        var out: [Int: Set<UInt32>] = [:]
        for item in index.items {
            var sid: UInt32? = PokemonID.isDefaultForm(item.id) ? item.id : nil
            if sid == nil {
                var parts = item.name.split(separator: "-").map(String.init)
                while sid == nil && parts.count > 1 { parts.removeLast(); sid = speciesByName[parts.joined(separator: "-")] }
            }
            if let sid, let g = generationOfSpecies[sid] { out[g, default: []].insert(item.id) }
        }
        return out
    }

    /// Fetches the type and generation resources once (then from the disk tier), all at once.
    func loadFilters() async throws(PokedexError) {
        if state.withLock({ $0.filters }) != nil { return }
        if let f = loader.peekFilters() { return use(f) }
        try await refetchFilters()
    }

    /// Fetches the type and generation resources and keeps them, on disk too. Also
    /// `VerifyCache`'s repair of a damaged disk copy: the filters in memory answer until then.
    func refetchFilters() async throws(PokedexError) {
        do {
            let filters = try await filterFlight.run(0) { [self] in try await fetchFilters() }
            if state.withLock({ $0.filters }) == nil { use(filters) }
        } catch {
            throw PokedexError.wrap(error, context: ServiceMessages.filtersUnavailable)
        }
    }

    private func fetchFilters() async throws -> SearchFilters {
        async let typeNames = fetchJSON(routes.typeList, FilterDecoding.names)
        async let genNames = fetchJSON(routes.generationList, FilterDecoding.names)
        let (typeList, genList) = try await (typeNames, genNames)
        let types = try await withThrowingTaskGroup(of: (String, [UInt32]).self) { group in
            for name in typeList {
                group.addTask { [self] in
                    // Its names too, as `LocalizedDetail` reads them: the type is not fetched twice.
                    let (ids, names) = try await fetchJSON(routes.type(name)) { body, dropped in
                        (try FilterDecoding.typeMembers(body, dropped: dropped), try? APIDecoding.names(body, dropped: dropped))
                    }
                    if let names {
                        loader.keep(APIRoutes.namesKey(.type, name), names, .names, maxAge: 7 * 86400)
                    }
                    return (name, ids)
                }
            }
            var out: [String: [UInt32]] = [:]
            for try await (name, ids) in group { out[name] = ids }
            return out
        }
        var generations: [Int: [UInt32]] = [:]
        var speciesIDs: [String: UInt32] = [:]
        try await withThrowingTaskGroup(of: (Int, [(String, UInt32)]).self) { group in
            for name in genList {
                group.addTask { [self] in try await fetchJSON(routes.generation(name), FilterDecoding.generationSpecies) }
            }
            for try await (id, species) in group {
                generations[id] = species.map(\.1)
                for (n, sid) in species { speciesIDs[n] = sid }
            }
        }
        let filters = SearchFilters(types: types, generations: generations, speciesIDs: speciesIDs)
        loader.storeFilters(filters)
        return filters
    }

    private func use(_ filters: SearchFilters) {
        state.withLock { s in
            s.filters = filters
            s.markStale()
        }
    }

    private func fetchJSON<T: Sendable>(_ url: String, _ decode: @escaping ([UInt8], Dropped) throws -> T) async throws -> T {
        fetcher.promote(url)
        let log = loader.log
        guard case .body(let value, _, _) = try await fetcher.fetch(url, as: .json, decode: { body in
            try DropLog.logging(log, source: url) { try decode(body, $0) }
        }) else {
            throw FetchError.unexpectedNotModified(url: url)
        }
        return value
    }
}
