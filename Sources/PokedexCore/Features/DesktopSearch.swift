import FoundationEssentials
import PokedexLocks
import PokedexNetwork

/// What the desktop's search providers ask (GNOME Shell's overview, KRunner): the Pokémon for
/// the words typed, narrowed as typing goes on, described from memory. It answers within a
/// keystroke: from the search index in memory, with what memory knows of each Pokémon; what is
/// not known yet (a genus, a sprite) is fetched in the background for the next keystroke.
final class DesktopSearch: Sendable {
    /// Results a provider gets for one set of terms.
    public static let maxResults: UInt32 = 20
    /// Bytes of decoded sprites kept for KRunner's icons, cropped to what is drawn (10–20 KB
    /// each: about 256 of them).
    static let iconCacheBytes = 4 << 20

    private let search: SearchEngine
    private let catalog: Catalog
    private let records: Records
    private let rows: Rows
    private let details: Details
    private let decoder: (any ImageDecoder)?
    private let icons = Mutex(LRUCache<UInt32, RGBAImage>(capacity: iconCacheBytes))
    private let warming = Mutex<Set<UInt32>>([])
    /// Sprites refused as KRunner icons, by path, with the file's size and mtime then: not read
    /// again on every `Match` until the file changes.
    private let refusedIcons = Mutex<[String: IconFile]>([:])
    struct IconFile: Equatable {
        let size: Int
        let mtime: Double
    }
    /// The most pixels a KRunner icon is decoded from, checked in the PNG's header before
    /// anything is decoded: the largest still sprite the cache keeps (512×512).
    static let maxIconPixels = SpriteKind.maxPNGSide * SpriteKind.maxPNGSide

    /// The language of the names results show (a PokeAPI code).
    private let language: String
    private let terms: Terms
    private let background: BackgroundWork

    init(search: SearchEngine, catalog: Catalog, records: Records, rows: Rows, details: Details, terms: Terms,
         decoder: (any ImageDecoder)?, background: BackgroundWork, language: String = "en") {
        self.background = background
        self.language = language
        self.terms = terms
        self.search = search
        self.catalog = catalog
        self.records = records
        self.rows = rows
        self.details = details
        self.decoder = decoder
    }

    // MARK: Results

    /// A result's place: the Pokémon, whether its name or number matched whole, and a
    /// relevance that falls with the rank (an exact match is 1).
    public struct Ranked: Sendable {
        public let item: PokemonIndex.Item
        public let exact: Bool
        public let relevance: Double
    }

    /// The Pokémon every term matches, best first, at most ``maxResults``; with `within`, only
    /// those (a subsearch narrows) and their relatives (``ranked(_:within:)``). The terms
    /// together may be a number as people write it (`No.` `25`); each term alone is matched as
    /// `Search` matches a query. Nothing is described here: the shells ask for the few they
    /// show (``metas(_:)``).
    public func results(_ terms: [String], within allowed: Set<UInt32>? = nil) -> Answer<[Ranked]> {
        let terms = terms.map { String($0.trimmingWhitespace()) }.filter { !$0.isEmpty }
        guard !terms.isEmpty else { return .now([]) }
        let queries = Self.queries(terms)
        let fromMemory = queries.compactMap { search.searchFromMemory($0, limit: PokedexService.maxLimit) }
        if fromMemory.count == queries.count {
            return .now(Self.ranked(Self.intersect(fromMemory, relatives: Self.relatives(search.builtIndex)), within: allowed))
        }
        return .later { [search] () throws(PokedexError) in
            var hits: [[SearchHit]] = []
            for q in queries { hits.append(try await search.search(q, limit: PokedexService.maxLimit)) }
            return Self.ranked(Self.intersect(hits, relatives: Self.relatives(search.builtIndex)), within: allowed)
        }
    }

    /// One query per term, or a single number query when the terms together are a number.
    static func queries(_ terms: [String]) -> [SearchQuery] {
        if let n = PokedexNumber.parse(terms.joined(separator: " ")) { return [SearchQuery(parsing: String(n))] }
        return terms.prefix(8).map { SearchQuery(parsing: $0) }
    }

    /// The first term's hits that every other term also found, ordered by how well the worst
    /// of the terms matched, then in the first term's order: "char izard" puts Charizard (both
    /// in its name) before Charmeleon (whose romaji name "Lizardo" holds "izard"). A term with
    /// exact, prefix or substring hits counts only those: a typo-tolerant match is for a term
    /// that found nothing else ("mon13" must not keep "mon1" and "mon3").
    static func intersect(_ hits: [[SearchHit]], relatives: Relatives = { _ in [] }) -> [SearchHit] {
        let rank = { (h: SearchHit) in MatchKind.rank(h.match, localized: !h.language.isEmpty) }
        // One term: species before forms ("pika": Pikachu, then Pikachu's costumes after the
        // other species).
        if hits.count == 1 { return firstScreen(hits[0], rank: rank, relatives: relatives) }
        let hits = hits.map { h in
            let precise = h.filter(isPrecise)
            return precise.isEmpty ? h : precise
        }
        guard let first = hits.first else { return [] }
        // Each other term's best rank for each Pokémon it found.
        let others: [[UInt32: Int]] = hits.dropFirst().map { term in
            var best: [UInt32: Int] = [:]
            for h in term { best[h.item.id] = min(best[h.item.id] ?? .max, rank(h)) }
            return best
        }
        let kept = first.enumerated().compactMap { position, h -> (hit: SearchHit, worst: Int, position: Int)? in
            var worst = rank(h)
            for term in others {
                guard let r = term[h.item.id] else { return nil }
                worst = max(worst, r)
            }
            return (h, worst, position)
        }
        return kept.sorted { ($0.worst, isForm($0.hit), $0.position) < ($1.worst, isForm($1.hit), $1.position) }.map(\.hit)
    }

    /// The rows a shell shows of a provider before "more": GNOME Shell's five.
    static let firstScreenRows = 5

    /// A species' evolution family, but itself (``SearchIndex/relatives(of:)``).
    typealias Relatives = (PokemonIndex.Item) -> [PokemonIndex.Item]

    static func relatives(_ index: SearchIndex?) -> Relatives { index.map { i in { i.relatives(of: $0) } } ?? { _ in [] } }

    /// One term's hits for the desktop: every species the query finds, in the index's order,
    /// then, to fill the first screen, names that start almost alike and the family of those
    /// found, then the forms ("pika": Pikachu and Tadbulb, whose Japanese name is ズピカ, then
    /// Pikipek, then Raichu and Pichu, then Pikachu's costumes). A query that names only forms
    /// ("alola") gets those; one that found nothing as typed, its typos.
    static func firstScreen(_ hits: [SearchHit], rank: (SearchHit) -> Int, relatives: Relatives = { _ in [] }) -> [SearchHit] {
        let precise = hits.filter(isPrecise)
        let ordered = (precise.isEmpty ? hits : precise).enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
        let species = ordered.filter { isForm($0) == 0 }
        let fill = precise.isEmpty ? [] : fillFirstScreen(hits, after: species, rank: rank, relatives: relatives)
        return species + fill + ordered.filter { isForm($0) == 1 }
    }

    /// Different Pokémon, not a wall of one Pikachu's costumes: when the query names no
    /// Pokémon whole and found fewer species than the first screen shows, the species whose
    /// API name starts almost as the query does (Pikipek for "pika"), then the evolution
    /// family of those whose API name holds it (Raichu, Pichu), up to the first screen.
    static func fillFirstScreen(_ hits: [SearchHit], after species: [SearchHit], rank: (SearchHit) -> Int,
                                relatives: Relatives) -> [SearchHit] {
        guard !species.isEmpty, species.count < firstScreenRows, !species.contains(where: { rank($0) == 0 }) else { return [] }
        var seen = Set(species.map(\.item.id))
        var out: [SearchHit] = []
        for h in hits where h.match == .fuzzy && isForm(h) == 0 && seen.insert(h.item.id).inserted { out.append(h) }
        for h in species where h.language.isEmpty {
            for r in relatives(h.item) where seen.insert(r.id).inserted {
                out.append(SearchHit(item: r, match: .related, matched: h.matched, language: "", distance: 0, relativeOf: h.item.id))
            }
        }
        return Array(out.prefix(firstScreenRows - species.count))
    }

    /// Found as typed (whole, by its start, or inside a name), not with typos.
    static func isPrecise(_ h: SearchHit) -> Bool { h.distance == 0 && h.match != .fuzzy }

    /// 1 for an alternate form, 0 for a species' default: what orders species first.
    static func isForm(_ h: SearchHit) -> Int { PokemonID.isDefaultForm(h.item.id) ? 0 : 1 }

    /// The hits within `allowed`, then the first ``maxResults``: relevance falls with the rank.
    /// A relative stays, though the previous term did not find it, beside the Pokémon it is a
    /// relative of: "pika" typed one letter at a time shows Raichu and Pichu as "pika" pasted
    /// does, though "pik" found enough without them.
    static func ranked(_ hits: [SearchHit], within allowed: Set<UInt32>?) -> [Ranked] {
        var kept = hits
        if let allowed {
            let found = Set(hits.lazy.filter { $0.match != .related && allowed.contains($0.item.id) }.map(\.item.id))
            kept = hits.filter { h in
                h.match == .related ? found.contains(h.relativeOf ?? 0) || allowed.contains(h.item.id) : found.contains(h.item.id)
            }
        }
        return kept.prefix(Int(maxResults)).enumerated().map { rank, hit in
            let exact = hit.match == .exact
            return Ranked(item: hit.item, exact: exact, relevance: exact ? 1 : max(0.1, 0.9 - Double(rank) * 0.04))
        }
    }

    /// A ranked result, described (``describe(_:)``) with its rank's relevance.
    public func describe(_ r: Ranked) -> DesktopResult {
        var d = describe(r.item)
        d.exact = r.exact
        d.relevance = r.relevance
        return d
    }

    // MARK: Metas

    /// The ids that are Pokémon, described from memory; the rest are left out.
    public func metas(_ ids: [String]) -> Answer<[DesktopResult]> {
        guard let index = catalog.cachedIndex else {
            return .later { [self] () throws(PokedexError) in
                let index = try await catalog.index()
                let items = ids.compactMap { UInt32($0).flatMap(index.item(id:)) }
                bringFromDisk(items)
                return items.map(describe)
            }
        }
        return .now(ids.compactMap { UInt32($0).flatMap(index.item(id:)).map(describe) })
    }

    /// Brings what ``describe(_:)`` reads into memory from the disk (never the network): the
    /// record, the species, the sprite's state and, outside English, the names of its terms.
    /// The deferred paths call it first, so they answer what the inline path would.
    func bringFromDisk(_ items: [PokemonIndex.Item]) {
        for item in items {
            _ = rows.checkingDisk(item)
            guard let record = records.pokemonOnHand(item.id) else { continue }
            _ = records.speciesOnHand(for: record)
            if language != "en" { terms.bringFromDisk(record) }
        }
    }

    /// `#025 · Electric · Mouse Pokémon`, the display name, the sprite if cached. What memory
    /// lacks is fetched in the background, once.
    func describe(_ item: PokemonIndex.Item) -> DesktopResult {
        let row = rows.fromMemory(item)
        let record = records.cachedPokemon(item.id)
        let species: SpeciesRecord? = record.flatMap { records.cachedSpecies(for: $0) ?? nil }
        // Outside English, every name of the record from memory, once: what is missing is warmed.
        let localized = language == "en" ? nil : record.flatMap { terms.localizeFromMemory($0, language: language) }
        let types = record.map { r in (localized?.types ?? r.types.map { terms.cachedName(.type, $0, language: language) }).joined(separator: " / ") }
        if record == nil || species == nil || row.spritePath.isEmpty || (language != "en" && localized == nil) { warm(item) }
        let name = DistinctNames.name(DisplayNames.name(id: item.id, apiName: item.name, species: species,
                                                        form: localized?.form ?? record.flatMap(terms.cachedForm), language: language),
                                      id: item.id, apiName: item.name, language: language)
        let number = Self.pokedexNumber(item, species: species), genus = species?.genus(in: language)
        return DesktopResult(id: item.id, name: name, description: Self.subtext(number: number, types: types, genus: genus),
                             brief: Self.subtext(number: number, types: types, genus: genus, within: Self.briefLength),
                             spritePath: row.spritePath, favorite: row.favorite)
    }

    /// The most characters of a result's subtext: what GNOME's row shows.
    static let subtextLength = 32
    /// The most characters of KRunner's subtext: its column beside a name shows about 20
    /// ("#025 · Electric · Mouse Pokémon" became "#025 · Ele…se Pokémon" in Plasma 5.27).
    static let briefLength = 20

    /// `#025 · Electric / Flying · Mouse Pokémon`, in that order, what tells rows apart first:
    /// the number, the types, then the genus only where it fits within `limit` characters.
    static func subtext(number: UInt32, types: String?, genus: String?, within limit: Int = subtextLength) -> String {
        var text = PokemonID.display(number)
        for part in [types, genus] {
            guard let part, !part.isEmpty else { continue }
            let longer = text + " · " + part
            if longer.count <= limit { text = longer } else { break }
        }
        return text
    }

    /// The Pokédex number a result shows: a form's is its species' (Pikachu Rock Star is #025,
    /// not #10080), from its species record, else the bundled table's row for it.
    static func pokedexNumber(_ item: PokemonIndex.Item, species: SpeciesRecord?) -> UInt32 {
        guard !PokemonID.isDefaultForm(item.id) else { return item.id }
        return species?.id ?? BundledNames.entry(item.id, apiName: item.name)?.species ?? item.id
    }

    /// Loads the detail (record, species, sprite) in the background, once at a time per Pokémon.
    private func warm(_ item: PokemonIndex.Item) {
        guard warming.withLock({ $0.count < 256 && $0.insert(item.id).inserted }) else { return }
        let started = background.run(.utility) { [self] in
            // In the service's language, other than English: the names of its types come with it.
            let language = language == "en" ? nil : language
            _ = try? await withPriority(.background) { () async throws(PokedexError) in try await details.load(item, language: language) }
            _ = warming.withLock { $0.remove(item.id) }
        }
        if !started { _ = warming.withLock { $0.remove(item.id) } }
    }

    // MARK: Icons

    /// `image` cut to the smallest rectangle holding every pixel with any alpha; nil when none has.
    static func cropped(_ image: RGBAImage) -> RGBAImage? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixels[(y * image.width + x) * 4 + 3] > 0 {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        if minX == 0, minY == 0, maxX == image.width - 1, maxY == image.height - 1 { return image }
        let w = maxX - minX + 1, h = maxY - minY + 1
        var pixels = [UInt8]()
        pixels.reserveCapacity(w * h * 4)
        for y in minY...maxY {
            let start = (y * image.width + minX) * 4
            pixels += image.pixels[start..<(start + w * 4)]
        }
        return RGBAImage(width: w, height: h, pixels: pixels)
    }

    /// The sprite's pixels for KRunner, when it is cached; decoded once and kept. A sprite
    /// over ``maxIconPixels`` (from its header) or that does not decode is refused, and the
    /// refusal remembered until the file changes: `Match` never decodes it again.
    public func icon(_ r: DesktopResult) -> RGBAImage? {
        guard !r.spritePath.isEmpty, let decoder else { return nil }
        if let known = icons.withLock({ $0.value(for: r.id) }) { return known }
        let path = r.spritePath
        let file = FileIO.fileInfo(path).map { IconFile(size: $0.size, mtime: $0.mtime) }
        if let file, refusedIcons.withLock({ $0[path] }) == file { return nil }
        guard let bytes = FileIO.readFile(path, maxBytes: BodyKind.png.maxBytes), let size = PNGCheck.dimensions(bytes),
              size.width > 0, size.height > 0, size.width <= Self.maxIconPixels / size.height,
              let decoded = decoder.decode(bytes), decoded.width * decoded.height <= Self.maxIconPixels,
              let image = Self.cropped(decoded) else {
            if let file {
                refusedIcons.withLock { refused in
                    if refused.count >= 1024 { refused.removeAll() }  // bounded
                    refused[path] = file
                }
            }
            return nil
        }
        icons.withLock { $0.set(image, for: r.id, cost: image.pixels.count) }
        return image
    }
}

