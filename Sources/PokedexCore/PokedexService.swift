import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PokedexLocks

/// The Pokédex: answers list, detail, search, sprite and favorites questions from
/// the memory tier, the disk tier or PokeAPI, in that order.
///
/// Methods named `cached…` never wait: they answer from memory or return nil, so the
/// bus thread can reply inline. The `async` methods may touch the disk and the network.
public final class PokedexService: Sendable {
    /// The most entries one call may ask for.
    public static let maxLimit: UInt32 = 100

    public let configuration: ServiceConfiguration
    let loader: ResourceLoader
    let sprites: SpriteCache
    let animatedSprites: SpriteCache
    let notifications: FavoriteNotifications?
    let favorites: FavoritesBook
    let fetcher: Fetcher
    let store: any CacheStore
    let log: Logger
    let clock: any PokedexClock
    private let observer = Mutex<(@Sendable (ServiceEvent) -> Void)?>(nil)
    /// The sprite URL pattern: configured, or learned from the bodies seen.
    private let spriteTemplate: Mutex<String>
    private let lastPage = Mutex<(offset: UInt32, limit: UInt32)?>(nil)
    private let probing = Mutex(false)
    let syncState = Mutex(SyncProgress(done: 0, total: 0, running: false))
    let syncFlight = SingleFlight<Int, SyncResult>()
    let prefetcher: Prefetcher
    let searchState = SearchState()

    /// - Parameters:
    ///   - decoder: reads sprites' pixels for their dominant colour; nil leaves `color` empty.
    ///   - notifier: shows favorites changes on the desktop; nil shows nothing.
    public init(configuration: ServiceConfiguration, client: any HTTPClient, store: any CacheStore,
                favorites: FavoritesBook, clock: any PokedexClock = SystemClock(),
                decoder: (any ImageDecoder)? = nil, notifier: (any DesktopNotifier)? = nil,
                log: @escaping Logger = { _, _ in }) {
        self.configuration = configuration
        var hosts = Set(configuration.spriteHosts.map { $0.lowercased() })
        if let apiHost = URLComponents(string: configuration.apiURL)?.host?.lowercased() { hosts.insert(apiHost) }
        fetcher = Fetcher(client: client, clock: clock, allowedHosts: hosts, deadline: configuration.requestDeadline,
                          notFoundTTL: configuration.notFoundTTL, log: log)
        let memory = MemoryTier(capacity: configuration.memoryCacheBytes)
        loader = ResourceLoader(memory: memory, store: store, fetcher: fetcher, clock: clock, log: log)
        sprites = SpriteCache(store: store, fetcher: fetcher, clock: clock, decoder: decoder, log: log)
        animatedSprites = SpriteCache(kind: .animatedGIF, store: store, fetcher: fetcher, clock: clock, decoder: nil, log: log)
        // The describing closure reaches the service through a weak box, filled in at the end.
        let me = WeakBox<PokedexService>()
        notifications = notifier.map { notifier in
            FavoriteNotifications(notifier: notifier) { change in
                await me.value?.notification(for: change)
                    ?? FavoriteNotifications.notification(for: change, types: [], species: nil, spritePath: "")
            }
        }
        self.favorites = favorites
        self.store = store
        self.log = log
        self.clock = clock
        spriteTemplate = Mutex(configuration.spriteURLTemplate ?? ServiceConfiguration.defaultSpriteURLTemplate)
        prefetcher = Prefetcher(maxConcurrent: configuration.maxHostConnections)
        prefetcher.setWork { [weak self] id in
            _ = try? await self?.ensureSprite(PokemonIndex.Item(id: id, name: "#\(id)"))
        }
        fetcher.observeOnline { [weak self] online in self?.networkChanged(online: online) }
        me.value = self
    }

    /// Called for every event a client may follow: durable favorites changes, the network
    /// going and coming back, sync progress. From whichever thread it happened on.
    public func observe(_ handler: @escaping @Sendable (ServiceEvent) -> Void) {
        observer.withLock { $0 = handler }
    }

    func emit(_ event: ServiceEvent) { observer.withLock { $0 }?(event) }

    /// Starts background work: pre-warms the first page. With nothing cached yet, the first
    /// page's sprites are guessed (the API lists Pokémon by id, from 1) and fetched while
    /// the list itself is on its way; the list then confirms or replaces the guess.
    public func start() {
        guard configuration.prefetch else { return }
        let guessing = loader.peek(Self.indexKey, .index) == nil
        pageRequested(offset: 0, limit: 20)  // with no index yet, this fetches it first
        if guessing {
            // Below the list itself: the guesses leave a connection free for it.
            prefetcher.schedule(urgent: [], ahead: Array(1...20))
        }
    }

    /// Waits (blocking, at most `timeout` seconds) until every cache write started in the
    /// background has reached the disk. Call before exiting, so nothing fetched is lost.
    public func finishWrites(timeout: Double = 5) {
        var waited = 0.0
        while loader.pendingWrites.withLock({ $0 }) > 0 && waited < timeout {
            usleep(2000)
            waited += 0.002
        }
    }

    /// Whether the network answered last time it was asked.
    public var isOnline: Bool { fetcher.isOnline }

    // MARK: URLs and keys

    var indexURL: String { configuration.apiURL + "/pokemon/?offset=0&limit=100000" }
    func pokemonURL(_ id: UInt32) -> String { configuration.apiURL + "/pokemon/\(id)/" }
    static let indexKey = "index/pokemon"
    static func pokemonKey(_ id: UInt32) -> String { "pokemon/\(id)" }
    static func speciesKey(_ id: UInt32) -> String { "species/\(id)" }

    // MARK: Index and names

    func index() async throws(PokedexError) -> PokemonIndex {
        do {
            return try await loader.load(Self.indexKey, url: indexURL, .index)
        } catch {
            throw PokedexError.wrap(error, context: "the Pokémon list is not available")
        }
    }

    var cachedIndex: PokemonIndex? { loader.cached(Self.indexKey, url: indexURL, .index) }

    /// Trims, lower-cases and checks a caller's Pokémon name or number.
    static func normalize(_ query: String) throws(PokedexError) -> String {
        let q = query.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !q.isEmpty else { throw .invalidArgument("give a Pokémon name or number, not an empty string") }
        return q
    }

    static func resolve(_ normalized: String, original: String, in index: PokemonIndex) throws(PokedexError) -> PokemonIndex.Item {
        if normalized.allSatisfy(\.isASCII), normalized.allSatisfy(\.isNumber) {
            guard let n = UInt32(normalized), let item = index.item(id: n) else {
                throw .notFound("no Pokémon with number \(normalized.count > 12 ? quoted(normalized) : normalized)")
            }
            return item
        }
        guard let item = index.item(named: normalized) else { throw .notFound("no Pokémon named \(quoted(original.trimmingCharacters(in: .whitespacesAndNewlines)))") }
        return item
    }

    func resolve(_ query: String) async throws(PokedexError) -> PokemonIndex.Item {
        let q = try Self.normalize(query)
        let index = try await index()
        do {
            return try Self.resolve(q, original: query, in: index)
        } catch {
            throw await withSuggestion(error, for: q)
        }
    }

    /// Ends a NotFound message with the best guess: `…; did you mean "pikachu"?`.
    func withSuggestion(_ error: PokedexError, for query: String) async -> PokedexError {
        guard case .notFound(let message) = error, query.unicodeScalars.count <= 64,
              let guess = try? await searchIndex().suggestion(for: query) else { return error }
        return .notFound(message + "; did you mean \"\(guess)\"?")
    }

    // MARK: List

    static func checkLimit(_ limit: UInt32) throws(PokedexError) {
        guard (1...maxLimit).contains(limit) else {
            throw .invalidArgument("limit must be between 1 and \(maxLimit), not \(limit)")
        }
    }

    static func slice(_ index: PokemonIndex, offset: UInt32, limit: UInt32) -> ArraySlice<PokemonIndex.Item> {
        let start = Int(min(UInt64(offset), UInt64(index.items.count)))
        let end = Int(min(UInt64(offset) + UInt64(limit), UInt64(index.items.count)))
        return index.items[start..<end]
    }

    /// `ListPage` from memory, or nil if that needs the disk or the network.
    public func cachedListPage(offset: UInt32, limit: UInt32) throws(PokedexError) -> ListPage? {
        try Self.checkLimit(limit)
        guard let index = cachedIndex else { return nil }
        pageRequested(offset: offset, limit: limit)
        let items = Self.slice(index, offset: offset, limit: limit)
        let paths = sprites.knownPaths(items.lazy.map(\.id))
        let favoriteIDs = favorites.idSet
        var entries: [ListEntry] = []
        entries.reserveCapacity(items.count)
        for (item, path) in zip(items, paths) {
            guard let path else { return nil }
            entries.append(ListEntry(id: item.id, name: item.name, spritePath: path, favorite: favoriteIDs.contains(item.id)))
        }
        return ListPage(total: index.total, entries: entries)
    }

    /// `ListPage(offset, limit)`: the Pokémon list in the API's order.
    public func listPage(offset: UInt32, limit: UInt32) async throws(PokedexError) -> ListPage {
        try Self.checkLimit(limit)
        let index = try await index()
        let entries = Self.slice(index, offset: offset, limit: limit).map(entryCheckingDisk)
        pageRequested(offset: offset, limit: limit)
        return ListPage(total: index.total, entries: entries)
    }

    func entryCheckingDisk(_ item: PokemonIndex.Item) -> ListEntry {
        let path = sprites.knownPath(item.id) ?? sprites.pathOnDisk(item.id)
        return ListEntry(id: item.id, name: item.name, spritePath: path, favorite: favorites.contains(item.id))
    }

    // MARK: Detail

    /// `Detail` from memory, or nil if that needs the disk or the network.
    public func cachedDetail(_ query: String) throws(PokedexError) -> PokemonDetail? {
        let q = try Self.normalize(query)
        guard let index = cachedIndex else { return nil }
        let item: PokemonIndex.Item
        do {
            item = try Self.resolve(q, original: query, in: index)
        } catch {
            return nil  // the async path adds "did you mean"
        }
        guard let record = loader.cached(Self.pokemonKey(item.id), url: pokemonURL(item.id), .pokemon),
              let path = sprites.knownPath(item.id), !(path.isEmpty && record.spriteURL != nil)
        else { return nil }
        var animated = ""
        if record.animatedSpriteURL != nil {
            guard let known = animatedSprites.knownPath(item.id), !known.isEmpty else { return nil }
            animated = known
        }
        var species: SpeciesRecord?
        if let url = record.speciesURL, let sid = APIDecoding.trailingID(url) {
            guard let s = loader.cached(Self.speciesKey(sid), url: url, .species) else { return nil }
            species = s
        }
        return makeDetail(record, species: species, spritePath: path, animatedPath: animated)
    }

    /// `Detail(pokemon)`: types, stats, sizes, genus, flavour text and the sprite's path.
    public func detail(_ query: String) async throws(PokedexError) -> PokemonDetail {
        let item = try await resolve(query)
        let record = try await pokemonRecord(item)
        async let species = speciesRecord(for: record)
        async let sprite = spritePathIfAny(record)
        async let animated = animatedPathIfAny(record)
        return await makeDetail(record, species: species, spritePath: sprite, animatedPath: animated)
    }

    func pokemonRecord(_ item: PokemonIndex.Item) async throws(PokedexError) -> PokemonRecord {
        do {
            let record = try await loader.load(Self.pokemonKey(item.id), url: pokemonURL(item.id), .pokemon)
            learnSpriteTemplate(from: record)
            return record
        } catch {
            throw PokedexError.wrap(error, context: "no details for \(item.name) (#\(item.id))")
        }
    }

    /// The species record, or nil where the API has none or it cannot be had now:
    /// the detail is still worth answering without its genus and flavour text.
    func speciesRecord(for record: PokemonRecord) async -> SpeciesRecord? {
        guard let url = record.speciesURL, let sid = APIDecoding.trailingID(url) else { return nil }
        do {
            let species = try await loader.load(Self.speciesKey(sid), url: url, .species)
            searchState.noteSpecies(species)
            return species
        } catch {
            log(.debug, "no species for \(record.name): \(error)")
            return nil
        }
    }

    /// The default sprite's URL as guessed from the pattern.
    func guessedSpriteURL(_ id: UInt32) -> String {
        spriteTemplate.withLock { $0 }.replacingOccurrences(of: "{id}", with: String(id))
    }

    /// A body that names its sprite `…/{its id}.png` teaches the pattern (unless configured).
    func learnSpriteTemplate(from record: PokemonRecord) {
        guard configuration.spriteURLTemplate == nil, let url = record.spriteURL,
              url.hasSuffix("/\(record.id).png") else { return }
        let template = String(url.dropLast("\(record.id).png".count)) + "{id}.png"
        spriteTemplate.withLock { $0 = template }
    }

    /// The sprite's path, fetching it if needed: from the URL the cached body names, else the
    /// guessed pattern (no 300–600 KB body needed), falling back to the body's URL when the
    /// guess fails.
    func ensureSprite(_ item: PokemonIndex.Item) async throws(PokedexError) -> String {
        let onDisk = sprites.pathOnDisk(item.id)
        if !onDisk.isEmpty { return onDisk }
        let known = loader.peek(Self.pokemonKey(item.id), .pokemon)
        if let known, known.spriteURL == nil { throw .notFound("\(item.name) has no default sprite") }
        do {
            return try await sprites.ensure(item.id, url: known?.spriteURL ?? guessedSpriteURL(item.id))
        } catch where known == nil {
            // The guess missed (404, or a host that is not allowed): the body names the URL.
            let record = try await pokemonRecord(item)
            guard let url = record.spriteURL else { throw .notFound("\(item.name) has no default sprite") }
            do {
                return try await sprites.ensure(item.id, url: url)
            } catch {
                throw PokedexError.wrap(error, context: "the sprite of \(item.name) is not available")
            }
        } catch {
            throw PokedexError.wrap(error, context: "the sprite of \(item.name) is not available")
        }
    }

    /// The default sprite's path, or "" where the API names none or it cannot be had now.
    func spritePathIfAny(_ record: PokemonRecord) async -> String {
        await pathIfAny(in: sprites, record.id, url: record.spriteURL, for: record.name)
    }

    /// The animated GIF's path, fetched on demand; "" where the API names none or it cannot be had now.
    func animatedPathIfAny(_ record: PokemonRecord) async -> String {
        await pathIfAny(in: animatedSprites, record.id, url: record.animatedSpriteURL, for: record.name)
    }

    private func pathIfAny(in cache: SpriteCache, _ id: UInt32, url: String?, for name: String) async -> String {
        guard let url else { return "" }
        do {
            return try await cache.ensure(id, url: url)
        } catch {
            log(.debug, "no \(cache.kind.noun) for \(name): \(error)")
            return ""
        }
    }

    func makeDetail(_ r: PokemonRecord, species: SpeciesRecord?, spritePath: String, animatedPath: String) -> PokemonDetail {
        PokemonDetail(
            id: r.id, name: r.name, height: r.height, weight: r.weight, types: r.types, abilities: r.abilities,
            stats: r.stats, spritePath: spritePath, favorite: favorites.contains(r.id),
            genus: species?.genus ?? "", flavorText: species?.flavorText ?? "",
            color: spritePath.isEmpty ? "" : sprites.knownColor(r.id), animatedSpritePath: animatedPath)
    }

    // MARK: Sprite

    /// `SpritePath(pokemon)`: fetches the default sprite if needed and returns its path.
    public func spritePath(_ query: String) async throws(PokedexError) -> String {
        try await ensureSprite(try await resolve(query))
    }

    // MARK: Search

    /// A result of `SearchDetailed`: the entry, and why it matched.
    public struct SearchResult: Equatable, Sendable {
        public var entry: ListEntry
        public var hit: SearchHit
    }

    /// `Search` from memory, or nil when the index or its filters need building or fetching.
    public func cachedSearch(_ query: String, limit: UInt32) throws(PokedexError) -> [ListEntry]? {
        try cachedSearchDetailed(query, limit: limit)?.map(\.entry)
    }

    /// `Search(query, limit)`: see ``searchDetailed(_:limit:)``.
    public func search(_ query: String, limit: UInt32) async throws(PokedexError) -> [ListEntry] {
        try await searchDetailed(query, limit: limit).map(\.entry)
    }

    /// `SearchDetailed` from memory, or nil.
    public func cachedSearchDetailed(_ query: String, limit: UInt32) throws(PokedexError) -> [SearchResult]? {
        let q = try Self.checkSearch(query, limit: limit)
        guard let built = searchState.built.withLock({ $0 }), !built.stale else { return nil }
        if q.hasFilters && searchState.filters.withLock({ $0 }) == nil { return nil }
        return results(built.index.search(q, limit: Int(limit)), checkDisk: false)
    }

    /// `SearchDetailed(query, limit)`: exact number or name (any language) first, then name
    /// prefixes, word prefixes, substrings, then typo-tolerant matches; `type:` and `gen:` filter.
    public func searchDetailed(_ query: String, limit: UInt32) async throws(PokedexError) -> [SearchResult] {
        let q = try Self.checkSearch(query, limit: limit)
        if q.hasFilters { try await loadFilters() }
        let index = try await searchIndex()
        return results(index.search(q, limit: Int(limit)), checkDisk: true)
    }

    func results(_ hits: [SearchHit], checkDisk: Bool) -> [SearchResult] {
        hits.map { SearchResult(entry: checkDisk ? entryCheckingDisk($0.item) : entryFromMemory($0.item), hit: $0) }
    }

    static func checkSearch(_ query: String, limit: UInt32) throws(PokedexError) -> SearchQuery {
        try checkLimit(limit)
        guard query.unicodeScalars.count <= 256 else { throw .invalidArgument("the search query is too long (at most 256 characters)") }
        let q = SearchQuery(parsing: query)
        guard !q.text.isEmpty || q.hasFilters else {
            throw .invalidArgument("the search query is empty; give part of a name, a number, type:NAME or gen:N")
        }
        return q
    }

    func entryFromMemory(_ item: PokemonIndex.Item) -> ListEntry {
        ListEntry(id: item.id, name: item.name, spritePath: sprites.knownPath(item.id) ?? "", favorite: favorites.contains(item.id))
    }

    /// (species whose localized names are indexed, species the API lists).
    public var searchCoverage: (localized: UInt32, species: UInt32) {
        let species = cachedIndex?.items.filter { $0.id < 10_000 }.count ?? 0
        return (UInt32(searchState.localized.withLock { $0.count }), UInt32(species))
    }

    /// The search index, built (off the bus thread) from the list, every species record on
    /// disk, and the type and generation filters, rebuilt when any of them changed.
    func searchIndex() async throws(PokedexError) -> SearchIndex {
        if let built = searchState.built.withLock({ $0 }), !built.stale { return built.index }
        let index = try await index()
        if searchState.scannedDisk.withLock({ s in defer { s = true }; return !s }) {
            for item in index.items where item.id < 10_000 {
                if let s = loader.peek(Self.speciesKey(item.id), .species) { searchState.noteSpecies(s) }
            }
            if let f = loader.peekFilters() { searchState.filters.withLock { $0 = f } }
        }
        let filters = searchState.filters.withLock { $0 }
        let built = SearchIndex(
            index: index, localized: searchState.localized.withLock { $0 },
            types: (filters?.types ?? [:]).mapValues(Set.init),
            generations: Self.generationsByPokemon(filters ?? SearchFilters(types: [:], generations: [:]), index: index))
        searchState.built.withLock { $0 = (built, false) }
        return built
    }

    /// Generations list species; forms (ids past 10000) join their species by name.
    static func generationsByPokemon(_ filters: SearchFilters, index: PokemonIndex) -> [Int: Set<UInt32>] {
        var generationOfSpecies: [UInt32: Int] = [:]
        for (g, ids) in filters.generations { for id in ids { generationOfSpecies[id] = g } }
        var speciesByName = filters.speciesIDs
        for item in index.items where item.id < 10_000 && speciesByName[item.name] == nil { speciesByName[item.name] = item.id }
        var out: [Int: Set<UInt32>] = [:]
        for item in index.items {
            var sid: UInt32? = item.id < 10_000 ? item.id : nil
            if sid == nil {
                var parts = item.name.split(separator: "-").map(String.init)
                while sid == nil && parts.count > 1 { parts.removeLast(); sid = speciesByName[parts.joined(separator: "-")] }
            }
            if let sid, let g = generationOfSpecies[sid] { out[g, default: []].insert(item.id) }
        }
        return out
    }

    /// Fetches the type and generation resources once (then from the disk tier).
    func loadFilters() async throws(PokedexError) {
        if searchState.filters.withLock({ $0 }) != nil { return }
        if let f = loader.peekFilters() {
            searchState.filters.withLock { $0 = f }
            searchState.built.withLock { b in if b != nil { b!.stale = true } }
            return
        }
        do {
            let api = configuration.apiURL
            async let typeNames = fetchJSON(api + "/type/?limit=100", FilterDecoding.names)
            async let genNames = fetchJSON(api + "/generation/?limit=100", FilterDecoding.names)
            var types: [String: [UInt32]] = [:]
            for name in try await typeNames {
                types[name] = try await fetchJSON(api + "/type/\(name)/", FilterDecoding.typeMembers)
            }
            var generations: [Int: [UInt32]] = [:]
            var speciesIDs: [String: UInt32] = [:]
            for name in try await genNames {
                let (id, species) = try await fetchJSON(api + "/generation/\(name)/", FilterDecoding.generationSpecies)
                generations[id] = species.map(\.1)
                for (n, sid) in species { speciesIDs[n] = sid }
            }
            let filters = SearchFilters(types: types, generations: generations, speciesIDs: speciesIDs)
            loader.storeFilters(filters)
            searchState.filters.withLock { $0 = filters }
            searchState.built.withLock { b in if b != nil { b!.stale = true } }
        } catch {
            throw PokedexError.wrap(error, context: "type and generation filters are not available")
        }
    }

    func fetchJSON<T>(_ url: String, _ decode: ([UInt8]) throws -> T) async throws -> T {
        guard case .body(let body, _, _) = try await fetcher.fetch(url) else { throw FetchError.http(status: 304, url: url) }
        return try decode(body)
    }

    // MARK: Favorites

    /// `ToggleFavorite(pokemon)`: flips it; durable before it returns. Returns the new state.
    public func toggleFavorite(_ query: String) async throws(PokedexError) -> Bool {
        let item = try await resolve(query)
        let change = try await favorites.toggle(id: item.id, name: item.name)
        announce(change)
        return change.favorite
    }

    /// `SetFavorite(pokemon, favorite)`: idempotent; durable before it returns.
    public func setFavorite(_ query: String, _ favorite: Bool) async throws(PokedexError) {
        let item = try await resolve(query)
        if let change = try await favorites.set(id: item.id, name: item.name, favorite: favorite) { announce(change) }
    }

    private func announce(_ change: FavoriteChange) {
        log(.debug, "\(change.name) \(change.favorite ? "added to" : "removed from") favorites")
        emit(.favorite(change))
        notifications?.post(change)
    }

    /// The notification for a change: English name, genus, types and the sprite, from the
    /// cache or, failing that, the network (a notification is worth a short wait; a reply is not).
    func notification(for change: FavoriteChange) async -> DesktopNotification {
        let item = PokemonIndex.Item(id: change.id, name: change.name)
        let record = try? await pokemonRecord(item)
        let species: SpeciesRecord? = if let record { await speciesRecord(for: record) } else { nil }
        let sprite = (try? await ensureSprite(item)) ?? ""
        return FavoriteNotifications.notification(for: change, types: record?.types ?? [], species: species, spritePath: sprite)
    }

    /// `ListFavorites()`: in the order they were added.
    public func listFavorites() async -> [ListEntry] {
        await favorites.all().map { entryCheckingDisk(.init(id: $0.id, name: $0.name)) }
    }

    /// Favorite ids in the order added, for the `Favorites` property. Never waits.
    public var favoriteIDs: [UInt32] { favorites.ids }

    // MARK: Pre-warming and the network

    /// A page was asked for: fetch its sprites and those of the next two pages, in the
    /// background, in that order. Work for other pages is dropped. Never waits.
    func pageRequested(offset: UInt32, limit: UInt32) {
        guard configuration.prefetch else { return }
        let changed = lastPage.withLock { last -> Bool in
            defer { last = (offset, limit) }
            return last.map { $0.offset != offset || $0.limit != limit } ?? true
        }
        guard changed else { return }
        guard let index = cachedIndex else {
            Task(priority: .utility) { [self] in
                guard (try? await self.index()) != nil else { return }
                lastPage.withLock { $0 = nil }
                pageRequested(offset: offset, limit: limit)
            }
            return
        }
        var pages: [[UInt32]] = []
        for page in 0..<3 {
            let start = UInt64(offset) + UInt64(page) * UInt64(limit)
            guard start < UInt64(index.items.count) else { break }
            pages.append(Self.slice(index, offset: UInt32(start), limit: limit).compactMap { item in
                if case let path? = sprites.knownPath(item.id), !path.isEmpty { return nil }
                return item.id
            })
        }
        prefetcher.schedule(urgent: pages.first ?? [], ahead: pages.dropFirst().flatMap { $0 })
    }

    /// The network went or came back: pause or resume prefetching, tell clients, and
    /// while it is gone, probe gently (2 s, doubling to 60 s) until it answers.
    func networkChanged(online: Bool) {
        prefetcher.setPaused(!online)
        emit(.online(online))
        guard !online, probing.withLock({ p in defer { p = true }; return !p }) else { return }
        Task(priority: .background) { [self] in
            var delay = 2.0
            while !fetcher.isOnline {
                do { try await clock.sleep(seconds: delay) } catch { break }
                if await fetcher.probe(indexURL) { break }
                delay = min(delay * 2, 60)
            }
            probing.withLock { $0 = false }
        }
    }

    // MARK: Status

    /// What `Status` reports. Never waits.
    public func status() -> ServiceStatus {
        let mem = loader.memory.usage
        let disk = store.usage
        return ServiceStatus(
            version: ServiceConfiguration.version, apiURL: configuration.apiURL,
            cacheDirectory: configuration.cacheDirectory, dataDirectory: configuration.dataDirectory,
            memoryEntries: mem.entries, memoryBytes: mem.bytes, memoryCapBytes: configuration.memoryCacheBytes,
            diskEntries: disk.entries, diskBytes: disk.bytes, diskCapBytes: configuration.diskCacheBytes,
            favorites: favorites.ids.count, online: fetcher.isOnline)
    }
}
