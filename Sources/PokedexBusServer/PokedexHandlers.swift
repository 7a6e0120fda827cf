import PokedexCore
import PokedexProtocol

/// One handler per member of `io.github.pokedexd.Pokedex1`: each reads its arguments as the
/// contract describes them and asks the service. Nothing here decides anything, but where a
/// call's work may be done: names for more than 64 ids grow with their arguments and are
/// computed off the loop, in turn with other callers' (the heavy lane). A search is bounded
/// by its caps (a query of 256 bytes, 100 results): p99 under 1 ms in-process, answered on the
/// loop when the index is in memory (`bench/run`).
enum PokedexHandlers {
    static func methods(_ s: PokedexService) -> [MethodRoute] {
        [
            Pokedex1.listPage.route { a throws(PokedexError) in try s.listPage(offset: a.0, limit: a.1) },
            Pokedex1.detail.route { pokemon throws(PokedexError) in try s.detail(pokemon) },
            Pokedex1.search.route { a throws(PokedexError) in try s.search(a.0, limit: a.1) },
            Pokedex1.searchDetailed.route { a throws(PokedexError) in try s.searchDetailed(a.0, limit: a.1) },
            Pokedex1.searchPage.route { a throws(PokedexError) in try s.searchPage(a.0, offset: a.1, limit: a.2) },
            Pokedex1.desktopSearchPage.route { a throws(PokedexError) in try s.desktopSearchPage(a.0, offset: a.1, limit: a.2) },
            Pokedex1.toggleFavorite.route { pokemon in s.toggleFavorite(pokemon) },
            Pokedex1.setFavorite.route { a in s.setFavorite(a.0, a.1) },
            Pokedex1.changeFavorite.route { a in s.changeFavorite(a.0, a.1) },
            Pokedex1.listFavorites.route { s.listFavorites() },
            Pokedex1.spritePath.route { pokemon in s.spritePath(pokemon) },
            Pokedex1.cryPath.route { pokemon in s.cryPath(pokemon) },
            Pokedex1.randomSprite.route { a throws(PokedexError) in try s.randomSprite(favorites: a.0, shinyChance: a.1) },
            Pokedex1.status.route { .now(s.status()) },
            // A whole sync takes minutes by design; it is not bound by the call deadline.
            Pokedex1.sync.route(bounded: false) { s.sync() },
            Pokedex1.cacheStats.route { s.cacheStats() },
            // Reading every file and fetching the damaged again takes as long as the cache is big.
            Pokedex1.verifyCache.route(bounded: false) { s.verifyCache() },
            Pokedex1.clearCache.route { s.clearCache() },
            Pokedex1.localizedDetail.route { a throws(PokedexError) in try s.localizedDetail(a.0, language: a.1) },
            Pokedex1.moves.route { a throws(PokedexError) in try s.moves(a.0, game: a.1, method: a.2, language: a.3) },
            Pokedex1.displayNames.route(heavy: { $0.0.count > 64 }) { a throws(PokedexError) in try s.displayNames(a.0, language: a.1) },
        ]
    }

    static func properties(_ s: PokedexService) -> [PropertyRoute] {
        [
            Pokedex1.favorites.route { s.favoriteIDs },
            Pokedex1.online.route { s.isOnline },
            Pokedex1.syncProgress.route { (s.syncProgress.done, s.syncProgress.total) },
            Pokedex1.syncState.route { s.syncProgress.state.rawValue },
            Pokedex1.searchCoverage.route { s.searchCoverage },
            Pokedex1.version.route { ServiceConfiguration.version },
            Pokedex1.apiURL.route { s.configuration.apiURL },
        ]
    }
}
