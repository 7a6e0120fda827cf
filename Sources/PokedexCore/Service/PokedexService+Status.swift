/// The cache's members, and what the service reports without waiting.
extension PokedexService {
    // MARK: The cache

    /// `CacheStats()`: what the disk tier holds by kind, with ages and staleness; both tiers' totals.
    public func cacheStats() -> Answer<CacheStats> {
        .later { [self] () throws(PokedexError) in try maintenance.stats() }
    }

    /// `VerifyCache()`: every file checked; the damaged fetched again; orphans removed.
    public func verifyCache() -> Answer<CacheVerifyResult> {
        .later { [self] () throws(PokedexError) in try await maintenance.verify() }
    }

    /// `ClearCache()`: both tiers emptied; favorites kept. Clients hear of it (`CacheCleared`):
    /// the sprite paths they hold are gone.
    public func clearCache() -> Answer<CacheClearResult> {
        .later { [self] () throws(PokedexError) in
            let result = try await maintenance.clear()
            events.emit(.cacheCleared)
            return result
        }
    }

    // MARK: Properties and status (never wait)

    /// Favorite ids in the order added.
    public var favoriteIDs: [UInt32] { favorites.ids }

    /// Progress of the sync running now, or of the last one.
    public var syncProgress: SyncProgress { syncing.progress }

    /// The search index as built last (nil before the first search or warm start): what
    /// `pokedex-bench search-core` measures, exactly as the service searches it.
    public var searchIndex: SearchIndex? { search.builtIndex }

    /// (species whose localized names are indexed, species the API lists).
    public var searchCoverage: (localized: UInt32, species: UInt32) { search.coverage }

    /// What `Status` reports.
    public func status() -> ServiceStatus {
        let mem = loader.memory.usage
        let disk = store.usage
        var status = ServiceStatus(
            version: ServiceConfiguration.version, apiURL: configuration.apiURL,
            cacheDirectory: configuration.cacheDirectory, dataDirectory: configuration.dataDirectory,
            memoryEntries: mem.entries, memoryBytes: mem.bytes, memoryCapBytes: configuration.memoryCacheBytes,
            diskEntries: disk.entries, diskBytes: disk.bytes, diskCapBytes: configuration.diskCacheBytes,
            favorites: favorites.ids.count, online: health.isOnline, hosts: health.hosts,
            requestsInFlight: fetcher.gate.usage.inFlight, maxRequestsInFlight: fetcher.gate.usage.maxInFlight)
        status.sandbox = configuration.sandbox
        status.favoritesProblem = favorites.problem ?? ""
        status.favoritesReadable = favorites.readable
        return status
    }
}
