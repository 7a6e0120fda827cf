import Foundation
import Synchronization

/// Sprites as plain PNG files in the disk tier, because widgets load them by path.
///
/// Each file has a small metadata record (`sprite/{id}`: source URL, size, CRC-32).
/// A file is served only once it matches its record and is a whole PNG; a truncated,
/// corrupted or swapped file fails that and is fetched again.
final class SpriteCache: Sendable {
    enum State: Equatable {
        case valid(path: String, size: Int, mtime: Double)
        case absent
    }

    struct Meta: Codable {
        var url: String
        var size: Int
        var crc32: UInt32
    }

    private let store: any CacheStore
    private let fetcher: Fetcher
    private let clock: any PokedexClock
    private let log: Logger
    private let states = Mutex<[UInt32: State]>([:])
    private let flights = SingleFlight<UInt32, String>()

    init(store: any CacheStore, fetcher: Fetcher, clock: any PokedexClock, log: @escaping Logger) {
        self.store = store
        self.fetcher = fetcher
        self.clock = clock
        self.log = log
    }

    static func fileName(_ id: UInt32) -> String { "\(id).png" }
    static func metaKey(_ id: UInt32) -> String { "sprite/\(id)" }

    /// What is known without touching the disk: a path, "" (known absent), or nil (unknown).
    func knownPath(_ id: UInt32) -> String? {
        switch states.withLock({ $0[id] }) {
        case .valid(let path, _, _): return path
        case .absent: return ""
        case nil: return nil
        }
    }

    /// ``knownPath(_:)`` for many ids under one lock (the warm ListPage path).
    func knownPaths(_ ids: some Sequence<UInt32>) -> [String?] {
        states.withLock { s in
            ids.map { id in
                switch s[id] {
                case .valid(let path, _, _): return path
                case .absent: return ""
                case nil: return nil
                }
            }
        }
    }

    /// The path if a valid file is on disk, else "". Checks the disk; never fetches.
    func pathOnDisk(_ id: UInt32) -> String {
        if case .valid(let path, let size, let mtime)? = states.withLock({ $0[id] }) {
            if let info = FileIO.fileInfo(path), info.size == size, info.mtime == mtime { return path }
        }
        return verify(id, expectedURL: nil) ?? ""
    }

    /// Checks the file against its record; records the outcome; returns the path if valid.
    private func verify(_ id: UInt32, expectedURL: String?) -> String? {
        let name = Self.fileName(id)
        guard let stored = store.readRecord(Self.metaKey(id)),
              let meta = try? JSONDecoder().decode(Meta.self, from: Data(stored.payload)),
              expectedURL == nil || expectedURL == meta.url,
              let bytes = store.readSprite(name)
        else {
            states.withLock { $0[id] = .absent }
            return nil
        }
        let path = store.spritePath(name)
        guard bytes.count == meta.size, CRC32.checksum(bytes) == meta.crc32, PNGCheck.isValid(bytes),
              let info = FileIO.fileInfo(path)
        else {
            log(.warning, "sprite \(path) is damaged; it will be fetched again")
            store.removeSprite(name)
            store.removeRecord(Self.metaKey(id))
            states.withLock { $0[id] = .absent }
            return nil
        }
        states.withLock { $0[id] = .valid(path: path, size: info.size, mtime: info.mtime) }
        return path
    }

    /// The sprite's path, fetching it from `url` if no valid copy is on disk.
    func ensure(_ id: UInt32, url: String) async throws -> String {
        let onDisk = pathOnDisk(id)
        if !onDisk.isEmpty { return onDisk }
        return try await flights.run(id) { [self] in
            if let path = verify(id, expectedURL: url) { return path }
            guard case .body(let bytes, let etag, let maxAge) = try await fetcher.fetch(url) else {
                throw FetchError.http(status: 304, url: url)
            }
            guard PNGCheck.isValid(bytes) else {
                throw PokedexError.unavailable("the sprite at \(url) is not a whole PNG image")
            }
            let path = try store.writeSprite(Self.fileName(id), bytes)
            let meta = try JSONEncoder().encode(Meta(url: url, size: bytes.count, crc32: CRC32.checksum(bytes)))
            try store.writeRecord(
                Self.metaKey(id),
                StoredRecord(payload: Array(meta), freshness: Freshness(etag: etag, fetchedAt: clock.now(), maxAge: maxAge)))
            if let info = FileIO.fileInfo(path) {
                states.withLock { $0[id] = .valid(path: path, size: info.size, mtime: info.mtime) }
            }
            return path
        }
    }
}
