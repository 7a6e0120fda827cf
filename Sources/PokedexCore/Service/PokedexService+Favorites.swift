/// Favorites: changed durably before the call answers, then announced (signal, notification).
extension PokedexService {
    /// `ChangeFavorite(pokemon, action)`: adds, removes or toggles; durable before it answers.
    public func changeFavorite(_ query: String, _ action: FavoriteAction) -> Answer<FavoriteUpdate> {
        .later { [self] () throws(PokedexError) in
            let item = try await resolve(query)
            let change: FavoriteChange?
            switch action {
            case .add: change = try await favorites.set(id: item.id, name: item.name, favorite: true)
            case .remove: change = try await favorites.set(id: item.id, name: item.name, favorite: false)
            case .toggle: change = try await favorites.toggle(id: item.id, name: item.name)
            }
            if let change { announce(change) }
            return FavoriteUpdate(id: item.id, name: item.name, favorite: change?.favorite ?? (action == .add), changed: change != nil)
        }
    }

    /// `ToggleFavorite(pokemon)`: flips it; returns the new state.
    public func toggleFavorite(_ query: String) -> Answer<Bool> {
        .later { [self] () throws(PokedexError) in try await changeFavorite(query, .toggle).value().favorite }
    }

    /// `SetFavorite(pokemon, favorite)`: idempotent.
    public func setFavorite(_ query: String, _ favorite: Bool) -> Answer<Void> {
        .later { [self] () throws(PokedexError) in _ = try await changeFavorite(query, favorite ? .add : .remove).value() }
    }

    func announce(_ change: FavoriteChange) {
        log(.debug, "\(change.name) \(change.favorite ? "added to" : "removed from") favorites")
        events.emit(.favorite(change))
        notifications?.post(change)
    }

    /// `ListFavorites()`: in the order they were added.
    public func listFavorites() -> Answer<[ListEntry]> {
        .later { [self] () throws(PokedexError) in
            await favorites.all().map { rows.checkingDisk(.init(id: $0.id, name: $0.name)) }
        }
    }
}
