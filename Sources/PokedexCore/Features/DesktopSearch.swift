import FoundationEssentials
import PokedexLocks
import PokedexNetwork

/// What the desktop's search providers ask (GNOME Shell's overview, KRunner): the Pokémon for
/// the words typed, and their rows, whole. Results come from the search index in memory within
/// a keystroke, the same for a first search and for a subsearch, whatever the shell says it
/// found before (``DesktopRanking``). A shell asks for a row once, so rows are answered whole:
/// what the disk has is brought into memory first, and what only the network has is fetched
/// within ``completionDeadline`` (``DesktopRows``).
final class DesktopSearch: Sendable {
    /// Results a provider gets for one set of terms.
    public static let maxResults: UInt32 = 20
    /// How long rows that are not whole wait for the network: GNOME Shell asks for a row's
    /// metas once, so a bare row stays bare. A row's parts are asked at once (``loadRow(_:)``),
    /// so at 300 ms a request (a slow network) they come in about 300 ms, a form the bundled
    /// table does not name in about 600; past this, the rows go as they are and the fetches go
    /// on for the next ask.
    static let completionDeadline = 0.8

    let search: SearchEngine
    let catalog: Catalog
    let records: Records
    let rows: Rows
    let details: Details
    let terms: Terms
    let icons: DesktopIcons
    /// The language of the names results show (a PokeAPI code).
    let language: String
    private let background: BackgroundWork
    private let clock: any PokedexClock

    init(search: SearchEngine, catalog: Catalog, records: Records, rows: Rows, details: Details, terms: Terms,
         decoder: (any ImageDecoder)?, background: BackgroundWork, clock: any PokedexClock, language: String = "en") {
        self.search = search
        self.catalog = catalog
        self.records = records
        self.rows = rows
        self.details = details
        self.terms = terms
        icons = DesktopIcons(decoder: decoder)
        self.background = background
        self.clock = clock
        self.language = language
    }

    // MARK: Results

    /// The Pokémon every term matches, best first, at most ``maxResults``. The terms together
    /// may be a number as people write it (`No.` `25`); each term alone is matched as `Search`
    /// matches a query. Nothing is described here: the shells ask for the few they show
    /// (``metas(_:)``).
    public func results(_ terms: [String]) -> Answer<[Ranked]> {
        let terms = terms.map { String($0.trimmingWhitespace()) }.filter { !$0.isEmpty }
        guard !terms.isEmpty else { return .now([]) }
        let queries = Self.queries(terms, language: language)
        let fromMemory = queries.compactMap { search.searchFromMemory($0, limit: PokedexService.maxLimit) }
        if fromMemory.count == queries.count {
            return .now(Self.ranked(Self.intersect(fromMemory, relatives: Self.relatives(search.builtIndex))))
        }
        return .later { [search] () throws(PokedexError) in
            var hits: [[SearchHit]] = []
            for q in queries { hits.append(try await search.search(q, limit: PokedexService.maxLimit)) }
            return Self.ranked(Self.intersect(hits, relatives: Self.relatives(search.builtIndex)))
        }
    }

    // MARK: Rows

    /// The rows of the ids that are Pokémon, whole (``whole(_:)``); the rest are left out.
    public func metas(_ ids: [String]) -> Answer<[DesktopResult]> {
        guard let index = catalog.cachedIndex else {
            return .later { [self] () throws(PokedexError) in
                let index = try await catalog.index()
                let items = ids.compactMap { UInt32($0).flatMap(index.item(id:)) }
                await complete(items)
                return items.map(describe)
            }
        }
        return whole(ids.compactMap { UInt32($0).flatMap(index.item(id:)) }).map { $0.map { self.describe($0) } }
    }

    /// `items`, once memory holds what their rows show: at once when it does; else after the
    /// disk, then the network within ``completionDeadline``.
    func whole(_ items: [PokemonIndex.Item]) -> Answer<[PokemonIndex.Item]> {
        if items.allSatisfy(isWhole) { return .now(items) }
        return .later { [self] in
            await complete(items)
            return items
        }
    }

    /// Brings what the rows of `items` show into memory: from the disk, then what is still
    /// missing from the network, waiting at most ``completionDeadline``. The fetches are the
    /// service's background work, so they go on past the deadline and the next ask finds them;
    /// after the rows, the rest of each card, for the click that may follow.
    func complete(_ items: [PokemonIndex.Item]) async {
        bringFromDisk(items)
        let missing = items.filter { !isWhole($0) }
        guard !missing.isEmpty else { return }
        let done = Once<Void>()
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            done.set(c)
            let started = background.run(.userInitiated) { [self] in
                await withTaskGroup(of: Void.self) { group in
                    for item in missing { group.addTask { await self.loadRow(item) } }
                }
                done.resume()
                await withTaskGroup(of: Void.self) { group in
                    for item in missing { group.addTask { await self.loadCard(item) } }
                }
            }
            guard started else { return done.resume() }
            background.run(.utility) { [clock] in
                try? await clock.sleep(seconds: Self.completionDeadline)
                done.resume()
            }
        }
    }

    /// Loads what a row of `item` shows from whichever tier has it, each part asked as soon as
    /// it can be, so a slow network costs one request's time, not a chain of them: the record,
    /// and beside it what the bundled table tells of it: its species' record, its sprite (the
    /// URL guessed) and, for a form, its species' sprite, which stands in where the API draws
    /// none of the form. Then what only the record names: outside English a form the table does
    /// not name, and the species and its sprite of a Pokémon the table does not know. A person
    /// waits, but the row is answered without what fails.
    private func loadRow(_ item: PokemonIndex.Item) async {
        await withPriority(.optional) {
            let species = BundledNames.entry(item.id, apiName: item.name)?.species
            let speciesItem = species.flatMap { $0 == item.id ? nil : catalog.cachedIndex?.item(id: $0) }
            async let sprite: Void = ensureSprite(item)
            async let speciesSprite: Void = ensureSprite(speciesItem)
            async let speciesRecord: Void = loadSpecies(species)
            guard let record = try? await records.pokemon(item) else { return }
            async let form: Void = loadFormNames(record)
            let ownSpecies = await records.species(for: record)
            if record.spriteURL == nil, species == nil,
               let s = catalog.cachedIndex?.item(id: Self.pokedexNumber(item, species: ownSpecies)), s.id != item.id {
                await ensureSprite(s)
            }
            _ = await (sprite, speciesSprite, speciesRecord, form)
        }
    }

    private func ensureSprite(_ item: PokemonIndex.Item?) async {
        if let item { _ = try? await rows.sprites.ensure(item) }
    }

    private func loadSpecies(_ id: UInt32?) async {
        if let id { _ = await records.species(id) }
    }

    /// Outside English, the names of a form the bundled table does not name.
    private func loadFormNames(_ record: PokemonRecord) async {
        guard language != "en", terms.lacksFormNames(record) else { return }
        _ = await terms.form(of: record)
    }

    /// Loads the rest of `item`'s card (its family, its names), for a click on its row: as
    /// pre-warming, behind every row a shell is waiting for (a card is a dozen requests, and the
    /// next keystroke's rows must not queue behind them).
    private func loadCard(_ item: PokemonIndex.Item) async {
        let language = language == "en" ? nil : language
        await withPriority(.prefetch) { _ = try? await details.load(item, language: language) }
    }

    /// Brings what ``describe(_:)`` reads into memory from the disk (never the network): the
    /// record, the species, the sprite's state and, outside English, the names of its terms.
    func bringFromDisk(_ items: [PokemonIndex.Item]) {
        for item in items {
            _ = rows.checkingDisk(item)
            guard let record = records.pokemonOnHand(item.id) else { continue }
            let species = records.speciesOnHand(for: record)
            if record.spriteURL == nil { _ = rows.sprites.pathCheckingDisk(Self.pokedexNumber(item, species: species)) }
            if language != "en" { terms.bringFromDisk(record) }
        }
    }

    /// The pixels of a result's sprite, for KRunner (``DesktopIcons``).
    public func icon(_ r: DesktopResult) -> RGBAImage? { icons.icon(at: r.spritePath) }
}
