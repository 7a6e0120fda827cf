import PokedexLocks
import PokedexNetwork

/// `Sync`: everything a person needs offline: every list entry, every detail (pokemon and
/// species), every default sprite, every evolution family (and the names of the items, moves and games its
/// conditions name), the names of every type, ability, stat and form, so a `LocalizedDetail` in
/// any language answers offline too, and every move a Pokémon learns (each read once) and the
/// names its breeding and training lines give, for `Moves` and the card's lower parts. What is already on disk is skipped, so an
/// interrupted sync resumes where it stopped. Concurrent calls join the one running.
final class Sync: Sendable {
    private let catalog: Catalog
    private let records: Records
    private let sprites: Sprites
    private let terms: Terms
    private let evolutions: Evolutions
    private let moveLists: MoveLists
    private let training: Training
    /// The moves this sync has asked for, so each is read once for every Pokémon that learns it.
    private let movesAsked = Mutex(AskedMoves())
    /// The species this sync has kept (by URL): a form's species is its default Pokémon's, kept
    /// already, and was read back from disk and decoded again for each of 326 forms.
    private let speciesKept = Mutex<Set<String>>([])
    /// Where the Pokémon synced hand the moves they learn to ``fetchMoves(_:)``; nil between syncs.
    private let moveFeed = Mutex<AsyncStream<UInt32>.Continuation?>(nil)
    /// Requests the moves take at once, beside the Pokémon's: they use what the Pokémon leave of
    /// the gate, rather than hold the first Pokémon up behind 800 moves.
    static let moveWorkers = 16
    private let search: SearchEngine
    private let health: NetworkHealth
    private let workers: Int
    /// ``retryPauses``, or shorter ones for a test.
    private let pauses: [Double]
    private let log: Logger
    private let report: @Sendable (SyncProgress) -> Void
    /// Returns once every record fetched has reached the disk (they are written behind).
    private let written: @Sendable () async -> Void
    /// Called once a sync has ended, to hand back the memory it used and left free.
    private let releaseMemory: @Sendable () -> Void
    private let progressNow = Mutex(SyncProgress(done: 0, total: 0, state: .idle))
    /// Held while a step is decided and told, so steps are told in the order they were kept;
    /// it counts the steps told (a value of its own: a lock around `()` has no storage of its
    /// own, and ThreadSanitizer took its accesses for a race).
    private let told = Mutex<UInt64>(0)
    private let flight = SingleFlight<Int, SyncResult>()
    private let clock: any PokedexClock
    /// Where a sync's steps run, its fetches' included (their flights' tasks are given it).
    private let executor: any TaskExecutor

    /// The pauses before the Pokémon that failed are tried again, in turn: a minute and a half in
    /// all, so a freeze of the service, a suspend or a network blip shorter than a minute ends with
    /// nothing failed (every transfer under way timed out at once, and is tried again).
    static let retryPauses: [Double] = [1, 2, 4, 8, 15, 30, 30]

    /// - Parameter report: told of every step, for the `SyncProgress` and `SyncState` properties.
    init(catalog: Catalog, records: Records, sprites: Sprites, terms: Terms, evolutions: Evolutions, moveLists: MoveLists,
         words: @escaping @Sendable (String) -> Words, search: SearchEngine,
         health: NetworkHealth, workers: Int, retryPauses: [Double] = Sync.retryPauses, clock: any PokedexClock, log: @escaping Logger,
         written: @escaping @Sendable () async -> Void, releaseMemory: @escaping @Sendable () -> Void = {},
         executor: any TaskExecutor,
         report: @escaping @Sendable (SyncProgress) -> Void) {
        self.catalog = catalog
        self.records = records
        self.sprites = sprites
        self.terms = terms
        self.evolutions = evolutions
        self.moveLists = moveLists
        training = Training(terms: terms, words: words)
        self.search = search
        self.health = health
        self.workers = max(1, workers)
        pauses = retryPauses
        self.clock = clock
        self.log = log
        self.report = report
        self.written = written
        self.releaseMemory = releaseMemory
        self.executor = executor
    }

    /// Progress of the sync running now, or of the last one.
    var progress: SyncProgress { progressNow.withLock { $0 } }

    /// Runs below every caller's request, at most ``workers`` requests at once.
    func run() async -> SyncResult {
        (try? await flight.run(0) { [self] in
            let result = await withPriority(.background) { await PreferredExecutor.prefer(executor) { await runOnce() } }
            releaseMemory()
            return result
        }) ?? SyncResult(complete: 0, failed: 0)
    }

    /// Where a sync runs unless the service is given another executor: one thread, woken when
    /// a transfer ends, rather than whichever of the pool's is idle. The daemon gives it the
    /// event loop's (``PokedexService/init``'s `syncExecutor`): the transfers end there, so a
    /// step then runs with no thread woken for it.
    static let ownThread = ThreadExecutor()

    private func runOnce() async -> SyncResult {
        // From the start, this sync's progress, not the last one's end (`1351/1351`).
        update(SyncProgress(done: 0, total: progress.total, state: .running))
        guard let index = try? await catalog.index() else {
            update(SyncProgress(done: 0, total: progress.total, state: Task.isCancelled ? .cancelled : .failed))
            return SyncResult(complete: 0, failed: 1)
        }
        let items = index.items
        let total = UInt32(items.count)
        try? await search.loadFilters()
        movesAsked.withLock { $0 = AskedMoves() }
        speciesKept.withLock { $0 = [] }
        let (moves, feed) = AsyncStream.makeStream(of: UInt32.self)
        moveFeed.withLock { $0 = feed }
        async let failedMoves = fetchMoves(moves)
        await moveLists.keepGameNames()
        update(SyncProgress(done: 0, total: total, state: .running))
        let complete = Mutex<UInt32>(0)
        var pending = items
        // The whole list, then what failed again after each pause, until nothing is left to try.
        for pause in [nil] + pauses.map(Optional.some) {
            if let pause {
                guard !pending.isEmpty, (try? await clock.sleep(seconds: pause)) != nil else { break }
                log(.info, "sync: \(pending.count) Pokémon failed; trying them again")
                // A host still marked down would refuse the whole pass at once: ask it first.
                await health.probeDownHostsNow()
            }
            pending = await pass(pending, total: total, complete: complete)
            if Task.isCancelled || pending.isEmpty { break }
        }
        moveFeed.withLock { $0?.finish(); $0 = nil }
        // The moves that could not be had, tried again after the same pauses; what still fails
        // fails the Pokémon that learn it.
        var missing = await failedMoves
        for pause in pauses where !missing.isEmpty && !Task.isCancelled {
            guard (try? await clock.sleep(seconds: pause)) != nil else { break }
            await health.probeDownHostsNow()
            missing = await retry(missing)
        }
        if !missing.isEmpty, !Task.isCancelled {
            log(.warning, "sync: \(missing.count) moves could not be fetched")
            let learners = items.filter { i in records.pokemonOnHand(i.id).map { !MoveLists.moves(of: $0).isDisjoint(with: missing) } ?? false }
            let known = Set(pending.map(\.id))
            let newlyFailed = learners.filter { !known.contains($0.id) }
            complete.withLock { $0 -= min($0, UInt32(newlyFailed.count)) }
            pending += newlyFailed
        }
        // Done means on disk: the cache's statistics, a stop or a crash right after the answer
        // find every record the sync counted.
        await written()
        let result = SyncResult(complete: complete.withLock { $0 }, failed: UInt32(pending.count))
        let state: SyncState = Task.isCancelled ? .cancelled : result.failed > 0 ? .failed : .done
        update(SyncProgress(done: state == .cancelled ? result.complete : total, total: total, state: state))
        if state == .cancelled {
            log(.info, "sync cancelled at \(result.complete) of \(total): its caller left")
        } else {
            log(result.failed == 0 ? .info : .warning,
                "sync done: \(result.complete) Pokémon complete offline, \(result.failed) failed (run it again to retry them)")
        }
        return result
    }

    /// Syncs `items` with ``workers`` at once, until they are done or the sync is cancelled,
    /// counting those complete in `complete`; returns those that failed.
    private func pass(_ items: [PokemonIndex.Item], total: UInt32, complete: Mutex<UInt32>) async -> [PokemonIndex.Item] {
        let next = Mutex(0)
        let failed = Mutex<[PokemonIndex.Item]>([])
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<workers {
                group.addTask { [self] in
                    while !Task.isCancelled {
                        let i = next.withLock { n -> Int in defer { n += 1 }; return n }
                        guard i < items.count else { return }
                        if await syncOne(items[i]) {
                            let done = complete.withLock { c -> UInt32 in c += 1; return c }
                            update(SyncProgress(done: done, total: total, state: .running))
                        } else if !Task.isCancelled {
                            failed.withLock { $0.append(items[i]) }
                        }
                    }
                }
            }
        }
        // Cancelled: what no worker reached is not done either.
        return failed.withLock { $0 } + (Task.isCancelled ? Array(items.dropFirst(min(items.count, next.withLock { $0 }))) : [])
    }

    /// Detail, species, sprite and family of one Pokémon, from disk if there (revalidated when stale:
    /// a 304 costs no body), else fetched.
    private func syncOne(_ item: PokemonIndex.Item) async -> Bool {
        guard let record = try? await records.pokemon(item, fresh: true) else { return false }
        // The species and the sprite do not wait for each other: two round trips a Pokémon, not three.
        async let species = keepSpecies(of: record)
        async let sprite = keepSprite(of: record)
        // Its family, once for all its members (the loader joins them); a species the bundled
        // table does not know names its family in its record.
        let knownChain = Details.chainID(record, species: nil)
        async let family = keepFamily(knownChain)
        // The moves it learns, each asked for once for every Pokémon that learns it, fetched
        // beside the Pokémon (``fetchMoves(_:)``).
        let newMoves = movesAsked.withLock { asked in
            var new: [UInt32] = []
            MoveLists.forEachMove(of: record) { id in if asked.insert(id) { new.append(id) } }
            return new
        }
        moveFeed.withLock { feed in for id in newMoves { feed?.yield(id) } }
        // The names of its types, abilities, stats and form, and those its training lines give
        // (held items, its games): in this task, while the others wait on the network, as after
        // its first Pokémon memory has nearly all of them. Each fetched once for every Pokémon; a
        // name that cannot be had is made from its identifier, so it does not fail the Pokémon.
        _ = await terms.localize(record, language: "en")
        await training.keepNames(of: Training.facts(record, species: nil))
        let (haveSpecies, haveSprite, haveFamily) = await (species, sprite, family)
        guard haveSpecies, haveSprite, haveFamily else { return false }
        if knownChain == nil, let chain = Details.chainID(record, species: records.speciesOnHand(for: record)) {
            return await keepFamily(chain)
        }
        return true
    }

    /// Fetches the moves handed over as they come, ``moveWorkers`` at once, until the feed ends;
    /// returns those that could not be had.
    private func fetchMoves(_ moves: AsyncStream<UInt32>) async -> Set<UInt32> {
        await withTaskGroup(of: (UInt32, Bool).self) { group in
            var running = 0, failed = Set<UInt32>()
            for await id in moves {
                if running == Self.moveWorkers, let (done, kept) = await group.next() {
                    running -= 1
                    if !kept { failed.insert(done) }
                }
                group.addTask { [moveLists] in (id, await moveLists.keep(id)) }
                running += 1
            }
            for await (id, kept) in group where !kept { failed.insert(id) }
            return failed
        }
    }

    /// The moves of `ids` fetched again; those still failing.
    private func retry(_ ids: Set<UInt32>) async -> Set<UInt32> {
        await withTaskGroup(of: (UInt32, Bool).self) { group in
            for id in ids { group.addTask { [moveLists] in (id, await moveLists.keep(id)) } }
            var failed = Set<UInt32>()
            for await (id, kept) in group where !kept { failed.insert(id) }
            return failed
        }
    }

    // Steps of syncOne, as functions: Swift 6.0's compiler crashes on an `if let` expression
    // that initialises an `async let` (Debian 13 builds with it).

    /// The species, and the names of its egg groups (its breeding line's).
    private func keepSpecies(of record: PokemonRecord) async -> Bool {
        guard let url = record.speciesURL else { return true }
        if speciesKept.withLock({ $0.contains(url) }) { return true }
        guard let species = try? await records.loadSpecies(for: record, fresh: true) else { return false }
        await terms.keepNames((species.breeding?.eggGroups ?? []).map { (.eggGroup, $0) })
        speciesKept.withLock { _ = $0.insert(url) }
        return true
    }
    private func keepSprite(of record: PokemonRecord) async -> Bool {
        guard let url = record.spriteURL else { return true }
        return (try? await sprites.still.ensure(record.id, url: url, leading: true)) != nil
    }

    /// A family, and the names of the items, moves and games its conditions name (each fetched
    /// once for every family that names it); a name that cannot be had does not fail the Pokémon,
    /// as a type's does not.
    private func keepFamily(_ chainID: UInt32?) async -> Bool {
        guard let chainID else { return true }
        let (kept, family) = await evolutions.keep(chainID)
        if let family { await terms.keepNames(of: family) }
        return kept
    }

    /// Keeps the progress; tells the bus at most every 1% (and at the start and the end), so a
    /// sync is not a storm of `PropertiesChanged` signals. Workers finish in any order: a count
    /// older than one already told is dropped, so a widget never sees `done` go back.
    private func update(_ progress: SyncProgress) {
        told.withLock { count in
            let tell = progressNow.withLock { last -> Bool in
                let stale = progress.state == .running && last.state == .running && progress.total == last.total
                    && progress.done < last.done
                if stale { return false }
                defer { last = progress }
                let step = max(1, progress.total / 100)
                return progress.state != last.state || progress.done == 0 || progress.done / step != last.done / step
            }
            if tell {
                count += 1
                report(progress)
            }
        }
    }
}

/// The moves a sync has asked for: a bit for each id PokeAPI gives moves (up to 919, and from
/// 10001 its shadow moves), a set for any other. Each Pokémon's thousand entries are looked up
/// in it: a set built of them and subtracted was 1% of a sync.
struct AskedMoves {
    private var bits = [UInt64](repeating: 0, count: 16384 / 64)
    private var others = Set<UInt32>()

    /// Adds `id`; whether it was not there yet.
    mutating func insert(_ id: UInt32) -> Bool {
        let word = Int(id / 64)
        guard word < bits.count else { return others.insert(id).inserted }
        let bit = UInt64(1) << (id % 64)
        defer { bits[word] |= bit }
        return bits[word] & bit == 0
    }
}
