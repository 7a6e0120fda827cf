import PokedexModels

/// What happens to ``BrowseModel``: a key, a size, an answer from the service, a timer.
public enum BrowseEvent: Equatable, Sendable {
    case input(InputEvent)
    case resized(width: Int, height: Int)
    case page(offset: Int, ListPage)
    case pageFailed(offset: Int, String)
    /// A failed page's pause (``BrowseEffect/retryPage(offset:after:)``) is over.
    case pageDue(offset: Int)
    /// The service stopped (why, for the status line) or, with nil, answers again.
    case service(down: String?)
    /// The debounce after typing ran out.
    case searchDue(generation: Int)
    /// A page of results at `offset`, with how many match in all.
    case searchPage(generation: Int, offset: Int, ListPage)
    case searchFailed(generation: Int, String)
    case detail(PokemonDetail)
    case detailFailed(String)
    /// The card's moves (its newest game's), or why they could not be had ("" for a service
    /// too old to give them).
    case moves(MoveTable)
    case movesFailed(name: String, String)
    case favorites([ListEntry])
    /// `FavoriteChanged`, from this client or any other.
    case favoriteChanged(id: UInt32, name: String, favorite: Bool)
    case online(Bool)
    /// The service's cache was emptied (`CacheCleared`): the sprites shown are gone.
    case cacheCleared
    case sprite(id: UInt32, path: String)
    /// A call failed in a way worth a line (a favorite that could not be saved).
    case failed(String)
}

/// What the model asks of the service (or of the clock); the driver does it and answers with events.
public enum BrowseEffect: Equatable, Sendable {
    case loadPage(offset: Int)
    /// Ask for the page again after `after` seconds (with jitter): answered by ``BrowseEvent/pageDue(offset:)``.
    case retryPage(offset: Int, after: Double)
    case scheduleSearch(generation: Int, after: Double)
    case search(query: String, generation: Int)
    /// The next page of the results, from `offset`.
    case searchMore(query: String, generation: Int, offset: Int)
    case loadDetail(name: String)
    /// The moves of the card shown, for its Moves part.
    case loadMoves(name: String)
    case toggleFavorite(name: String)
    case loadFavorites
    case spritePath(id: UInt32, name: String)
    /// Play this Pokémon's cry (a card opened with the sound on).
    case playCry(name: String)
    /// The sound was turned on or off: remember it for the next browse.
    case soundChanged(on: Bool)
    case quit
}
