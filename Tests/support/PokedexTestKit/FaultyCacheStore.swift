import Glibc
import PokedexCore
import PokedexLocks

/// A disk tier that passes everything to a real one, and can be told to fail what a
/// directory that cannot be read, or a disk gone read-only, fails: listing the cache and
/// removing all of it answer `storage` (``removeAll()`` removes nothing then); or a slow
/// disk, each record's write taking a while, with the keys written counted.
public final class FaultyCacheStore: CacheStore {
    public let inner: any CacheStore
    private let failing = Mutex(false)
    private let writeMicroseconds = Mutex<UInt32>(0)
    private let written = Mutex<[String]>([])
    private let read = Mutex<[String]>([])
    private let hook = Mutex<(@Sendable (String) -> Void)?>(nil)

    public init(_ inner: any CacheStore) { self.inner = inner }

    /// Starts or stops failing.
    public func fail(_ on: Bool) { failing.withLock { $0 = on } }

    /// Each record's write from now on takes `microseconds` longer, as on a slow disk.
    public func slowWrites(_ microseconds: UInt32) { writeMicroseconds.withLock { $0 = microseconds } }

    /// Calls `body` with each record's key as it is written, before it is, in the writer's
    /// task: what that task is, or a write held until the test lets it go.
    public func onWrite(_ body: @escaping @Sendable (String) -> Void) { hook.withLock { $0 = body } }

    /// The keys of the records written so far, in order.
    public var keysWritten: [String] { written.withLock { $0 } }
    /// The keys asked for, in order, found or not.
    public var keysRead: [String] { read.withLock { $0 } }

    private func check(_ what: String) throws(PokedexError) {
        if failing.withLock({ $0 }) { throw .storage("cannot \(what) the cache: Permission denied") }
    }

    public func readRecord(_ key: String) -> StoredRecord? {
        read.withLock { $0.append(key) }
        return inner.readRecord(key)
    }
    public func writeRecord(_ key: String, _ record: StoredRecord) throws {
        let pause = writeMicroseconds.withLock { $0 }
        if pause > 0 { usleep(pause) }
        hook.withLock { $0 }?(key)
        try inner.writeRecord(key, record)
        written.withLock { $0.append(key) }
    }
    public func removeRecord(_ key: String) { inner.removeRecord(key) }
    public func spritePath(_ fileName: String) -> String { inner.spritePath(fileName) }
    public func readSprite(_ fileName: String) -> [UInt8]? { inner.readSprite(fileName) }
    public func writeSprite(_ fileName: String, _ bytes: [UInt8]) throws -> String { try inner.writeSprite(fileName, bytes) }
    public func removeSprite(_ fileName: String) { inner.removeSprite(fileName) }
    public var usage: (entries: Int, bytes: Int) { inner.usage }

    public func listing() throws(PokedexError) -> [CachedFile] {
        try check("read")
        return try inner.listing()
    }

    public func removeStray(_ name: String) { inner.removeStray(name) }

    public func removeAll() throws(PokedexError) -> (files: Int, bytes: Int) {
        try check("empty")
        return try inner.removeAll()
    }
}
