import PokedexLocks

extension PokedexService {
    /// `Sync()`: fetches everything a person needs offline: every list entry, every detail
    /// (pokemon and species) and every default sprite. What is already on disk is skipped,
    /// so an interrupted sync resumes where it stopped. Concurrent calls join the one running.
    public func sync() async -> SyncResult {
        (try? await syncFlight.run(0) { [self] in await runSync() }) ?? SyncResult(complete: 0, failed: 0)
    }

    /// Progress of the sync running now, or of the last one.
    public var syncProgress: SyncProgress { syncState.withLock { $0 } }

    private func runSync() async -> SyncResult {
        guard let index = try? await index() else {
            return SyncResult(complete: 0, failed: 1)
        }
        let items = index.items
        try? await loadFilters()
        updateSync(SyncProgress(done: 0, total: UInt32(items.count), running: true))
        let next = Mutex(0)
        let outcome = Mutex((complete: UInt32(0), failed: UInt32(0)))
        // As many workers as connections: the per-host cap still holds in the HTTP client.
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<max(1, configuration.maxHostConnections) {
                group.addTask { [self] in
                    while true {
                        let i = next.withLock { n -> Int in defer { n += 1 }; return n }
                        guard i < items.count else { return }
                        let ok = await syncOne(items[i])
                        let done = outcome.withLock { o -> UInt32 in
                            if ok { o.complete += 1 } else { o.failed += 1 }
                            return o.complete + o.failed
                        }
                        updateSync(SyncProgress(done: done, total: UInt32(items.count), running: true))
                    }
                }
            }
        }
        let result = outcome.withLock { SyncResult(complete: $0.complete, failed: $0.failed) }
        updateSync(SyncProgress(done: UInt32(items.count), total: UInt32(items.count), running: false))
        log(result.failed == 0 ? .info : .warning,
            "sync done: \(result.complete) Pokémon complete offline, \(result.failed) failed (run it again to retry them)")
        return result
    }

    /// Detail, species and sprite of one Pokémon, from disk if there, else fetched.
    private func syncOne(_ item: PokemonIndex.Item) async -> Bool {
        guard let record = try? await pokemonRecord(item) else { return false }
        if let url = record.speciesURL, let sid = APIDecoding.trailingID(url) {
            guard let species = try? await loader.load(Self.speciesKey(sid), url: url, .species) else { return false }
            searchState.noteSpecies(species)
        }
        if let url = record.spriteURL {
            guard (try? await sprites.ensure(record.id, url: url)) != nil else { return false }
        }
        return true
    }

    private func updateSync(_ progress: SyncProgress) {
        syncState.withLock { $0 = progress }
        emit(.sync(progress))
    }
}
