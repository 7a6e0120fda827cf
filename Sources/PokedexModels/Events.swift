/// Something a client may want to follow, as the service announces it.
public enum ServiceEvent: Equatable, Sendable {
    /// A durable favorites change.
    case favorite(FavoriteChange)
    /// The network went away (false) or came back (true).
    case online(Bool)
    /// Sync progress.
    case sync(SyncProgress)
    /// `ClearCache` emptied the cache.
    case cacheCleared
}

/// How far `Sync` has come, and how it stands.
public struct SyncProgress: Equatable, Sendable {
    public var done: UInt32
    public var total: UInt32
    public var state: SyncState
    public var running: Bool { state == .running }
    public init(done: UInt32, total: UInt32, state: SyncState) {
        self.done = done
        self.total = total
        self.state = state
    }
}

/// The `SyncState` property: how the sync under way, or the last one, stands.
public enum SyncState: String, Sendable, CaseIterable {
    /// No sync since the service started.
    case idle
    case running
    /// Every Pokémon complete offline.
    case done
    /// Ended, with some Pokémon not complete (run it again to retry them).
    case failed
    /// Its caller left before it ended: `done` is as far as it came.
    case cancelled
}

/// What a finished `Sync` did.
public struct SyncResult: Equatable, Sendable {
    /// Pokémon whose list entry, detail, species and default sprite are now all on disk.
    public var complete: UInt32
    /// Pokémon for which something could not be fetched (they are retried by the next sync).
    public var failed: UInt32
    public init(complete: UInt32, failed: UInt32) {
        self.complete = complete
        self.failed = failed
    }
}
