#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import PokedexLocks

/// The disk tier: `<cache>/v1/records/*.rec` and `<cache>/v1/sprites/*.png`,
/// bounded in bytes, least recently used first out.
///
/// A record file is a header line, a JSON line of metadata, then the payload:
///
///     pokedex-record 1
///     {"key":"pokemon/25","length":812,"crc32":305419896,"etag":"…","fetchedAt":…,"maxAge":86400}
///     <payload bytes>
///
/// Every write is a temporary file then `rename()`, so a reader sees the old file or
/// the new one, never half of one. Files are 0600 and directories 0700.
public final class FileCacheStore: CacheStore {
    static let magic = "pokedex-record 1\n"

    /// The versioned root, `<cache>/v1`.
    public let root: String
    private let recordsDir: String
    private let spritesDir: String
    private let capacity: Int
    private let onDisk: Mutex<DiskUsage>
    /// Whether writes are being refused for lack of free space.
    private let refusing = Mutex(false)

    /// What is on disk: relative path → size and last use, to evict without rescanning.
    struct DiskUsage {
        var files: [String: (size: Int, lastUse: Double)] = [:]
        var bytes = 0
    }

    struct Header: Codable {
        var key: String
        var length: Int
        var crc32: UInt32
        var etag: String?
        var fetchedAt: Double
        var maxAge: Double

        var freshness: Freshness { Freshness(etag: etag, fetchedAt: Date(timeIntervalSince1970: fetchedAt), maxAge: maxAge) }
    }

    /// Opens (creating if needed) the disk tier under `directory`, capped at `capacity` bytes.
    public init(directory: String, capacity: Int) throws {
        root = directory + "/v1"
        recordsDir = root + "/records"
        spritesDir = root + "/sprites"
        self.capacity = capacity
        try FileIO.makeDirectory(recordsDir)
        try FileIO.makeDirectory(spritesDir)
        for dir in [directory, root, recordsDir, spritesDir] { try FileIO.checkPrivate(dir, what: "the cache directory") }
        onDisk = Mutex(Self.scan([recordsDir, spritesDir], under: root))
    }

    /// Builds the table of what is on disk and removes temporary files a crash left behind.
    private static func scan(_ dirs: [String], under root: String) -> DiskUsage {
        var c = DiskUsage()
        for dir in dirs {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            for name in names {
                let path = dir + "/" + name
                if FileIO.isTemporary(name) { if FileIO.isAbandonedTemporary(name) { FileIO.removeFile(path) }; continue }
                guard let info = FileIO.fileInfo(path) else { continue }
                c.files[String(path.dropFirst(root.count + 1))] = (info.size, info.mtime)
                c.bytes += info.size
            }
        }
        return c
    }

    private func recordPath(_ key: String) -> String {
        var path = recordsDir
        path.reserveCapacity(recordsDir.utf8.count + key.utf8.count + 5)
        path += "/"
        path += key.utf8.contains(UInt8(ascii: "/")) ? String(decoding: key.utf8.map { $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0 }, as: UTF8.self) : key
        path += ".rec"
        return path
    }

    public func readRecord(_ key: String) -> StoredRecord? {
        let path = recordPath(key)
        guard let bytes = FileIO.readFile(path) else { return nil }
        guard let record = Self.decode(bytes, key: key) else {
            // Damaged: never served. Drop it so it is fetched again.
            forget(path)
            FileIO.removeFile(path)
            return nil
        }
        used(path)
        return record
    }

    /// A record file's header and where its payload starts; nil if the header cannot be read.
    static func header(_ bytes: [UInt8]) -> (header: Header, payloadStart: Int)? {
        let magicBytes = Array(magic.utf8)
        guard bytes.count > magicBytes.count, Array(bytes[0..<magicBytes.count]) == magicBytes else { return nil }
        guard let nl = bytes[magicBytes.count...].firstIndex(of: 0x0A) else { return nil }
        guard let header = try? JSONDecoder().decode(Header.self, from: Data(bytes[magicBytes.count..<nl])) else { return nil }
        return (header, nl + 1)
    }

    /// Parses a record file; nil if anything about it is wrong.
    static func decode(_ bytes: [UInt8], key: String) -> StoredRecord? {
        guard let (header, start) = header(bytes) else { return nil }
        let payload = Array(bytes[start...])
        guard header.key == key, header.length == payload.count, CRC32.checksum(payload) == header.crc32 else { return nil }
        return StoredRecord(payload: payload, freshness: header.freshness)
    }

    static func encode(_ record: StoredRecord, key: String) throws -> [UInt8] {
        let header = Header(
            key: key, length: record.payload.count, crc32: CRC32.checksum(record.payload),
            etag: record.freshness.etag, fetchedAt: record.freshness.fetchedAt.timeIntervalSince1970,
            maxAge: record.freshness.maxAge)
        let json = try RecordJSON.encode(header)
        // One buffer, filled once: a sync writes 40 MB of records.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(magic.utf8.count + json.count + 1 + record.payload.count)
        bytes.append(contentsOf: magic.utf8)
        bytes.append(contentsOf: json)
        bytes.append(0x0A)
        bytes.append(contentsOf: record.payload)
        return bytes
    }

    public func writeRecord(_ key: String, _ record: StoredRecord) throws {
        let path = recordPath(key)
        let bytes = try Self.encode(record, key: key)
        try ensureRoom(for: bytes.count)
        try FileIO.writeAtomically(bytes, to: path, durable: false)
        added(path, size: bytes.count)
    }

    public func removeRecord(_ key: String) {
        let path = recordPath(key)
        forget(path)
        FileIO.removeFile(path)
    }

    public func spritePath(_ fileName: String) -> String { spritesDir + "/" + fileName }

    public func readSprite(_ fileName: String) -> [UInt8]? {
        let path = spritePath(fileName)
        guard let bytes = FileIO.readFile(path) else { return nil }
        used(path)
        return bytes
    }

    public func writeSprite(_ fileName: String, _ bytes: [UInt8]) throws -> String {
        let path = spritePath(fileName)
        try ensureRoom(for: bytes.count)
        try FileIO.writeAtomically(bytes, to: path, durable: false)
        added(path, size: bytes.count)
        return path
    }

    public func removeSprite(_ fileName: String) {
        let path = spritePath(fileName)
        forget(path)
        FileIO.removeFile(path)
    }

    /// The cache never takes a disk's last free space, so favorites (and everything else on it)
    /// can still be written: it keeps 5% of the filesystem free, at least 64 KiB and at most
    /// 256 MiB, as journald keeps `SystemKeepFree`.
    static func keepFree(filesystemBytes: Int) -> Int { min(max(filesystemBytes / 20, 64 << 10), 256 << 20) }

    private func ensureRoom(for bytes: Int) throws {
        var fs = statvfs()
        guard statvfs(root, &fs) == 0 else { return }
        let free = Int(fs.f_bavail) * Int(fs.f_frsize)
        let keep = Self.keepFree(filesystemBytes: Int(fs.f_blocks) * Int(fs.f_frsize))
        // Hysteresis: once refusing, it waits for twice the reserve, so it does not flap at the edge.
        let refuse = refusing.withLock { r in
            r = r ? free - bytes < 2 * keep : free - bytes < keep
            return r
        }
        // The loader logs this once per episode, and again when writes work.
        if refuse {
            throw PokedexError.storage("the disk holding \(root) is nearly full (\(free >> 10) KiB free); the cache stops growing")
        }
    }

    public var usage: (entries: Int, bytes: Int) { onDisk.withLock { ($0.files.count, $0.bytes) } }

    // MARK: - Listing and clearing

    /// A record's header fits in this many bytes (a key, an ETag, four numbers).
    private static let headerLimit = 4096

    public func listing() throws(PokedexError) -> [CachedFile] {
        try filesOnDisk().map { file in
            if file.stray { return CachedFile(name: relative(file.path), kind: .stray, size: file.size) }
            guard file.path.hasPrefix(recordsDir + "/") else { return CachedFile(name: file.name, kind: .sprite, size: file.size) }
            // The header's key, when it names this very file; else the name's, and the record is damaged.
            if let (header, _) = FileIO.readPrefix(file.path, count: Self.headerLimit).flatMap(Self.header),
               recordPath(header.key) == file.path {
                return CachedFile(name: header.key, kind: .record(freshness: header.freshness), size: file.size)
            }
            return CachedFile(name: Self.key(ofRecordFile: file.name), kind: .record(freshness: nil), size: file.size)
        }
    }

    /// The key a record file's name stands for: keys hold one `/`, which the name holds as
    /// its first `_`. Either way ``recordPath(_:)`` maps the key back to this very file.
    static func key(ofRecordFile name: String) -> String {
        let stem = name.hasSuffix(".rec") ? name.dropLast(4) : Substring(name)
        guard let i = stem.firstIndex(of: "_") else { return String(stem) }
        return stem[..<i] + "/" + stem[stem.index(after: i)...]
    }

    public func removeStray(_ name: String) {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "records" || parts[0] == "sprites", !parts[1].isEmpty, parts[1] != "..", parts[1] != "." else { return }
        let path = root + "/" + name
        forget(path)
        FileIO.removeFile(path)
    }

    public func removeAll() throws(PokedexError) -> (files: Int, bytes: Int) {
        var removed = (files: 0, bytes: 0)
        var kept: [(path: String, why: String)] = []
        for file in try filesOnDisk() {
            if FileIO.removeFile(file.path) {
                removed.files += 1
                removed.bytes += file.size
            } else {
                kept.append((file.path, FileIO.errnoText()))
            }
            forget(file.path)
        }
        if let first = kept.first {
            throw .storage("cannot remove \(kept.count) file(s) from the cache (\(first.path): \(first.why))")
        }
        return removed
    }

    /// Every regular file in the records and sprites directories. Temporary files are strays
    /// once their writer is gone; while it runs, they are left out.
    private func filesOnDisk() throws(PokedexError) -> [(path: String, name: String, size: Int, stray: Bool)] {
        var out: [(path: String, name: String, size: Int, stray: Bool)] = []
        for dir in [recordsDir, spritesDir] {
            for name in try FileIO.names(in: dir) {
                if FileIO.isTemporary(name) && !FileIO.isAbandonedTemporary(name) { continue }
                let path = dir + "/" + name
                guard let info = FileIO.fileInfo(path) else { continue }
                let stray = FileIO.isTemporary(name) || (dir == recordsDir && !name.hasSuffix(".rec"))
                out.append((path, name, info.size, stray))
            }
        }
        return out
    }

    // MARK: - Bookkeeping and eviction

    private func relative(_ path: String) -> String { String(path.dropFirst(root.count + 1)) }

    private func used(_ path: String) {
        let now = Date().timeIntervalSince1970
        let stale = onDisk.withLock { c -> Bool in
            let rel = relative(path)
            guard let f = c.files[rel] else { return false }
            c.files[rel] = (f.size, now)
            return now - f.lastUse > 3600
        }
        // Carry recency across restarts, cheaply: at most one touch an hour per file.
        if stale { FileIO.touch(path) }
    }

    private func forget(_ path: String) {
        onDisk.withLock { c in
            if let f = c.files.removeValue(forKey: relative(path)) { c.bytes -= f.size }
        }
    }

    private func added(_ path: String, size: Int) {
        let rel = relative(path)
        let victims: [String] = onDisk.withLock { c in
            if let old = c.files[rel] { c.bytes -= old.size }
            c.files[rel] = (size, Date().timeIntervalSince1970)
            c.bytes += size
            guard c.bytes > capacity else { return [] }
            // Evict down to 90% of the cap, oldest first, never the file just written.
            var out: [String] = []
            let target = capacity / 10 * 9
            for (name, f) in c.files.sorted(by: { $0.value.lastUse < $1.value.lastUse }) where name != rel {
                if c.bytes <= target { break }
                c.files.removeValue(forKey: name)
                c.bytes -= f.size
                out.append(name)
            }
            return out
        }
        for name in victims { FileIO.removeFile(root + "/" + name) }
    }
}
