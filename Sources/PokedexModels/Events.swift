/// Something a client may want to follow, as the service announces it.
public enum ServiceEvent: Equatable, Sendable {
    /// A durable favorites change.
    case favorite(FavoriteChange)
    /// The network went away (false) or came back (true).
    case online(Bool)
    /// Sync progress.
    case sync(SyncProgress)
}

/// How far `Sync` has come.
public struct SyncProgress: Equatable, Sendable {
    public var done: UInt32
    public var total: UInt32
    public var running: Bool
    public init(done: UInt32, total: UInt32, running: Bool) {
        self.done = done
        self.total = total
        self.running = running
    }
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
