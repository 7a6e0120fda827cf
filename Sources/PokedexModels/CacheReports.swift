/// What the disk cache holds, grouped as `CacheStats` reports it.
public enum CacheKind: String, Sendable, CaseIterable {
    /// The Pokémon list (`index/pokemon`).
    case list
    /// `pokemon/{id}` records.
    case pokemon
    /// `species/{id}` records.
    case species
    /// The type and generation filters (`meta/search-filters`).
    case filters
    /// The names of types, abilities and stats (`names-{kind}/{name}`), and forms (`form/{id}`).
    case names
    /// Evolution families (`evolution/{id}`, PokeAPI's `evolution-chain/{id}`).
    case evolutionChains = "evolution_chains"
    /// Moves, as learnsets name them (`move/{id}`).
    case moves
    /// Default sprites, `{id}.png`, with their metadata records (`sprite/{id}`).
    case sprites
    /// Animated sprites, `{id}-animated.gif`, with their metadata records (`sprite-animated/{id}`).
    case animatedSprites = "animated_sprites"
    /// Shiny sprites, `{id}-shiny.png`, with their metadata records (`sprite-shiny/{id}`).
    case shinySprites = "shiny_sprites"
    /// Cries, `{id}-cry.ogg`, with their metadata records (`cry/{id}`).
    case cries
    /// Anything else: a record of no kind this service writes, a file that belongs to nothing.
    case other
}

/// One kind of cached resource in `CacheStats`.
public struct CacheKindStats: Equatable, Sendable {
    public var kind: CacheKind
    /// Resources of this kind on disk; for sprites, image files.
    public var count: Int
    /// Their bytes on disk; for sprites, the images and their metadata records.
    public var bytes: Int
    /// How many were fetched longer ago than their max-age (still served, revalidated when asked for).
    public var stale: Int
    /// The oldest and newest fetched-at, seconds since 1970; nil when none of them says.
    public var oldestFetchedAt: Int?
    public var newestFetchedAt: Int?

    public init(kind: CacheKind, count: Int = 0, bytes: Int = 0, stale: Int = 0,
                oldestFetchedAt: Int? = nil, newestFetchedAt: Int? = nil) {
        self.kind = kind
        self.count = count
        self.bytes = bytes
        self.stale = stale
        self.oldestFetchedAt = oldestFetchedAt
        self.newestFetchedAt = newestFetchedAt
    }
}

/// The answer to `CacheStats`: the disk tier by kind, its totals, and the memory tier's.
public struct CacheStats: Equatable, Sendable {
    /// Every kind, in ``CacheKind``'s order.
    public var kinds: [CacheKindStats]
    /// The service's clock when it counted, seconds since 1970: ages count from here.
    public var now: Int
    /// Every file on disk, sprites' metadata records and files that belong to nothing included.
    public var files: Int
    public var bytes: Int
    public var diskCapBytes: Int
    public var memoryEntries: Int
    public var memoryBytes: Int
    public var memoryCapBytes: Int
    public var cacheDirectory: String

    public init(kinds: [CacheKindStats], now: Int, files: Int, bytes: Int, diskCapBytes: Int,
                memoryEntries: Int, memoryBytes: Int, memoryCapBytes: Int, cacheDirectory: String) {
        self.kinds = kinds
        self.now = now
        self.files = files
        self.bytes = bytes
        self.diskCapBytes = diskCapBytes
        self.memoryEntries = memoryEntries
        self.memoryBytes = memoryBytes
        self.memoryCapBytes = memoryCapBytes
        self.cacheDirectory = cacheDirectory
    }

    /// One kind's line.
    public subscript(kind: CacheKind) -> CacheKindStats {
        kinds.first { $0.kind == kind } ?? CacheKindStats(kind: kind)
    }
}

/// What `VerifyCache` found and did.
public struct CacheVerifyResult: Equatable, Sendable {
    /// One item that could not be fetched again.
    public struct Failure: Equatable, Sendable {
        /// A record's key (`pokemon/25`) or a sprite's file name (`25.png`).
        public var item: String
        public var reason: String
        public init(item: String, reason: String) {
            self.item = item
            self.reason = reason
        }
    }

    /// Records, and sprites with their metadata records, read in full and checked.
    public var checked: Int
    /// Found damaged (short, checksum or size wrong, not a whole image, someone else's), and removed.
    public var damaged: Int
    /// Damaged and fetched again: whole on disk now.
    public var repaired: Int
    /// Damaged, and could not be fetched again now (the next call that needs them tries again).
    public var failed: Int
    /// Files that belonged to nothing (a sprite without its metadata record or the reverse, a
    /// temporary file a killed writer left), removed.
    public var orphans: Int
    /// The first few failures, by item.
    public var failures: [Failure]

    public init(checked: Int, damaged: Int, repaired: Int, failed: Int, orphans: Int, failures: [Failure]) {
        self.checked = checked
        self.damaged = damaged
        self.repaired = repaired
        self.failed = failed
        self.orphans = orphans
        self.failures = failures
    }
}

/// What `ClearCache` removed.
public struct CacheClearResult: Equatable, Sendable {
    public var files: Int
    public var bytes: Int

    public init(files: Int, bytes: Int) {
        self.files = files
        self.bytes = bytes
    }
}
