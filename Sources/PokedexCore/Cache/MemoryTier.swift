import FoundationEssentials
import PokedexLocks

/// Freshness of a cached resource, as the HTTP answer that brought it said.
public struct Freshness: Sendable, Codable, Equatable {
    /// The answer's ETag, for `If-None-Match`.
    public var etag: String?
    /// When it was fetched or last revalidated.
    public var fetchedAt: Date
    /// `Cache-Control: max-age`, in seconds.
    public var maxAge: Double

    public init(etag: String?, fetchedAt: Date, maxAge: Double) {
        self.etag = etag
        self.fetchedAt = fetchedAt
        self.maxAge = maxAge
    }

    /// The same, without its ETag: revalidating it fetches the body whatever the server holds.
    var withoutETag: Freshness { Freshness(etag: nil, fetchedAt: fetchedAt, maxAge: maxAge) }

    /// Whether it may still be served without asking the API.
    public func isFresh(at now: Date) -> Bool { now.timeIntervalSince(fetchedAt) < maxAge }
}

/// A decoded resource in the memory tier.
enum CachedResource: Sendable {
    case index(PokemonIndex)
    case pokemon(PokemonRecord)
    case species(SpeciesRecord)
    /// A type's, an ability's, a stat's or a form's names.
    case names(NamesRecord)
    case evolution(EvolutionChainRecord)
    case move(MoveRecord)
}

/// The memory tier: compact records, bounded in bytes, least recently used first out.
/// Safe to call from any thread; the bus thread reads it on the warm path.
final class MemoryTier: Sendable {
    public struct Entry: Sendable {
        public var resource: CachedResource
        public var freshness: Freshness
    }

    private let cache: Mutex<LRUCache<String, Entry>>

    /// - Parameter capacity: the cap in bytes.
    public init(capacity: Int) { cache = Mutex(LRUCache(capacity: capacity)) }

    public func get(_ key: String) -> Entry? { cache.withLock { $0.value(for: key) } }

    /// Stores a record. `cost` is its approximate footprint in bytes.
    public func set(_ key: String, _ entry: Entry, cost: Int) {
        cache.withLock { $0.set(entry, for: key, cost: cost) }
    }

    /// Forgets every record (`ClearCache`).
    public func removeAll() { cache.withLock { $0.removeAll() } }

    /// Entries and bytes held now.
    public var usage: (entries: Int, bytes: Int) { cache.withLock { ($0.count, $0.totalCost) } }
    public var capacity: Int { cache.withLock { $0.capacity } }
}
