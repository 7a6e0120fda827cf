#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import PokedexLocks
import PokedexNetwork

/// One favorite, as stored.
public struct Favorite: Sendable, Codable, Equatable {
    public var id: UInt32
    public var name: String
    /// When it was added (seconds since 1970).
    public var added: Double

    public init(id: UInt32, name: String, added: Double) {
        self.id = id
        self.name = name
        self.added = added
    }
}

/// What was read from where favorites live.
public struct LoadedFavorites: Sendable, Equatable {
    /// The favorites in the order added (every entry that could be read).
    public var favorites: [Favorite]
    /// What was done to a damaged list, shown until the person deals with the copy it names.
    public var notice: FavoritesNotice?
    /// Why the list can be neither read nor changed; nil when it can.
    public var refused: String?

    public init(favorites: [Favorite] = [], notice: FavoritesNotice? = nil, refused: String? = nil) {
        self.favorites = favorites
        self.notice = notice
        self.refused = refused
    }
}

/// Where favorites live. ``FileFavoritesPersistence`` is the real one; tests use fakes.
public protocol FavoritesPersistence: Sendable {
    /// The stored favorites in the order added; empty if none were ever saved. Never fails:
    /// what cannot be read is said in ``LoadedFavorites/refused``.
    func load() -> LoadedFavorites
    /// Replaces the stored list, with the notice to keep beside it; durable when it returns.
    func save(_ favorites: [Favorite], notice: FavoritesNotice?) throws
    /// Whether the damaged copy a notice names is still there.
    func isKept(_ notice: FavoritesNotice) -> Bool
}

/// The favorites, in the order added. Changes are serialized (the actor) and durable
/// before they return; a lock-protected snapshot lets the bus thread read them at once.
public actor FavoritesBook {
    private let persistence: any FavoritesPersistence
    private var stored: LoadedFavorites
    private var list: [Favorite] { stored.favorites }
    private let snapshot: Mutex<(ids: [UInt32], set: Set<UInt32>, notice: FavoritesNotice?, refused: String?)>
    private let clock: any PokedexClock

    public init(persistence: any FavoritesPersistence, clock: any PokedexClock = SystemClock()) throws {
        self.persistence = persistence
        self.clock = clock
        let loaded = persistence.load()
        stored = loaded
        snapshot = Mutex((loaded.favorites.map(\.id), Set(loaded.favorites.map(\.id)), loaded.notice, loaded.refused))
    }

    /// Whether `id` is a favorite now. Callable from any thread without waiting.
    public nonisolated func contains(_ id: UInt32) -> Bool { snapshot.withLock { $0.set.contains(id) } }
    /// The set of favorite ids now. Callable from any thread without waiting.
    public nonisolated var idSet: Set<UInt32> { snapshot.withLock { $0.set } }
    /// Every favorite id in the order added. Callable from any thread without waiting.
    public nonisolated var ids: [UInt32] { snapshot.withLock { $0.ids } }

    /// What is wrong with the stored list, in the service's words, or nil: why it can be
    /// neither read nor changed, else what was done to a damaged one while its copy is kept.
    /// Callable from any thread without waiting.
    public nonisolated var problem: String? {
        let (notice, refused) = snapshot.withLock { ($0.notice, $0.refused) }
        if let refused { return refused }
        guard let notice, persistence.isKept(notice) else { return nil }
        return notice.text
    }

    /// The favorites in the order added.
    public func all() -> [Favorite] { list }

    /// Sets the state; returns the change, or nil if it already was so (idempotent).
    public func set(id: UInt32, name: String, favorite: Bool) throws(PokedexError) -> FavoriteChange? {
        // A list that could not be read may have been put right since: read it again first.
        if stored.refused != nil { adopt(persistence.load()) }
        if let refused = stored.refused {
            throw PokedexError.storage(ServiceMessages.joined(refused, ServiceMessages.favoritesUnchanged))
        }
        let isFavorite = list.contains { $0.id == id }
        guard isFavorite != favorite else { return nil }
        var next = list
        if favorite {
            next.append(Favorite(id: id, name: name, added: clock.now().timeIntervalSince1970))
        } else {
            next.removeAll { $0.id == id }
        }
        // The point of no return: after this the call answers with what it did, even at shutdown.
        guard CallTrace.current?.beginCommit() ?? true else {
            throw PokedexError.unavailable(ServiceMessages.joined(ServiceMessages.shuttingDown, ServiceMessages.nothingChanged))
        }
        // The notice goes once its copy is gone: the person has dealt with it.
        let notice = stored.notice.flatMap { persistence.isKept($0) ? $0 : nil }
        do {
            try persistence.save(next, notice: notice)
        } catch {
            throw PokedexError.wrapStorage(error, "cannot save favorites")
        }
        adopt(LoadedFavorites(favorites: next, notice: notice))
        return FavoriteChange(id: id, name: name, favorite: favorite, allIDs: next.map(\.id))
    }

    /// Flips the state; returns the change (always one).
    public func toggle(id: UInt32, name: String) throws(PokedexError) -> FavoriteChange {
        let want = !list.contains { $0.id == id }
        // `set` cannot return nil here: the state differs by construction.
        return try set(id: id, name: name, favorite: want)!
    }

    private func adopt(_ loaded: LoadedFavorites) {
        stored = loaded
        let ids = loaded.favorites.map(\.id)
        snapshot.withLock { $0 = (ids, Set(ids), loaded.notice, loaded.refused) }
    }
}
