import FoundationEssentials
import PokedexLocks
import PokedexNetwork

/// `CacheStats`, `VerifyCache` and `ClearCache`: what the disk tier holds, by kind; every
/// file checked, and the damaged fetched again through the loaders every answer uses; both
/// tiers emptied. Favorites are never touched: they live in the data directory.
final class CacheMaintenance: Sendable {
    /// How many failures `VerifyCache` names (it counts them all).
    static let failuresNamed = 10

    private let configuration: ServiceConfiguration
    private let store: any CacheStore
    private let loader: ResourceLoader
    private let catalog: Catalog
    private let records: Records
    private let sprites: Sprites
    private let search: SearchEngine
    private let prefetch: PagePrefetch
    private let routes: APIRoutes
    private let clock: any PokedexClock
    private let log: Logger
    /// Concurrent verifications join the one under way.
    private let verifying = SingleFlight<Int, CacheVerifyResult>()

    init(configuration: ServiceConfiguration, store: any CacheStore, loader: ResourceLoader, catalog: Catalog,
         records: Records, sprites: Sprites, search: SearchEngine, prefetch: PagePrefetch, routes: APIRoutes,
         clock: any PokedexClock, log: @escaping Logger) {
        self.configuration = configuration
        self.store = store
        self.loader = loader
        self.catalog = catalog
        self.records = records
        self.sprites = sprites
        self.search = search
        self.prefetch = prefetch
        self.routes = routes
        self.clock = clock
        self.log = log
    }

    private func item(_ file: CachedFile) -> CacheItem { CacheItem.of(file, sprites: sprites) }

    // MARK: Stats

    /// Each kind's count, bytes, fetched-at range and staleness by the service's clock, from
    /// the files on disk (their headers, not their payloads); the totals of both tiers.
    func stats() throws(PokedexError) -> CacheStats {
        let now = clock.now()
        let files = try store.listing()
        let items = files.map(item)
        // A sprite's dates are its metadata record's, while its image is there.
        let images = Set(items.filter { if case .sprite = $0 { return true } else { return false } })
        var kinds = Dictionary(uniqueKeysWithValues: CacheKind.allCases.map { ($0, CacheKindStats(kind: $0)) })
        for (file, item) in zip(files, items) {
            var k = kinds[item.kind]!
            k.bytes += file.size
            if item.counts { k.count += 1 }
            if case .spriteMeta(let id, let variant) = item, !images.contains(.sprite(id, variant)) {
                kinds[item.kind] = k
                continue
            }
            if case .record(let freshness?) = file.kind {
                if let t = Self.seconds(freshness.fetchedAt) {
                    k.oldestFetchedAt = min(k.oldestFetchedAt ?? t, t)
                    k.newestFetchedAt = max(k.newestFetchedAt ?? t, t)
                }
                if !freshness.isFresh(at: now) { k.stale += 1 }
            }
            kinds[item.kind] = k
        }
        let memory = loader.memory.usage
        return CacheStats(
            kinds: CacheKind.allCases.map { kinds[$0]! }, now: Int(now.timeIntervalSince1970),
            files: files.count, bytes: files.reduce(0) { $0 + $1.size }, diskCapBytes: configuration.diskCacheBytes,
            memoryEntries: memory.entries, memoryBytes: memory.bytes, memoryCapBytes: configuration.memoryCacheBytes,
            cacheDirectory: configuration.cacheDirectory)
    }

    /// Whole seconds since 1970; nil for a time no clock gives (the checksum covers a record's
    /// payload, not its header, which may say anything).
    static func seconds(_ date: Date) -> Int? {
        let s = date.timeIntervalSince1970
        return s.isFinite && abs(s) < 1e12 ? Int(s) : nil
    }

    // MARK: Verify

    /// Reads every record in full and checks every sprite against its metadata record; removes
    /// what is damaged and fetches it again, as many at once as the per-host connection cap
    /// allows; removes files that belong to nothing.
    func verify() async throws(PokedexError) -> CacheVerifyResult {
        do {
            return try await verifying.run(0) { [self] in try await verifyOnce() }
        } catch {
            throw PokedexError.wrap(error, context: "the cache could not be verified")
        }
    }

    private func verifyOnce() async throws(PokedexError) -> CacheVerifyResult {
        var checked = 0, orphans = 0
        var damaged: [CacheItem] = []
        // A sprite is checked with its metadata record: the image's id → which of the two are there.
        var pairs: [CacheItem: (image: Bool, meta: Bool)] = [:]
        for file in try store.listing() {
            let item = item(file)
            switch item {
            case .index, .pokemon, .species, .filters, .names, .form, .evolution, .move, .otherRecord:
                // Length, checksum and key; a damaged record is removed by the reading.
                let whole = store.readRecord(file.name) != nil
                if case .otherRecord = item, !whole {
                    // Not a record this service writes, and not whole: a stray file (someone's
                    // notes, a copy), not damage. Removed by the reading; an orphan.
                    orphans += 1
                    continue
                }
                checked += 1
                if !whole { damaged.append(item) }
            case .sprite(let id, let variant):
                pairs[.sprite(id, variant), default: (false, false)].image = true
            case .spriteMeta(let id, let variant):
                pairs[.sprite(id, variant), default: (false, false)].meta = true
            case .orphan:
                if case .stray = file.kind { store.removeStray(file.name) } else { store.removeSprite(file.name) }
                orphans += 1
            }
        }
        for (item, pair) in pairs {
            guard case .sprite(let id, let variant) = item else { continue }
            let cache = sprites.cache(variant)
            // Size, CRC-32 and a whole image, as every answer checks a sprite; a damaged pair is removed.
            if cache.checkOnDisk(id) != nil {
                checked += 1
                continue
            }
            // With only its record damaged, the image is still there.
            store.removeSprite(cache.fileName(id))
            store.removeRecord(cache.metaKey(id))
            if pair.image && pair.meta {
                checked += 1
                damaged.append(item)
            } else {
                // One without the other: what eviction leaves, not damage. Nothing to fetch.
                orphans += 1
            }
        }
        let notRepaired = await repair(damaged)
        let failures = notRepaired
        let result = CacheVerifyResult(
            checked: checked, damaged: damaged.count, repaired: damaged.count - notRepaired.count,
            failed: failures.count, orphans: orphans,
            failures: Array(failures.sorted { $0.item < $1.item }.prefix(Self.failuresNamed)))
        log(result.failed == 0 ? .notice : .warning,
            "cache verified: \(result.checked) checked, \(result.damaged) damaged, \(result.repaired) fetched again, "
                + "\(result.failed) failed, \(result.orphans) orphaned files removed")
        return result
    }

    /// Fetches each item again, the list first (the others are named from it); then checks
    /// each is whole on disk. Returns those that are not, and why.
    private func repair(_ items: [CacheItem]) async -> [CacheVerifyResult.Failure] {
        var failures: [CacheVerifyResult.Failure] = []
        if items.contains(.index), let failure = await fetchAgain(.index, index: nil) { failures.append(failure) }
        let rest = items.filter { $0 != .index }
        let index = catalog.indexOnHand
        let next = Mutex(0)
        let found = Mutex([CacheVerifyResult.Failure]())
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<min(max(1, configuration.maxHostConnections), rest.count) {
                group.addTask { [self] in
                    while true {
                        let i = next.withLock { n -> Int in defer { n += 1 }; return n }
                        guard i < rest.count else { return }
                        if let failure = await fetchAgain(rest[i], index: index) { found.withLock { $0.append(failure) } }
                    }
                }
            }
        }
        failures += found.withLock { $0 }
        // A fetch another caller started writes in the background: wait for it, then look.
        await loader.writesFinished()
        let failed = Set(failures.map(\.item))
        for item in items where !failed.contains(label(item)) && !isWholeOnDisk(item) {
            failures.append(.init(item: label(item), reason: "fetched again, but it could not be written to the disk cache"))
        }
        return failures
    }

    /// Fetches one item again through its loader; nil when that worked, else why not.
    private func fetchAgain(_ item: CacheItem, index: PokemonIndex?) async -> CacheVerifyResult.Failure? {
        func named(_ id: UInt32) -> PokemonIndex.Item { index?.item(id: id) ?? PokemonIndex.Item(id: id, name: "#\(id)") }
        do {
            switch item {
            case .index: _ = try await loader.refetch(APIRoutes.indexKey, url: routes.index, .index)
            case .pokemon(let id): _ = try await loader.refetch(APIRoutes.pokemonKey(id), url: routes.pokemon(id), .pokemon)
            case .species(let id): _ = try await loader.refetch(APIRoutes.speciesKey(id), url: routes.species(id), .species)
            case .filters: try await search.refetchFilters()
            case .names(let kind, let name): _ = try await loader.refetch(APIRoutes.namesKey(kind, name), url: routes.named(kind, name), .names(of: kind))
            case .form(let id):
                let record = try await records.pokemon(named(id))
                guard let url = record.formURL else { throw PokedexError.notFound("the API names no form for \(record.name) any more") }
                _ = try await loader.refetch(APIRoutes.formKey(id), url: url, .names)
            case .evolution(let id): _ = try await loader.refetch(APIRoutes.evolutionKey(id), url: routes.evolutionChain(id), .evolution)
            case .move(let id): _ = try await loader.refetch(APIRoutes.moveKey(id), url: routes.move(id), .move)
            case .sprite(let id, .still): _ = try await sprites.ensure(named(id))
            case .sprite(let id, .shiny): _ = try await sprites.ensureShiny(named(id))
            case .sprite(let id, .cry): _ = try await sprites.ensureCry(named(id))
            case .sprite(let id, .animated):
                let record = try await records.pokemon(named(id))
                guard let url = record.animatedSpriteURL else {
                    throw PokedexError.notFound("the API names no animated sprite for \(record.name) any more")
                }
                _ = try await sprites.animated.ensure(id, url: url)
            case .spriteMeta, .otherRecord, .orphan: return nil
            }
            return nil
        } catch FetchError.notFound(let url) {
            return .init(item: label(item), reason: "PokeAPI answered 404 Not Found for \(url)")
        } catch {
            return .init(item: label(item), reason: PokedexError.wrap(error, context: "not fetched again").message)
        }
    }

    /// Whether a repaired item is on disk and whole now.
    private func isWholeOnDisk(_ item: CacheItem) -> Bool {
        switch item {
        case .index: return store.readRecord(APIRoutes.indexKey) != nil
        case .pokemon(let id): return store.readRecord(APIRoutes.pokemonKey(id)) != nil
        case .species(let id): return store.readRecord(APIRoutes.speciesKey(id)) != nil
        case .filters: return store.readRecord(ResourceLoader.filtersKey) != nil
        case .names(let kind, let name): return store.readRecord(APIRoutes.namesKey(kind, name)) != nil
        case .form(let id): return store.readRecord(APIRoutes.formKey(id)) != nil
        case .evolution(let id): return store.readRecord(APIRoutes.evolutionKey(id)) != nil
        case .move(let id): return store.readRecord(APIRoutes.moveKey(id)) != nil
        case .sprite(let id, let variant): return sprites.cache(variant).checkOnDisk(id) != nil
        case .spriteMeta, .otherRecord, .orphan: return true
        }
    }

    /// How an item is named in a report: its record's key, or its sprite's file name.
    private func label(_ item: CacheItem) -> String {
        switch item {
        case .index: return APIRoutes.indexKey
        case .pokemon(let id): return APIRoutes.pokemonKey(id)
        case .species(let id): return APIRoutes.speciesKey(id)
        case .filters: return ResourceLoader.filtersKey
        case .names(let kind, let name): return APIRoutes.namesKey(kind, name)
        case .form(let id): return APIRoutes.formKey(id)
        case .evolution(let id): return APIRoutes.evolutionKey(id)
        case .move(let id): return APIRoutes.moveKey(id)
        case .sprite(let id, let variant): return sprites.cache(variant).fileName(id)
        case .spriteMeta(let id, let variant): return sprites.cache(variant).metaKey(id)
        case .otherRecord(let key): return key
        case .orphan: return "?"
        }
    }

    // MARK: Clear

    /// Removes every file of the disk tier and forgets the memory tier and every sprite's
    /// state, so no answer names a file that went. Writes already started land first.
    func clear() async throws(PokedexError) -> CacheClearResult {
        await loader.writesFinished()
        let removed: Result<(files: Int, bytes: Int), PokedexError>
        do { removed = .success(try store.removeAll()) } catch { removed = .failure(error) }
        // Even when some file stayed: the disk is asked again, and finds what is there.
        loader.memory.removeAll()
        for variant in SpriteVariant.allCases { sprites.cache(variant).forgetAll() }
        // The page on screen lost its sprites: asking for it again fetches them again.
        prefetch.forgetLastPage()
        let r = try removed.get()
        log(.notice, "cache cleared: \(r.files) files, \(r.bytes >> 10) KiB; favorites kept")
        return CacheClearResult(files: r.files, bytes: r.bytes)
    }
}
