/// A record as the disk tier keeps it: the compact payload and its freshness.
public struct StoredRecord: Sendable, Equatable {
    public var payload: [UInt8]
    public var freshness: Freshness

    public init(payload: [UInt8], freshness: Freshness) {
        self.payload = payload
        self.freshness = freshness
    }
}

/// One file of the disk tier, as ``CacheStore/listing()`` finds it on disk.
public struct CachedFile: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A record. `name` is its key; `freshness` is what its header says, nil when the
        /// header cannot be read or names another key (damaged: reading it removes it).
        case record(freshness: Freshness?)
        /// A sprite file; `name` is its file name (`25.png`).
        case sprite
        /// A file the store never serves: a temporary file whose writer is gone, a name it
        /// never writes. `name` is its path under the store's root (`records/x`).
        case stray
    }

    public var name: String
    public var kind: Kind
    /// Bytes on disk.
    public var size: Int

    public init(name: String, kind: Kind, size: Int) {
        self.name = name
        self.kind = kind
        self.size = size
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
    /// Every file on disk now (not as remembered), with its size. Reads records' headers,
    /// never their payloads; changes nothing. Files being written right now are left out.
    func listing() throws(PokedexError) -> [CachedFile]
    /// Removes a stray file that ``listing()`` named.
    func removeStray(_ name: String)
    /// Removes every record, sprite and stray file, and says how many files and bytes went.
    /// Throws `storage`, having removed what it could, when some file cannot be removed.
    func removeAll() throws(PokedexError) -> (files: Int, bytes: Int)
}
