import PokedexLocks
import PokedexNetwork

/// `Sync`: everything a person needs offline: every list entry, every detail (pokemon and
/// species), every default sprite, and the names of every type, ability, stat and form, so a
/// `LocalizedDetail` in any language answers offline too. What is already on disk is skipped, so an
/// interrupted sync resumes where it stopped. Concurrent calls join the one running.
final class Sync: Sendable {
    private let catalog: Catalog
    private let records: Records
    private let sprites: Sprites
    private let terms: Terms
    private let search: SearchEngine
    private let workers: Int
    private let log: Logger
    private let report: @Sendable (SyncProgress) -> Void
    private let progressNow = Mutex(SyncProgress(done: 0, total: 0, running: false))
    private let flight = SingleFlight<Int, SyncResult>()

    /// - Parameter report: told of every step, for the `SyncProgress` property.
    init(catalog: Catalog, records: Records, sprites: Sprites, terms: Terms, search: SearchEngine, workers: Int,
         log: @escaping Logger, report: @escaping @Sendable (SyncProgress) -> Void) {
        self.catalog = catalog
        self.records = records
        self.sprites = sprites
        self.terms = terms
        self.search = search
        self.workers = max(1, workers)
        self.log = log
        self.report = report
    }

    /// Progress of the sync running now, or of the last one.
    var progress: SyncProgress { progressNow.withLock { $0 } }

    /// Runs below every caller's request, at most ``workers`` requests at once.
    func run() async -> SyncResult {
        (try? await flight.run(0) { [self] in await withPriority(.background) { await runOnce() } }) ?? SyncResult(complete: 0, failed: 0)
    }

    private func runOnce() async -> SyncResult {
        // From the start, this sync's progress, not the last one's end (`1351/1351`).
        update(SyncProgress(done: 0, total: progress.total, running: true))
        guard let index = try? await catalog.index() else {
            update(SyncProgress(done: 0, total: progress.total, running: false))
            return SyncResult(complete: 0, failed: 1)
        }
        let items = index.items
        try? await search.loadFilters()
        update(SyncProgress(done: 0, total: UInt32(items.count), running: true))
        let next = Mutex(0)
        let outcome = Mutex((complete: UInt32(0), failed: UInt32(0)))
        // As many workers as the politeness cap allows; the request gate still keeps room for callers.
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<workers {
                group.addTask { [self] in
                    while true {
                        let i = next.withLock { n -> Int in defer { n += 1 }; return n }
                        guard i < items.count else { return }
                        let ok = await syncOne(items[i])
                        let done = outcome.withLock { o -> UInt32 in
                            if ok { o.complete += 1 } else { o.failed += 1 }
                            return o.complete + o.failed
                        }
                        update(SyncProgress(done: done, total: UInt32(items.count), running: true))
                    }
                }
            }
        }
        let result = outcome.withLock { SyncResult(complete: $0.complete, failed: $0.failed) }
        update(SyncProgress(done: UInt32(items.count), total: UInt32(items.count), running: false))
        log(result.failed == 0 ? .info : .warning,
            "sync done: \(result.complete) Pokémon complete offline, \(result.failed) failed (run it again to retry them)")
        return result
    }

    /// Detail, species and sprite of one Pokémon, from disk if there (revalidated when stale:
    /// a 304 costs no body), else fetched.
    private func syncOne(_ item: PokemonIndex.Item) async -> Bool {
        guard let record = try? await records.pokemon(item, fresh: true) else { return false }
        // The species and the sprite do not wait for each other: two round trips a Pokémon, not three.
        async let species: Bool = (try? await records.loadSpecies(for: record, fresh: true)) != nil || record.speciesURL == nil
        async let sprite: Bool = if let url = record.spriteURL {
            (try? await sprites.still.ensure(record.id, url: url)) != nil
        } else { true }
        // The names of its types, abilities, stats and form: each fetched once for every Pokémon,
        // and a name that cannot be had is made from its identifier, so it does not fail the Pokémon.
        async let named = terms.localize(record, language: "en")
        let (haveSpecies, haveSprite, _) = await (species, sprite, named)
        return haveSpecies && haveSprite
    }

    /// Keeps the progress; tells the bus at most every 1% (and at the start and the end), so a
    /// sync is not a storm of `PropertiesChanged` signals.
    private func update(_ progress: SyncProgress) {
        let tell = progressNow.withLock { last -> Bool in
            defer { last = progress }
            let step = max(1, progress.total / 100)
            return progress.running != last.running || progress.done == 0 || progress.done / step != last.done / step
        }
        if tell { report(progress) }
    }
}
