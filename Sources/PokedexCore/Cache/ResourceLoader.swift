import Dispatch
import FoundationEssentials
import PokedexLocks
import PokedexNetwork

/// Reads through the tiers: memory, then disk, then the network, and writes back down.
/// A stale entry is answered at once and revalidated in the background with its ETag.
/// Concurrent loads of one key make one request.
final class ResourceLoader: Sendable {
    let memory: MemoryTier
    let store: any CacheStore
    let fetcher: Fetcher
    let clock: any PokedexClock
    let log: Logger
    private let flights = SingleFlight<String, CachedResource>()
    private let diskFailing = Mutex(false)
    /// Disk writes started after their caller was answered, not yet finished.
    private let pendingWrites = DispatchGroup()
    private let revalidations = SingleFlight<String, CachedResource?>()
    private let background: BackgroundWork

    init(memory: MemoryTier, store: any CacheStore, fetcher: Fetcher, clock: any PokedexClock, background: BackgroundWork,
         log: @escaping Logger) {
        self.background = background
        self.memory = memory
        self.store = store
        self.fetcher = fetcher
        self.clock = clock
        self.log = log
    }

    /// The record if the memory tier has it (fresh or stale); never waits. A stale one
    /// starts a background revalidation.
    func cached<R>(_ key: String, url: String, _ kind: ResourceKind<R>) -> R? {
        guard let entry = memory.get(key), let value = kind.unwrap(entry.resource) else { return nil }
        if !entry.freshness.isFresh(at: clock.now()) { revalidateInBackground(key, url: url, kind, entry.freshness) }
        return value
    }

    /// The record from memory or disk, without ever fetching it.
    func peek<R>(_ key: String, _ kind: ResourceKind<R>) -> R? {
        if let entry = memory.get(key), let v = kind.unwrap(entry.resource) { return v }
        guard let stored = store.readRecord(key), let v = kind.fromDisk(stored.payload) else { return nil }
        remember(key, kind.wrap(v), stored.freshness, bytes: stored.payload.count)
        return v
    }

    static let filtersKey = "meta/search-filters"

    /// The type and generation filters from the disk tier, if there.
    func peekFilters() -> SearchFilters? {
        store.readRecord(Self.filtersKey).flatMap { try? JSONDecoder().decode(SearchFilters.self, from: Data($0.payload)) }
    }

    /// Keeps the filters on disk for a week; they change only with a new game.
    func storeFilters(_ f: SearchFilters) {
        guard let payload = try? RecordJSON.encode(f) else { return }
        try? store.writeRecord(Self.filtersKey, StoredRecord(payload: payload,
                                                             freshness: Freshness(etag: nil, fetchedAt: clock.now(), maxAge: 7 * 86400)))
    }

    /// The record from whichever tier has it, fetching it if none does. `remembering`: kept in
    /// the memory tier too (not for a sync's records, which would push out what people look at).
    func load<R>(_ key: String, url: String, _ kind: ResourceKind<R>, remembering: Bool = true) async throws -> R {
        try await load(key, url: url, kind, remembering: remembering, readingDisk: true)
    }

    /// ``load(_:url:_:remembering:)``; `readingDisk` false where the caller has just found the
    /// disk without it (``loadFresh(_:url:_:)``: a sync's 6,000 records would each be looked
    /// for twice in a directory of thousands).
    private func load<R>(_ key: String, url: String, _ kind: ResourceKind<R>, remembering: Bool, readingDisk: Bool) async throws -> R {
        if let v = cached(key, url: url, kind) { return v }
        fetcher.promote(url)  // background work may have asked first
        // A sync's load (not remembered) runs in the sync's own task: its thousands of loads
        // have one caller each, and a task started for each was a thread's turn more.
        let flight = remembering ? flights.run : flights.lead
        let resource = try await CallTrace.step("waiting for \(kind.noun) (\(url))") {
            try await flight(key) { [self] in
                if let v = cached(key, url: url, kind) { return kind.wrap(v) }
                if readingDisk, let stored = store.readRecord(key), let v = kind.fromDisk(stored.payload) {
                    if remembering { remember(key, kind.wrap(v), stored.freshness, bytes: stored.payload.count) }
                    if kind.isOutdated(v) {
                        revalidateInBackground(key, url: url, kind, stored.freshness.withoutETag)
                    } else if !stored.freshness.isFresh(at: clock.now()) {
                        revalidateInBackground(key, url: url, kind, stored.freshness)
                    }
                    return kind.wrap(v)
                }
                let (value, size, etag, maxAge) = try await fetchDecoded(url, kind)
                let freshness = Freshness(etag: etag, fetchedAt: clock.now(), maxAge: maxAge)
                // A sync's record (not remembered), or one that nobody waits for now (a name a sync
                // or a pre-warm asked for): written here, in the task that fetched it; a task to
                // write it behind cost a thread woken for it (2,000 a sync).
                guard remembering, FetchPriority.current < .prefetch else {
                    try? persist(key, value, freshness, kind, remembering: remembering)
                    return kind.wrap(value)
                }
                // The caller is answered from memory now; the disk copy is written meanwhile.
                remember(key, kind.wrap(value), freshness, bytes: size / 4)
                pendingWrites.enter()
                let behind = background.runDetached(.utility) { [self] in
                    try? persist(key, value, freshness, kind)
                    pendingWrites.leave()
                }
                if !behind {  // the service is stopping: nothing fetched is lost
                    try? persist(key, value, freshness, kind)
                    pendingWrites.leave()
                }
                return kind.wrap(value)
            }
        }
        guard let value = kind.unwrap(resource) else { throw FetchError.http(status: 0, url: url) }
        return value
    }

    /// Like ``load(_:url:_:)``, but a stale record is revalidated (a `304` costs no body) before
    /// it is returned, not in the background: what `Sync` uses, so a sync leaves nothing stale.
    /// What it reads or fetches stays out of the memory tier (a sync's 6,000 records would
    /// push out what people look at, and fill the service's memory to the tier's cap).
    func loadFresh<R>(_ key: String, url: String, _ kind: ResourceKind<R>) async throws -> R {
        func fresh(_ value: R, _ freshness: Freshness) async throws -> R {
            let outdated = kind.isOutdated(value)
            guard outdated || !freshness.isFresh(at: clock.now()) else { return value }
            return try await revalidate(key, url: url, kind, outdated ? freshness.withoutETag : freshness, remembering: false) ?? value
        }
        if let entry = memory.get(key), let v = kind.unwrap(entry.resource) { return try await fresh(v, entry.freshness) }
        if let stored = store.readRecord(key), let v = kind.fromDisk(stored.payload) { return try await fresh(v, stored.freshness) }
        return try await load(key, url: url, kind, remembering: false, readingDisk: false)
    }

    /// GETs and decodes a body while it counts against the fetcher's budget of bytes held.
    private func fetchDecoded<R>(_ url: String, _ kind: ResourceKind<R>) async throws(FetchError) -> (R, Int, String?, Double) {
        let fetched = try await fetcher.fetch(url, as: kind.body) { body throws -> (R, Int) in (try decode(body, url: url, kind), body.count) }
        guard case .body(let (value, size), let etag, let maxAge) = fetched else { throw .unexpectedNotModified(url: url) }
        return (value, size, etag, maxAge)
    }

    /// Fetches a record again whatever the tiers hold, and writes it to both before it returns
    /// (`VerifyCache`, once the disk copy was found damaged). A failed fetch leaves memory as
    /// it was, so a good copy there still answers. Joins a load of the same key under way.
    func refetch<R>(_ key: String, url: String, _ kind: ResourceKind<R>) async throws -> R {
        let resource = try await flights.run(key) { [self] in
            let (value, _, etag, maxAge) = try await fetchDecoded(url, kind)
            try persist(key, value, Freshness(etag: etag, fetchedAt: clock.now(), maxAge: maxAge), kind)
            return kind.wrap(value)
        }
        guard let value = kind.unwrap(resource) else { throw FetchError.http(status: 0, url: url) }
        return value
    }

    /// Keeps a record another fetch brought along (a type's names, read with its members for
    /// the search filters), in both tiers, fresh for `maxAge` seconds: it is not fetched again.
    func keep<R>(_ key: String, _ value: R, _ kind: ResourceKind<R>, maxAge: Double) {
        try? persist(key, value, Freshness(etag: nil, fetchedAt: clock.now(), maxAge: maxAge), kind)
    }

    /// Waits, without blocking a thread, until every write started in the background has
    /// reached the disk.
    func writesFinished() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            pendingWrites.notify(queue: .global(qos: .utility)) { done.resume() }
        }
    }

    /// Waits (blocking, at most `timeout` seconds) until every write started in the
    /// background has reached the disk.
    func finishWrites(timeout: Double) {
        _ = pendingWrites.wait(timeout: .now() + timeout)
    }

    private func decode<R>(_ body: [UInt8], url: String, _ kind: ResourceKind<R>) throws -> R {
        do {
            return try DropLog.logging(log, source: url) { try kind.decodeBody(body, $0) }
        } catch {
            log(.warning, "PokeAPI sent a body for \(url) that is not what was expected: \(error)")
            throw PokedexError.unavailable("PokeAPI sent an unreadable answer for \(url)")
        }
    }

    /// Writes a record to both tiers. A disk failure (full, read-only) is logged, not fatal:
    /// the memory tier still answers.
    private func persist<R>(_ key: String, _ value: R, _ freshness: Freshness, _ kind: ResourceKind<R>, remembering: Bool = true) throws {
        let payload = try RecordJSON.encode(value)
        // Refreshed where memory has it; put there only where `remembering`.
        if remembering || memory.get(key) != nil { remember(key, kind.wrap(value), freshness, bytes: payload.count) }
        do {
            try store.writeRecord(key, StoredRecord(payload: payload, freshness: freshness))
            if diskFailing.withLock({ f in defer { f = false }; return f }) { log(.notice, "the disk cache is writable again") }
        } catch {
            // Once per episode, not per record.
            if !diskFailing.withLock({ f in defer { f = true }; return f }) {
                log(.warning, "cannot write the disk cache (\(error)); answering from memory meanwhile")
            }
        }
    }

    private func remember(_ key: String, _ resource: CachedResource, _ freshness: Freshness, bytes: Int) {
        // Decoded Swift values take roughly twice their JSON size.
        memory.set(key, .init(resource: resource, freshness: freshness), cost: bytes * 2 + 128)
    }

    /// Asks the API whether a stale entry changed, with `If-None-Match`; a 304 costs no body.
    private func revalidateInBackground<R>(_ key: String, url: String, _ kind: ResourceKind<R>, _ old: Freshness) {
        background.runDetached(.background) { [self] in
            _ = try? await withPriority(.background) { () async throws -> R? in try await revalidate(key, url: url, kind, old) }
        }
    }

    /// One revalidation per key at a time: the fresh record, or nil when the disk copy is gone.
    private func revalidate<R>(_ key: String, url: String, _ kind: ResourceKind<R>, _ old: Freshness,
                               remembering: Bool = true) async throws -> R? {
        let fresh = try await revalidations.run(key) { [self] () async throws -> CachedResource? in
            switch try await fetcher.fetch(url, etag: old.etag, as: kind.body, decode: { try decode($0, url: url, kind) }) {
            case .notModified(let etag, let maxAge):
                let fresh = Freshness(etag: etag, fetchedAt: clock.now(), maxAge: maxAge)
                guard let stored = store.readRecord(key), let v = kind.fromDisk(stored.payload) else {
                    return nil
                }
                try persist(key, v, fresh, kind, remembering: remembering)
                return kind.wrap(v)
            case .body(let value, let etag, let maxAge):
                try persist(key, value, Freshness(etag: etag, fetchedAt: clock.now(), maxAge: maxAge), kind, remembering: remembering)
                return kind.wrap(value)
            }
        }
        return fresh.flatMap(kind.unwrap)
    }
}
