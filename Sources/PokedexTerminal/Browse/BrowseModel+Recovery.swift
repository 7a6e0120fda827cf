import PokedexModels

// MARK: Coming back by itself

/// What browse does when the service, its network or its cache changes under it: the screen
/// converges on what the service has, with no key pressed.
extension BrowseModel {
    /// When the service or its network is back (or its cache was emptied): everything the
    /// screen shows incomplete is asked again, with no key pressed. The pages that failed; the
    /// sprites of the tiles that have none (``wants()`` asks for those on screen); a search
    /// that failed; a card drawn without its sprite.
    mutating func recover() -> [BrowseEffect] {
        // What the outage made anyone say is no longer so: what fails again says so again.
        message = nil
        messageCause = nil
        retryFailedPages()
        forgetSprites { $0.spritePath.isEmpty }
        var out: [BrowseEffect] = []
        if case .search(let q) = source, results?.isEmpty != false {
            searchGeneration += 1
            out.append(.search(query: q, generation: searchGeneration))
        }
        if onCard, let d = detail, d.spritePath.isEmpty, detailLoading == nil {
            detailLoading = d.name
            out.append(.loadDetail(name: d.name))
        } else if onCard, let d = detail, moves == nil, detailLoading == nil {
            out.append(.loadMoves(name: d.name))
        }
        return out
    }

    /// Forgets having asked for the sprites of the entries `matching`, so that ``wants()`` asks
    /// for them again; their paths are cleared.
    mutating func forgetSprites(_ matching: (ListEntry) -> Bool) {
        var ids = Set<UInt32>()
        for e in loaded.values where matching(e) { ids.insert(e.id) }
        for e in results ?? [] where matching(e) { ids.insert(e.id) }
        for e in favorites ?? [] where matching(e) { ids.insert(e.id) }
        spritesAsked.subtract(ids)
        for id in ids { update(id) { $0.spritePath = "" } }
    }
}
