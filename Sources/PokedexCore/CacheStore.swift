/// A record as the disk tier keeps it: the compact payload and its freshness.
public struct StoredRecord: Sendable, Equatable {
    public var payload: [UInt8]
    public var freshness: Freshness

    public init(payload: [UInt8], freshness: Freshness) {
        self.payload = payload
        self.freshness = freshness
    }
}

/// The disk tier as the core sees it. ``FileCacheStore`` is the real one; tests use fakes.
///
/// Reads never return damaged data: a record whose checksum, length or key does not
/// match is removed and reported as a miss.
public protocol CacheStore: Sendable {
    /// The record stored under `key`, or nil if missing or damaged.
    func readRecord(_ key: String) -> StoredRecord?
    /// Stores a record, replacing any older one atomically.
    func writeRecord(_ key: String, _ record: StoredRecord) throws
    /// Removes a record.
    func removeRecord(_ key: String)
    /// The absolute path a sprite file of this name lives at.
    func spritePath(_ fileName: String) -> String
    /// The bytes of a sprite file, or nil if missing.
    func readSprite(_ fileName: String) -> [UInt8]?
    /// Stores a sprite file atomically and returns its absolute path.
    func writeSprite(_ fileName: String, _ bytes: [UInt8]) throws -> String
    /// Removes a sprite file.
    func removeSprite(_ fileName: String)
    /// Files and bytes held now.
    var usage: (entries: Int, bytes: Int) { get }
}
