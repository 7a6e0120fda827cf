import Foundation
import PokedexLocks

/// What the desktop's search providers ask (GNOME Shell's overview, KRunner): the Pokémon for
/// the words typed, narrowed as typing goes on, described from memory. It answers within a
/// keystroke: from the search index in memory, with what memory knows of each Pokémon; what is
/// not known yet (a genus, a sprite) is fetched in the background for the next keystroke.
public final class DesktopSearch: Sendable {
    /// Results a provider gets for one set of terms.
    public static let maxResults: UInt32 = 20
    /// Decoded sprites kept for KRunner's icons, cropped to what is drawn (10–20 KB each).
    static let iconCacheSize = 256

    private let search: SearchEngine
    private let catalog: Catalog
    private let records: Records
    private let rows: Rows
    private let details: Details
    private let decoder: (any ImageDecoder)?
    private let store: any CacheStore
    private let icons = Mutex<(images: [UInt32: RGBAImage], order: [UInt32])>(([:], []))
    private let warming = Mutex<Set<UInt32>>([])

    init(search: SearchEngine, catalog: Catalog, records: Records, rows: Rows, details: Details,
         decoder: (any ImageDecoder)?, store: any CacheStore) {
        self.search = search
        self.catalog = catalog
        self.records = records
        self.rows = rows
        self.details = details
        self.decoder = decoder
        self.store = store
    }

    // MARK: Results

    /// The Pokémon every term matches, best first. The terms together may be a number as
    /// people write it (`No.` `25`); each term alone is matched as `Search` matches a query.
    public func results(_ terms: [String]) -> Answer<[DesktopResult]> {
        let terms = terms.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !terms.isEmpty else { return .now([]) }
        let queries = Self.queries(terms)
        let fromMemory = queries.compactMap { search.searchFromMemory($0, limit: PokedexService.maxLimit) }
        if fromMemory.count == queries.count { return .now(describe(Self.intersect(fromMemory))) }
        return .later { [self] () throws(PokedexError) in
            var hits: [[SearchHit]] = []
            for q in queries { hits.append(try await search.search(q, limit: PokedexService.maxLimit)) }
            return describe(Self.intersect(hits))
        }
    }

    /// ``results(_:)`` within `previous` (a subsearch only narrows), in the new order.
    public func narrow(_ previous: [String], _ terms: [String]) -> Answer<[DesktopResult]> {
        let allowed = Set(previous.compactMap(UInt32.init))
        return results(terms).map { $0.filter { allowed.contains($0.id) } }
    }

    /// One query per term, or a single number query when the terms together are a number.
    static func queries(_ terms: [String]) -> [SearchQuery] {
        if let n = PokedexNumber.parse(terms.joined(separator: " ")) { return [SearchQuery(parsing: String(n))] }
        return terms.prefix(8).map { SearchQuery(parsing: $0) }
    }

    /// The first term's hits, in its order, that every other term also found. A term with
    /// exact, prefix or substring hits counts only those: a typo-tolerant match is for a term
    /// that found nothing else ("mon13" must not keep "mon1" and "mon3").
    static func intersect(_ hits: [[SearchHit]]) -> [SearchHit] {
        let hits = hits.map { h in
            let precise = h.filter { $0.distance == 0 && $0.match != .fuzzy }
            return precise.isEmpty ? h : precise
        }
        guard let first = hits.first else { return [] }
        let others = hits.dropFirst().map { Set($0.map(\.item.id)) }
        return first.filter { h in others.allSatisfy { $0.contains(h.item.id) } }
    }

    /// Ranked results: relevance falls with the rank, an exact name or number is 1.
    private func describe(_ hits: [SearchHit]) -> [DesktopResult] {
        hits.prefix(Int(Self.maxResults)).enumerated().map { rank, hit in
            var r = describe(hit.item)
            r.exact = hit.match == .exact
            r.relevance = r.exact ? 1 : max(0.1, 0.9 - Double(rank) * 0.04)
            return r
        }
    }

    // MARK: Metas

    /// The ids that are Pokémon, described from memory; the rest are left out.
    public func metas(_ ids: [String]) -> Answer<[DesktopResult]> {
        guard let index = catalog.cachedIndex else {
            return .later { [self] () throws(PokedexError) in
                let index = try await catalog.index()
                return ids.compactMap { UInt32($0).flatMap(index.item(id:)).map(describe) }
            }
        }
        return .now(ids.compactMap { UInt32($0).flatMap(index.item(id:)).map(describe) })
    }

    /// `#025 · Mouse Pokémon · Electric`, the display name, the sprite if cached. What memory
    /// lacks is fetched in the background, once.
    func describe(_ item: PokemonIndex.Item) -> DesktopResult {
        let row = rows.fromMemory(item)
        let record = records.cachedPokemon(item.id)
        let species: SpeciesRecord? = record.flatMap { records.cachedSpecies(for: $0) ?? nil }
        var parts = ["#" + String(repeating: "0", count: max(0, 3 - String(item.id).count)) + String(item.id)]
        if let genus = species?.genus, !genus.isEmpty { parts.append(genus) }
        if let types = record?.types, !types.isEmpty { parts.append(types.map(PokemonNames.display).joined(separator: " / ")) }
        if record == nil || species == nil || row.spritePath.isEmpty { warm(item) }
        let name = species?.names["en"].flatMap { $0.isEmpty ? nil : $0 } ?? PokemonNames.display(item.name)
        return DesktopResult(id: item.id, name: name, description: parts.joined(separator: " · "),
                             spritePath: row.spritePath, favorite: row.favorite)
    }

    /// Loads the detail (record, species, sprite) in the background, once at a time per Pokémon.
    private func warm(_ item: PokemonIndex.Item) {
        guard warming.withLock({ $0.count < 256 && $0.insert(item.id).inserted }) else { return }
        Task(priority: .utility) { [self] in
            _ = try? await withPriority(.background) { () async throws(PokedexError) in try await details.load(item) }
            _ = warming.withLock { $0.remove(item.id) }
        }
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

    /// The sprite's pixels for KRunner, when it is cached; decoded once and kept.
    public func icon(_ r: DesktopResult) -> RGBAImage? {
        guard !r.spritePath.isEmpty, let decoder else { return nil }
        if let known = icons.withLock({ $0.images[r.id] }) { return known }
        guard let bytes = FileIO.readFile(r.spritePath, maxBytes: BodyKind.png.maxBytes), let decoded = decoder.decode(bytes),
              decoded.width <= 512, decoded.height <= 512, let image = Self.cropped(decoded) else { return nil }
        icons.withLock { c in
            c.images[r.id] = image
            c.order.append(r.id)
            if c.order.count > Self.iconCacheSize { c.images[c.order.removeFirst()] = nil }
        }
        return image
    }
}

