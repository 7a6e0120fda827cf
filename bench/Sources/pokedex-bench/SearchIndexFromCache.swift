import PokedexCore

/// No network at all: every request fails at once, so the service answers from its cache.
private struct Offline: HTTPClient {
    func get(_ request: HTTPRequest) async throws -> HTTPResponse { throw TransportFailure.connection("offline (benchmark)") }
}

/// The search index exactly as pokedexd builds it from a synced cache directory (the list,
/// every species record, the filters, the bundled names), by the service itself, offline.
func searchIndex(cache directory: String) async -> SearchIndex? {
    guard let store = try? FileCacheStore(directory: directory, capacity: 1 << 40),
          let favorites = try? FavoritesBook(persistence: NoFavorites()) else { return nil }
    var config = ServiceConfiguration(cacheDirectory: directory, dataDirectory: directory)
    config.prefetch = false
    let service = PokedexService(configuration: config, client: Offline(), store: store, favorites: favorites)
    // One search builds the index; its answer does not matter.
    _ = try? await service.searchDetailed("a", limit: 1).value()
    return service.searchIndex
}

private struct NoFavorites: FavoritesPersistence {
    func load() -> LoadedFavorites { LoadedFavorites() }
    func save(_ favorites: [Favorite], notice: FavoritesNotice?) throws {}
    func isKept(_ notice: FavoritesNotice) -> Bool { false }
}
