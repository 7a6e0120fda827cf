import FoundationEssentials
import PokedexNetwork

/// The Pokédex: answers list, detail, search, sprite and favorites questions from the
/// memory tier, the disk tier or PokeAPI, in that order.
///
/// A thin façade: it checks a call's arguments, resolves what the caller means, and asks
/// the feature part that owns the answer. Each call returns an ``Answer``: `.now` when
/// memory has everything (the bus thread replies inline), `.later` otherwise.
public final class PokedexService: Sendable {
    /// The most entries one call may ask for.
    public static let maxLimit = Catalog.maxLimit

    public let configuration: ServiceConfiguration
    let loader: ResourceLoader
    let fetcher: Fetcher
    let routes: APIRoutes
    let pattern: SpriteURLPattern
    let store: any CacheStore
    let favorites: FavoritesBook
    let catalog: Catalog
    let search: SearchEngine
    let sprites: Sprites
    let records: Records
    let details: Details
    /// The moves a Pokémon learns, for `Moves`.
    let moveLists: MoveLists
    let terms: Terms
    let rows: Rows
    let prefetch: PagePrefetch
    let health: NetworkHealth
    let syncing: Sync
    let events: ServiceEvents
    let maintenance: CacheMaintenance
    let randomSprites: RandomSprites
    let notifications: FavoriteNotifications?
    let notifier: (any DesktopNotifier)?
    let launcher: (any DesktopLauncher)?
    /// What the desktop's search providers ask.
    let desktop: DesktopSearch
    /// Evolution families, for `Detail` and `Sync`.
    let evolutions: Evolutions
    let log: Logger
    /// The service's own words (notifications, KRunner's actions), in the session's language.
    let words: Words
    /// Owns every task the service starts on its own; stopped at exit.
    let background = BackgroundWork()

    /// - Parameters:
    ///   - decoder: reads sprites' pixels for their dominant colour; nil leaves `color` empty.
    ///   - notifier: shows favorites changes on the desktop; nil shows nothing.
    ///   - words: the notifications' own words, in the session's language.
    ///   - languageWords: the service's own words in a caller's language (a PokeAPI code): a
    ///     family's conditions in `LocalizedDetail`.
    ///   - syncExecutor: where a sync's steps run (the daemon's event loop, in slices below its
    ///     other work); nil: a thread of the sync's own.
    public init(configuration: ServiceConfiguration, client: any HTTPClient, store: any CacheStore,
                favorites: FavoritesBook, clock: any PokedexClock = SystemClock(),
                decoder: (any ImageDecoder)? = nil, notifier: (any DesktopNotifier)? = nil,
                launcher: (any DesktopLauncher)? = nil, words: Words = .english,
                languageWords: @escaping @Sendable (String) -> Words = { _ in .english },
                releaseMemory: @escaping @Sendable () -> Void = {}, syncExecutor: (any TaskExecutor)? = nil,
                log: @escaping Logger = { _, _ in }) {
        self.notifier = notifier
        self.launcher = launcher
        self.configuration = configuration
        self.store = store
        self.favorites = favorites
        self.log = log
        self.words = words
        let routes = APIRoutes(api: configuration.apiURL)
        self.routes = routes
        var hosts = Set(configuration.spriteHosts.map { $0.lowercased() })
        if let apiHost = URLComponents(string: configuration.apiURL)?.host?.lowercased() { hosts.insert(apiHost) }
        let fetcher = Fetcher(client: client, clock: clock, allowedHosts: hosts, apiHost: HostHealth.authority(configuration.apiURL),
                              httpsOnly: configuration.apiURL.lowercased().hasPrefix("https://"),
                              deadline: configuration.requestDeadline, notFoundTTL: configuration.notFoundTTL,
                              maxInFlight: configuration.maxRequests, maxHostConnections: configuration.maxHostConnections,
                              schedule: NetworkSchedule(scale: configuration.scheduleScale), log: log)
        self.fetcher = fetcher
        loader = ResourceLoader(memory: MemoryTier(capacity: configuration.memoryCacheBytes), store: store,
                                fetcher: fetcher, clock: clock, background: background, log: log)
        catalog = Catalog(loader: loader, routes: routes)
        let search = SearchEngine(catalog: catalog, loader: loader, fetcher: fetcher, routes: routes)
        self.search = search
        let pattern = SpriteURLPattern(configured: configuration.spriteURLTemplate)
        self.pattern = pattern
        let records = Records(loader: loader, routes: routes, pattern: pattern, log: log) { search.noteSpecies($0) }
        self.records = records
        let sprites = Sprites(
            still: SpriteCache(store: store, fetcher: fetcher, clock: clock, decoder: decoder, log: log),
            animated: SpriteCache(kind: .animatedGIF, store: store, fetcher: fetcher, clock: clock, decoder: nil, log: log),
            shiny: SpriteCache(kind: .shinyPNG, store: store, fetcher: fetcher, clock: clock, decoder: nil, log: log),
            cry: SpriteCache(kind: .cryOGG, store: store, fetcher: fetcher, clock: clock, decoder: nil, log: log),
            records: records, pattern: pattern, log: log)
        self.sprites = sprites
        let terms = Terms(loader: loader, routes: routes, log: log)
        self.terms = terms
        let evolutions = Evolutions(loader: loader, routes: routes, log: log)
        self.evolutions = evolutions
        let details = Details(records: records, sprites: sprites, favorites: favorites, terms: terms, evolutions: evolutions,
                              language: configuration.language, words: languageWords)
        self.details = details
        moveLists = MoveLists(records: records, loader: loader, routes: routes, terms: terms)
        let rows = Rows(sprites: sprites, favorites: favorites)
        self.rows = rows
        desktop = DesktopSearch(search: search, catalog: catalog, records: records, rows: rows, details: details,
                                terms: terms, decoder: decoder, background: background, clock: clock, language: configuration.language)
        prefetch = PagePrefetch(enabled: configuration.prefetch, maxConcurrent: max(1, min(configuration.maxRequests / 2, 32)),
                                catalog: catalog, sprites: sprites, background: background)
        let health = NetworkHealth(fetcher: fetcher, clock: clock, background: background)
        self.health = health
        let events = ServiceEvents()
        self.events = events
        syncing = Sync(catalog: catalog, records: records, sprites: sprites, terms: terms, evolutions: evolutions, moveLists: moveLists,
                       words: languageWords, search: search,
                       health: health, workers: configuration.syncParallel, retryPauses: Sync.retryPauses.map { $0 * configuration.scheduleScale },
                       clock: clock, log: log, written: { [loader] in await loader.writesFinished() },
                       releaseMemory: releaseMemory, executor: syncExecutor ?? Sync.ownThread) { events.emit(.sync($0)) }
        maintenance = CacheMaintenance(configuration: configuration, store: store, loader: loader, catalog: catalog,
                                       records: records, sprites: sprites, search: search, prefetch: prefetch,
                                       routes: routes, clock: clock, log: log)
        randomSprites = RandomSprites(catalog: catalog, favorites: favorites, sprites: sprites,
                                      warmsShiny: configuration.prefetch, background: background, log: log)
        let background = background
        notifications = notifier.map { notifier in
            FavoriteNotifications(notifier: notifier, background: background, clock: clock, quick: { change in
                FavoriteNotifications.notification(for: change, types: [], species: nil, spritePath: "",
                                                   language: configuration.language, words: words)
            }, describe: { change in
                await FavoriteNotifications.describe(change, records: records, sprites: sprites, terms: terms,
                                                     language: configuration.language, words: words)
            })
        }
        // Weak: the closure lives in the fetcher's host health, which the pre-warming reaches.
        health.follow { [weak prefetch, weak health] change in
            guard let health, let prefetch else { return }
            // Pre-warming waits while the API or the sprite host is away; Online follows the API alone.
            prefetch.setPaused(!health.isOnline || !health.isUp(pattern.guess(1)))
            if change.isAPI { events.emit(.online(change.up)) }
        }
    }

    /// Called for every event a client may follow: durable favorites changes, the network
    /// going and coming back, sync progress. From whichever thread it happened on.
    public func observe(_ handler: @escaping @Sendable (ServiceEvent) -> Void) { events.observe(handler) }

    /// Whether the network answered last time it was asked.
    public var isOnline: Bool { health.isOnline }

    /// What a caller means by a name or number: an API name or a number as written
    /// (``Catalog/resolve(_:original:in:)``), else a name search finds whole in any language
    /// ("glurak", "ピカチュウ"), the reader's `language` first (nil: the service's); "did you
    /// mean" a name in that language when nothing matches.
    func resolve(_ query: String, language: String? = nil) async throws(PokedexError) -> PokemonIndex.Item {
        let q = try Catalog.normalize(query)
        let index = try await catalog.index()
        let language = language ?? configuration.language
        do {
            return try Catalog.resolve(q, original: query, in: index)
        } catch {
            if case .notFound = error, let item = try? await search.index().named(query, preferring: language) {
                return item
            }
            throw await search.withSuggestion(error, for: q, language: language)
        }
    }

    /// ``resolve(_:language:)`` from memory alone; nil where it needs to wait (or finds nothing).
    func resolveFromMemory(_ query: String, language: String? = nil) throws(PokedexError) -> PokemonIndex.Item? {
        if let item = try catalog.resolveFromMemory(query) { return item }
        return search.builtIndex?.named(query, preferring: language ?? configuration.language)
    }

    // MARK: Calls

    /// `ListPage(offset, limit)`: the Pokémon list in the API's order.
    public func listPage(offset: UInt32, limit: UInt32) throws(PokedexError) -> Answer<ListPage> {
        try Catalog.checkLimit(limit)
        if let index = catalog.cachedIndex,
           let entries = rows.pageFromMemory(Catalog.slice(index, offset: offset, limit: limit)) {
            prefetch.pageRequested(offset: offset, limit: limit)
            return .now(ListPage(total: index.total, entries: entries))
        }
        return .later { [self] () throws(PokedexError) in
            let index = try await catalog.index()
            let entries = Catalog.slice(index, offset: offset, limit: limit).map(rows.checkingDisk)
            prefetch.pageRequested(offset: offset, limit: limit)
            return ListPage(total: index.total, entries: entries)
        }
    }

    /// `Detail(pokemon)`: types, stats, sizes, genus, flavour text and the sprite's path.
    public func detail(_ query: String) throws(PokedexError) -> Answer<PokemonDetail> {
        if let item = try resolveFromMemory(query), let d = details.fromMemory(item) { return .now(d) }
        return .later { [self] () throws(PokedexError) in try await details.load(try await resolve(query)) }
    }

    /// `SearchDetailed(query, limit)`: exact number or name (any language) first, then name
    /// prefixes, word prefixes, substrings, then typo-tolerant matches; `type:` and `gen:` filter.
    public func searchDetailed(_ query: String, limit: UInt32) throws(PokedexError) -> Answer<[SearchMatch]> {
        let q = try SearchEngine.check(query, limit: limit, language: configuration.language)
        if let hits = search.searchFromMemory(q, limit: limit) {
            if let e = search.unknownFilter(q) { throw e }
            return .now(hits.map { match($0, rows.fromMemory) })
        }
        return .later { [self] () throws(PokedexError) in
            let hits = try await search.search(q, limit: limit)
            if let e = search.unknownFilter(q) { throw e }
            return hits.map { match($0, rows.checkingDisk) }
        }
    }

    /// `Search(query, limit)`: ``searchDetailed(_:limit:)`` without the reasons.
    public func search(_ query: String, limit: UInt32) throws(PokedexError) -> Answer<[ListEntry]> {
        try searchDetailed(query, limit: limit).map { $0.map(\.entry) }
    }

    /// `SearchPage(query, offset, limit)`: ``search(_:limit:)`` a page at a time, with how many
    /// match in all (at most ``SearchEngine/maxMatches``).
    public func searchPage(_ query: String, offset: UInt32, limit: UInt32) throws(PokedexError) -> Answer<ListPage> {
        let q = try SearchEngine.check(query, limit: limit, language: configuration.language)
        @Sendable func page(_ hits: [SearchHit], _ row: (PokemonIndex.Item) -> ListEntry) -> ListPage {
            ListPage(total: UInt32(hits.count), entries: Catalog.slice(hits, offset: offset, limit: limit).map { row($0.item) })
        }
        if let hits = search.searchFromMemory(q, limit: SearchEngine.maxMatches) {
            if let e = search.unknownFilter(q) { throw e }
            return .now(page(hits, rows.fromMemory))
        }
        return .later { [self] () throws(PokedexError) in
            let hits = try await search.search(q, limit: SearchEngine.maxMatches)
            if let e = search.unknownFilter(q) { throw e }
            return page(hits, rows.checkingDisk)
        }
    }

    private func match(_ hit: SearchHit, _ row: (PokemonIndex.Item) -> ListEntry) -> SearchMatch {
        SearchMatch(entry: row(hit.item), match: hit.match.rawValue, matchedName: hit.matched,
                    language: hit.language, distance: UInt32(hit.distance))
    }

    /// `SpritePath(pokemon)`: fetches the default sprite if needed and returns its path.
    public func spritePath(_ query: String) -> Answer<String> {
        .later { [self] () throws(PokedexError) in try await sprites.ensure(try await resolve(query)) }
    }

    /// `CryPath(pokemon)`: fetches the cry if needed and returns its path.
    public func cryPath(_ query: String) -> Answer<String> {
        .later { [self] () throws(PokedexError) in try await sprites.ensureCry(try await resolve(query)) }
    }

    /// `RandomSprite(favorites, shiny_chance)`: a Pokémon at random among those whose sprite
    /// is cached (or the favorites'), the shiny sprite that often.
    public func randomSprite(favorites: Bool, shinyChance: Double) throws(PokedexError) -> Answer<RandomSprite> {
        try RandomSprites.check(shinyChance: shinyChance)
        return .later { [self] () throws(PokedexError) in
            try await randomSprites.pick(favoritesOnly: favorites, shinyChance: shinyChance)
        }
    }

    /// `Sync()`: everything for offline use.
    public func sync() -> Answer<SyncResult> {
        .later { [self] () throws(PokedexError) in await syncing.run() }
    }
}
