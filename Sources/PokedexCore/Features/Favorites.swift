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

/// Where favorites live. ``FileFavoritesPersistence`` is the real one; tests use fakes.
public protocol FavoritesPersistence: Sendable {
    /// The stored favorites in the order added; empty if none were ever saved.
    func load() throws -> [Favorite]
    /// Replaces the stored list; durable on disk when it returns.
    func save(_ favorites: [Favorite]) throws
}

/// `$XDG_DATA_HOME/pokedex/favorites.json`: written to a temporary file, fsynced,
/// renamed over the old one, and the directory fsynced, so a kill -9 at any instant
/// leaves either the old list or the new one.
public struct FileFavoritesPersistence: FavoritesPersistence {
    public let path: String
    private let log: Logger

    struct FileBody: Codable {
        var version: Int
        var favorites: [Favorite]
    }

    public init(directory: String, log: @escaping Logger = { _, _ in }) throws {
        try FileIO.makeDirectory(directory)
        try FileIO.checkPrivate(directory, what: "the data directory")
        // A write that a kill -9 interrupted left its temporary file; the real one is intact.
        FileIO.removeAbandonedTemporaries(in: directory)
        path = directory + "/favorites.json"
        self.log = log
    }

    public func load() throws -> [Favorite] {
        guard let bytes = FileIO.readFile(path) else {
            if FileIO.fileInfo(path) != nil { throw PokedexError.storage("cannot read \(path): unreadable, too large, or not a regular file") }
            return []
        }
        do {
            return try JSONDecoder().decode(FileBody.self, from: Data(bytes)).favorites
        } catch {
            // Never overwrite what a person may want back: keep it beside, start afresh.
            let aside = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
            rename(path, aside)
            log(.error, "favorites file \(path) is damaged; kept it as \(aside) and started an empty list")
            return []
        }
    }

    public func save(_ favorites: [Favorite]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let bytes = try Array(encoder.encode(FileBody(version: 1, favorites: favorites))) + [0x0A]
        try FileIO.writeAtomically(bytes, to: path, durable: true)
    }
}

/// The favorites, in the order added. Changes are serialized (the actor) and durable
/// before they return; a lock-protected snapshot lets the bus thread read them at once.
public actor FavoritesBook {
    private let persistence: any FavoritesPersistence
    private var list: [Favorite]
    private let snapshot: Mutex<(ids: [UInt32], set: Set<UInt32>)>
    private let clock: any PokedexClock

    public init(persistence: any FavoritesPersistence, clock: any PokedexClock = SystemClock()) throws {
        self.persistence = persistence
        self.clock = clock
        let loaded = try persistence.load()
        list = loaded
        snapshot = Mutex((loaded.map(\.id), Set(loaded.map(\.id))))
    }

    /// Whether `id` is a favorite now. Callable from any thread without waiting.
    public nonisolated func contains(_ id: UInt32) -> Bool { snapshot.withLock { $0.set.contains(id) } }
    /// The set of favorite ids now. Callable from any thread without waiting.
    public nonisolated var idSet: Set<UInt32> { snapshot.withLock { $0.set } }
    /// Every favorite id in the order added. Callable from any thread without waiting.
    public nonisolated var ids: [UInt32] { snapshot.withLock { $0.ids } }

    /// The favorites in the order added.
    public func all() -> [Favorite] { list }

    /// Sets the state; returns the change, or nil if it already was so (idempotent).
    public func set(id: UInt32, name: String, favorite: Bool) throws(PokedexError) -> FavoriteChange? {
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
        do {
            try persistence.save(next)
        } catch {
            throw PokedexError.wrapStorage(error, "cannot save favorites")
        }
        list = next
        let ids = next.map(\.id)
        snapshot.withLock { $0 = (ids, Set(ids)) }
        return FavoriteChange(id: id, name: name, favorite: favorite, allIDs: ids)
    }

    /// Flips the state; returns the change (always one).
    public func toggle(id: UInt32, name: String) throws(PokedexError) -> FavoriteChange {
        let want = !list.contains { $0.id == id }
        // `set` cannot return nil here: the state differs by construction.
        return try set(id: id, name: name, favorite: want)!
    }
}
