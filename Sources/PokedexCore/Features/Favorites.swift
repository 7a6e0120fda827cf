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
    /// Reads the stored list again and stores `change` of it, as one step no other writer of
    /// the same place comes between: what another service on the same folder, or a person's
    /// editor, changed meanwhile is kept. `change` returns nil to leave the list as it is.
    /// Returns the list as stored now; throws ``PokedexError/storage(_:)`` when it can be
    /// neither read nor changed.
    func update(_ change: ([Favorite]) throws(PokedexError) -> [Favorite]?) throws -> LoadedFavorites
}

extension FavoritesPersistence {
    /// Read, change, save: one writer's update (what the tests' fakes are).
    public func update(_ change: ([Favorite]) throws(PokedexError) -> [Favorite]?) throws -> LoadedFavorites {
        try FavoritesUpdate.apply(change, to: self)
    }
}

/// The read-change-save step every persistence's ``FavoritesPersistence/update(_:)`` makes
/// (the file's under its lock).
enum FavoritesUpdate {
    static func apply(_ change: ([Favorite]) throws(PokedexError) -> [Favorite]?,
                      to persistence: some FavoritesPersistence) throws -> LoadedFavorites {
        let now = persistence.load()
        if let refused = now.refused {
            throw PokedexError.storage(ServiceMessages.joined(refused, ServiceMessages.favoritesUnchanged))
        }
        guard let next = try change(now.favorites) else { return now }
        // The notice goes once its copy is gone: the person has dealt with it.
        let notice = now.notice.flatMap { persistence.isKept($0) ? $0 : nil }
        do {
            try persistence.save(next, notice: notice)
        } catch {
            throw PokedexError.wrapStorage(error, "cannot save favorites")
        }
        return LoadedFavorites(favorites: next, notice: notice)
    }
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

    /// False while the stored list can be neither read nor changed (``problem`` says why).
    /// Callable from any thread without waiting.
    public nonisolated var readable: Bool { snapshot.withLock { $0.refused == nil } }

    /// The favorites in the order added.
    public func all() -> [Favorite] { list }

    /// Sets the state; returns the change, or nil if it already was so (idempotent). Decided
    /// on the list as stored now, not as this service last saw it (``FavoritesPersistence/update(_:)``).
    public func set(id: UInt32, name: String, favorite: Bool) throws(PokedexError) -> FavoriteChange? {
        try change(id: id, name: name, to: favorite)
    }

    /// Flips the state as stored now; returns the change (always one).
    public func toggle(id: UInt32, name: String) throws(PokedexError) -> FavoriteChange {
        // `change` cannot return nil here: the state differs by construction.
        try change(id: id, name: name, to: nil)!
    }

    /// `want` nil: the opposite of what is stored.
    private func change(id: UInt32, name: String, to want: Bool?) throws(PokedexError) -> FavoriteChange? {
        var made: Bool?
        let now: LoadedFavorites
        do {
            now = try persistence.update { current throws(PokedexError) in
                let isFavorite = current.contains { $0.id == id }
                let favorite = want ?? !isFavorite
                guard isFavorite != favorite else { return nil }
                // The point of no return: after this the call answers with what it did, even at shutdown.
                guard CallTrace.current?.beginCommit() ?? true else {
                    throw PokedexError.unavailable(ServiceMessages.joined(ServiceMessages.shuttingDown, ServiceMessages.nothingChanged))
                }
                made = favorite
                return favorite ? current + [Favorite(id: id, name: name, added: clock.now().timeIntervalSince1970)]
                    : current.filter { $0.id != id }
            }
        } catch let error as PokedexError {
            // Why it cannot be read, for Status, until it is put right.
            if case .storage = error { adopt(persistence.load()) }
            throw error
        } catch {
            throw PokedexError.wrapStorage(error, "cannot save favorites")
        }
        adopt(now)
        guard let made else { return nil }
        return FavoriteChange(id: id, name: name, favorite: made, allIDs: now.favorites.map(\.id))
    }

    private func adopt(_ loaded: LoadedFavorites) {
        stored = loaded
        let ids = loaded.favorites.map(\.id)
        snapshot.withLock { $0 = (ids, Set(ids), loaded.notice, loaded.refused) }
    }
}
