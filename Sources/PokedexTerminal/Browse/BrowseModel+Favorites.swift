import PokedexModels

// MARK: Favorites and sprites, wherever the Pokémon is shown

/// A favorite or a sprite changed: every list it is in (the whole list, the results, the
/// favorites) and the card show the change.
extension BrowseModel {
    mutating func update(_ id: UInt32, _ change: (inout ListEntry) -> Void) {
        for (i, e) in loaded where e.id == id { change(&loaded[i]!) }
        if var r = results { for i in r.indices where r[i].id == id { change(&r[i]) }; results = r }
        if var f = favorites { for i in f.indices where f[i].id == id { change(&f[i]) }; favorites = f }
    }

    mutating func noteFavorite(id: UInt32, name: String, favorite: Bool) {
        let known = loaded.values.first(where: { $0.id == id }) ?? results?.first(where: { $0.id == id })
        update(id) { $0.favorite = favorite }
        if detail?.id == id { detail?.favorite = favorite }
        guard var f = favorites else { return }
        if favorite, !f.contains(where: { $0.id == id }) {
            f.append(ListEntry(id: id, name: name, spritePath: known?.spritePath ?? "", favorite: true))
        } else if !favorite {
            f.removeAll { $0.id == id }
        }
        favorites = f
        if source == .favorites, selected >= f.count { selected = max(0, f.count - 1); reveal() }
    }
}
