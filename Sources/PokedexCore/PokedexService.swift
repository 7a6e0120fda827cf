import Foundation
import Synchronization

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
    let favorites: FavoritesBook
    let fetcher: Fetcher
    let store: any CacheStore
    let log: Logger
    private let observer = Mutex<(@Sendable (FavoriteChange) -> Void)?>(nil)

    public init(configuration: ServiceConfiguration, client: any HTTPClient, store: any CacheStore,
                favorites: FavoritesBook, clock: any PokedexClock = SystemClock(), log: @escaping Logger = { _, _ in }) {
        self.configuration = configuration
        var hosts = Set(configuration.spriteHosts.map { $0.lowercased() })
        if let apiHost = URLComponents(string: configuration.apiURL)?.host?.lowercased() { hosts.insert(apiHost) }
        fetcher = Fetcher(client: client, clock: clock, allowedHosts: hosts, deadline: configuration.requestDeadline, log: log)
        let memory = MemoryTier(capacity: configuration.memoryCacheBytes)
        loader = ResourceLoader(memory: memory, store: store, fetcher: fetcher, clock: clock, log: log)
        sprites = SpriteCache(store: store, fetcher: fetcher, clock: clock, log: log)
        self.favorites = favorites
        self.store = store
        self.log = log
    }

    /// Called after every durable favorites change, from whichever thread made it.
    public func observeFavorites(_ handler: @escaping @Sendable (FavoriteChange) -> Void) {
        observer.withLock { $0 = handler }
    }

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
        return try Self.resolve(q, original: query, in: try await index())
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
        var entries: [ListEntry] = []
        entries.reserveCapacity(Int(limit))
        for item in Self.slice(index, offset: offset, limit: limit) {
            guard let path = sprites.knownPath(item.id) else { return nil }
            entries.append(ListEntry(id: item.id, name: item.name, spritePath: path, favorite: favorites.contains(item.id)))
        }
        return ListPage(total: index.total, entries: entries)
    }

    /// `ListPage(offset, limit)`: the Pokémon list in the API's order.
    public func listPage(offset: UInt32, limit: UInt32) async throws(PokedexError) -> ListPage {
        try Self.checkLimit(limit)
        let index = try await index()
        let entries = Self.slice(index, offset: offset, limit: limit).map(entryCheckingDisk)
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
        let item = try Self.resolve(q, original: query, in: index)
        guard let record = loader.cached(Self.pokemonKey(item.id), url: pokemonURL(item.id), .pokemon),
              let path = sprites.knownPath(item.id), !(path.isEmpty && record.spriteURL != nil)
        else { return nil }
        var species: SpeciesRecord?
        if let url = record.speciesURL, let sid = APIDecoding.trailingID(url) {
            guard let s = loader.cached(Self.speciesKey(sid), url: url, .species) else { return nil }
            species = s
        }
        return makeDetail(record, species: species, spritePath: path)
    }

    /// `Detail(pokemon)`: types, stats, sizes, genus, flavour text and the sprite's path.
    public func detail(_ query: String) async throws(PokedexError) -> PokemonDetail {
        let item = try await resolve(query)
        let record = try await pokemonRecord(item)
        async let species = speciesRecord(for: record)
        async let sprite = spritePathIfAny(record)
        return await makeDetail(record, species: species, spritePath: sprite)
    }

    func pokemonRecord(_ item: PokemonIndex.Item) async throws(PokedexError) -> PokemonRecord {
        do {
            return try await loader.load(Self.pokemonKey(item.id), url: pokemonURL(item.id), .pokemon)
        } catch {
            throw PokedexError.wrap(error, context: "no details for \(item.name) (#\(item.id))")
        }
    }

    /// The species record, or nil where the API has none or it cannot be had now:
    /// the detail is still worth answering without its genus and flavour text.
    func speciesRecord(for record: PokemonRecord) async -> SpeciesRecord? {
        guard let url = record.speciesURL, let sid = APIDecoding.trailingID(url) else { return nil }
        do {
            return try await loader.load(Self.speciesKey(sid), url: url, .species)
        } catch {
            log(.debug, "no species for \(record.name): \(error)")
            return nil
        }
    }

    func spritePathIfAny(_ record: PokemonRecord) async -> String {
        guard let url = record.spriteURL else { return "" }
        do {
            return try await sprites.ensure(record.id, url: url)
        } catch {
            log(.debug, "no sprite for \(record.name): \(error)")
            return ""
        }
    }

    func makeDetail(_ r: PokemonRecord, species: SpeciesRecord?, spritePath: String) -> PokemonDetail {
        PokemonDetail(
            id: r.id, name: r.name, height: r.height, weight: r.weight, types: r.types, abilities: r.abilities,
            stats: r.stats, spritePath: spritePath, favorite: favorites.contains(r.id),
            genus: species?.genus ?? "", flavorText: species?.flavorText ?? "")
    }

    // MARK: Sprite

    /// `SpritePath(pokemon)`: fetches the default sprite if needed and returns its path.
    public func spritePath(_ query: String) async throws(PokedexError) -> String {
        let item = try await resolve(query)
        let onDisk = sprites.pathOnDisk(item.id)
        if !onDisk.isEmpty { return onDisk }
        let record = try await pokemonRecord(item)
        guard let url = record.spriteURL else { throw .notFound("\(item.name) has no default sprite") }
        do {
            return try await sprites.ensure(item.id, url: url)
        } catch {
            throw PokedexError.wrap(error, context: "the sprite of \(item.name) is not available")
        }
    }

    // MARK: Search

    /// `Search` from memory, or nil if the index is not in memory.
    public func cachedSearch(_ query: String, limit: UInt32) throws(PokedexError) -> [ListEntry]? {
        let q = try Self.checkSearch(query, limit: limit)
        guard let index = cachedIndex else { return nil }
        return Search.rank(q, in: index, limit: Int(limit)).map(entryFromMemory)
    }

    /// `Search(query, limit)`: exact number or name first, then prefixes, then substrings.
    public func search(_ query: String, limit: UInt32) async throws(PokedexError) -> [ListEntry] {
        let q = try Self.checkSearch(query, limit: limit)
        return Search.rank(q, in: try await index(), limit: Int(limit)).map(entryCheckingDisk)
    }

    static func checkSearch(_ query: String, limit: UInt32) throws(PokedexError) -> String {
        try checkLimit(limit)
        let q = query.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !q.isEmpty else { throw .invalidArgument("the search query is empty; give part of a name or a number") }
        return q
    }

    func entryFromMemory(_ item: PokemonIndex.Item) -> ListEntry {
        ListEntry(id: item.id, name: item.name, spritePath: sprites.knownPath(item.id) ?? "", favorite: favorites.contains(item.id))
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
        observer.withLock { $0 }?(change)
    }

    /// `ListFavorites()`: in the order they were added.
    public func listFavorites() async -> [ListEntry] {
        await favorites.all().map { entryCheckingDisk(.init(id: $0.id, name: $0.name)) }
    }

    /// Favorite ids in the order added, for the `Favorites` property. Never waits.
    public var favoriteIDs: [UInt32] { favorites.ids }

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
