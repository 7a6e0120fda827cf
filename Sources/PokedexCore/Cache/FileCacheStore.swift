#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import PokedexLocks

/// The disk tier, bounded in bytes, least recently used first out:
///
///     <cache>/v2/records/00000001.pack …   records, appended to pack files (``PackSegment``)
///     <cache>/v2/sprites/25.png …          images, one file each (the desktop opens them by path)
///
/// A sync keeps 6,000 records: as one file each (the `v1` layout, migrated at the first open:
/// ``migrateVersion1(from:)``), creating them was a sixth of its CPU. Appended to a few pack
/// files, a record costs one write. An entry names its key, so the newest entry for a key is
/// its record; removing one appends the mark that it is gone. Space held by replaced and
/// removed entries comes back when the oldest pack's live entries are copied to the newest and
/// the oldest file removed: when the disk tier is over its cap, or half of what it holds is
/// dead. Files are 0600 and directories 0700.
public final class FileCacheStore: CacheStore {
    /// The versioned root, `<cache>/v2`.
    public let root: String
    let recordsDir: String
    let spritesDir: String
    let capacity: Int
    /// A pack file grows to this size before the next starts (smaller for a small cap, so the
    /// cap can be kept a pack at a time).
    let segmentLimit: Int
    private let state = Mutex(State())
    /// The disk's free space as last seen, and whether writes are refused for lack of it.
    let room = Mutex(Room())

    /// Where each live record is, and what is on disk, to read and evict without rescanning.
    struct State {
        var records: [String: Location] = [:]
        /// Oldest first; the last is the one appended to.
        var segments: [PackSegment] = []
        var sprites: [String: (size: Int, lastUse: Double)] = [:]
        var spriteBytes = 0

        var packBytes: Int { segments.reduce(0) { $0 + $1.size } }
        var liveBytes: Int { segments.reduce(0) { $0 + $1.live } }
        var diskBytes: Int { packBytes + spriteBytes }
    }

    struct Location {
        let segment: PackSegment
        let offset: Int
        let entry: PackEntry
        var lastUse: Double
    }

    /// Opens (creating if needed) the disk tier under `directory`, capped at `capacity` bytes;
    /// an older layout beside it is moved in first.
    public init(directory: String, capacity: Int) throws {
        root = directory + "/v2"
        recordsDir = root + "/records"
        spritesDir = root + "/sprites"
        self.capacity = capacity
        segmentLimit = min(8 << 20, max(capacity / 8, 4 << 10))
        try FileIO.makeDirectory(recordsDir)
        try FileIO.makeDirectory(spritesDir)
        for dir in [directory, root, recordsDir, spritesDir] { try FileIO.checkPrivate(dir, what: "the cache directory") }
        let opened = Self.open(recordsDir)
        state.withLock { s in
            s.records = opened.records
            s.segments = opened.segments
            (s.sprites, s.spriteBytes) = Self.scanSprites(spritesDir)
        }
        try migrateVersion1(from: directory + "/v1")
        let victims = state.withLock { s in enforceCap(&s, keeping: nil) }
        removeSprites(victims)
    }

    /// Reads every pack's heads: the newest entry of a key is its record. A torn last entry
    /// (a write cut short) is cut off, so appending goes on after the last whole one.
    private static func open(_ dir: String) -> (records: [String: Location], segments: [PackSegment]) {
        var records: [String: Location] = [:]
        let segments = PackSegment.openAll(dir)
        for segment in segments {
            let end = segment.scan { entry, offset in
                if let old = records.removeValue(forKey: entry.key) { old.segment.live -= old.entry.length }
                guard !entry.isRemoval else { return }
                // After a restart, a record's last use is when its pack was last written, in order.
                records[entry.key] = Location(segment: segment, offset: offset, entry: entry,
                                              lastUse: segment.modified - Double(segment.size - offset) * 1e-9)
                segment.live += entry.length
            }
            if end < segment.size { segment.truncate(to: end) }
        }
        return (records, segments)
    }

    /// The sprite files and their sizes; removes temporary files a crash left behind.
    private static func scanSprites(_ dir: String) -> ([String: (size: Int, lastUse: Double)], Int) {
        var files: [String: (size: Int, lastUse: Double)] = [:]
        var bytes = 0
        for name in (try? FileIO.names(in: dir)) ?? [] {
            let path = dir + "/" + name
            if FileIO.isTemporary(name) { if FileIO.isAbandonedTemporary(name) { FileIO.removeFile(path) }; continue }
            guard let info = FileIO.fileInfo(path) else { continue }
            files[name] = (info.size, info.mtime)
            bytes += info.size
        }
        return (files, bytes)
    }

    // MARK: - Records

    public func readRecord(_ key: String) -> StoredRecord? {
        let now = Date().timeIntervalSince1970
        guard let found = state.withLock({ s -> Location? in
            s.records[key]?.lastUse = now
            return s.records[key]
        }), let freshness = found.entry.freshness else { return nil }
        // The whole entry, its head too: damage anywhere in it would lose it at the next open.
        guard let bytes = found.segment.read(at: found.offset, count: found.entry.length),
              bytes.withUnsafeBytes({ PackEntry.parse($0) }) == found.entry,
              CRC32.checksum(bytes[found.entry.payloadOffset...]) == found.entry.payloadCRC else {
            // Damaged on disk since it was written: never served; dropped so it is fetched again.
            remove(key, ifAt: found)
            return nil
        }
        return StoredRecord(payload: Array(bytes[found.entry.payloadOffset...]), freshness: freshness)
    }

    /// The records this store reads, and where each is (for ``listing()``).
    func knownRecords() -> [String: (segment: Int, offset: Int, length: Int)] {
        state.withLock { s in s.records.mapValues { ($0.segment.number, $0.offset, $0.entry.length) } }
    }

    public func writeRecord(_ key: String, _ record: StoredRecord) throws {
        guard let (entry, bytes) = PackEntry.encode(key: key, record) else {
            throw PokedexError.storage("cannot keep \(key) in the cache: its key, ETag or body is over the size a record may have")
        }
        try ensureRoom(for: bytes.count)
        let now = Date().timeIntervalSince1970
        let victims = try state.withLock { s throws(PokedexError) -> [String] in
            let (segment, offset) = try append(bytes, &s)
            if let old = s.records[key] { old.segment.live -= old.entry.length }
            s.records[key] = Location(segment: segment, offset: offset, entry: entry, lastUse: now)
            segment.live += bytes.count
            return enforceCap(&s, keeping: key)
        }
        removeSprites(victims)
    }

    public func removeRecord(_ key: String) {
        state.withLock { s in _ = forget(key, &s) }
    }

    /// Removes `key` if its record is still the one at `found` (not written again since), in
    /// the same hold of the lock as the check.
    private func remove(_ key: String, ifAt found: Location) {
        state.withLock { s in
            guard let current = s.records[key], current.segment === found.segment, current.offset == found.offset else { return }
            _ = forget(key, &s)
        }
    }

    /// Drops `key`'s record and appends the mark that it is gone, so its entry is not read
    /// again after a restart while its pack is there; the bytes it held, or nil if there was
    /// none. Under the lock.
    func forget(_ key: String, _ s: inout State) -> Int? {
        guard let old = s.records.removeValue(forKey: key) else { return nil }
        old.segment.live -= old.entry.length
        if let mark = PackEntry.removal(of: key) { _ = try? append(mark, &s) }
        return old.entry.length
    }

    /// Appends to the newest pack, starting a new one when it is full. Under the lock.
    func append(_ bytes: [UInt8], _ s: inout State) throws(PokedexError) -> (PackSegment, Int) {
        if s.segments.last.map({ $0.size > 0 && $0.size + bytes.count > segmentLimit }) ?? true {
            var number = (s.segments.last?.number ?? 0) + 1
            var created: PackSegment?
            while created == nil {
                created = try PackSegment.create(recordsDir, number: number)
                number += 1
            }
            s.segments.append(created!)
        }
        let segment = s.segments[s.segments.count - 1]
        return (segment, try segment.append(bytes))
    }

    /// Forgets every record and sprite, for ``removeAll()``; the packs, to remove.
    func forgetEverything() -> [PackSegment] {
        state.withLock { s in
            defer { s = State() }
            return s.segments
        }
    }

    // MARK: - Sprites

    public func spritePath(_ fileName: String) -> String { spritesDir + "/" + fileName }

    public func readSprite(_ fileName: String) -> [UInt8]? {
        guard let bytes = FileIO.readFile(spritePath(fileName)) else { return nil }
        let now = Date().timeIntervalSince1970
        let stale = state.withLock { s -> Bool in
            guard let f = s.sprites[fileName] else { return false }
            s.sprites[fileName] = (f.size, now)
            return now - f.lastUse > 3600
        }
        // Carry recency across restarts, cheaply: at most one touch an hour per file.
        if stale { FileIO.touch(spritePath(fileName)) }
        return bytes
    }

    public func writeSprite(_ fileName: String, _ bytes: [UInt8]) throws -> String {
        let path = spritePath(fileName)
        try ensureRoom(for: bytes.count)
        try FileIO.writeAtomically(bytes, to: path, durable: false)
        addedSprite(fileName, size: bytes.count)
        return path
    }

    /// Takes in a sprite file by renaming it here (the move from `v1`); false if it could not.
    func adoptSprite(_ fileName: String, from path: String) -> Bool {
        guard let info = FileIO.fileInfo(path), rename(path, spritePath(fileName)) == 0 else { return false }
        addedSprite(fileName, size: info.size)
        return true
    }

    private func addedSprite(_ fileName: String, size: Int) {
        let now = Date().timeIntervalSince1970
        let victims = state.withLock { s in
            if let old = s.sprites[fileName] { s.spriteBytes -= old.size }
            s.sprites[fileName] = (size, now)
            s.spriteBytes += size
            return enforceCap(&s, keeping: fileName)
        }
        removeSprites(victims)
    }

    public func removeSprite(_ fileName: String) {
        state.withLock { s in
            if let old = s.sprites.removeValue(forKey: fileName) { s.spriteBytes -= old.size }
        }
        FileIO.removeFile(spritePath(fileName))
    }

    private func removeSprites(_ names: [String]) {
        for name in names { FileIO.removeFile(spritePath(name)) }
    }

    /// Files (a record counts as one) and bytes on disk now.
    public var usage: (entries: Int, bytes: Int) { state.withLock { ($0.records.count + $0.sprites.count, $0.diskBytes) } }
}
