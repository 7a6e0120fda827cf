import Foundation

/// Why a search result matched.
public enum MatchKind: String, Sendable {
    /// The API name or number, whole.
    case exact
    /// The start of the API name.
    case prefix
    /// The start of a word inside a hyphenated API name ("mega" in charizard-mega-x).
    case word
    /// Anywhere inside the API name.
    case substring
    /// The API name, with typos.
    case fuzzy
    /// A name in another language (exactly, by its start, inside, or with typos).
    case localized
    /// Filters alone (type:, gen:), no name given.
    case filter

    /// Exact names (any language) first, then the API name's prefixes and words, then
    /// localized prefixes and words, then substrings, then typos.
    static func rank(_ kind: MatchKind, localized: Bool) -> Int {
        switch (kind, localized) {
        case (.exact, _), (.filter, _): return 0
        case (.prefix, false): return 1
        case (.word, false): return 2
        case (.prefix, true): return 3
        case (.word, true): return 4
        case (.substring, false): return 5
        case (.substring, true): return 6
        default: return 7
        }
    }
}

/// One search result, with the reason and the name that matched.
public struct SearchHit: Equatable, Sendable {
    public var item: PokemonIndex.Item
    public var match: MatchKind
    /// The name that matched, as written (the API name, or a localized name).
    public var matched: String
    /// "" for the API name, else the language code of the localized name that matched.
    public var language: String
    /// Typos (fuzzy matches only).
    public var distance: Int
}

/// A parsed query: text, and `type:` / `gen:` filters.
public struct SearchQuery: Equatable, Sendable {
    public var text: String
    public var types: [String]
    public var generation: Int?

    /// Splits `type:fire type:flying gen:1 char` into filters and text.
    public init(parsing raw: String) {
        var words: [String] = []
        types = []
        generation = nil
        for token in raw.split(whereSeparator: \.isWhitespace) {
            let lower = token.lowercased()
            if lower.hasPrefix("type:") {
                types.append(String(lower.dropFirst(5)))
            } else if lower.hasPrefix("gen:") || lower.hasPrefix("generation:") {
                let value = lower.split(separator: ":", maxSplits: 1).last.map(String.init) ?? ""
                generation = Int(value) ?? Self.roman[value.replacingOccurrences(of: "generation-", with: "")]
                if generation == nil { generation = -1 }  // unknown: matches nothing
            } else {
                words.append(String(token))
            }
        }
        text = TextFolding.fold(words.joined(separator: " "))
    }

    static let roman = ["i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9]
    public var hasFilters: Bool { !types.isEmpty || generation != nil }
}

/// Every Pokémon's names (the API's and the localized ones), folded for matching, with
/// their types and generations for filters. Built off the bus thread; searched in well
/// under a millisecond.
public struct SearchIndex: Sendable {
    struct Key: Sendable {
        var position: Int        // in `items`
        var text: String         // as written
        var language: String     // "" for the API name
        var folded: [UInt8]      // folded, UTF-8
        var compact: [UInt32]    // folded without hyphens, for typo distance (Latin only)
        var phonetic: [UInt32] = []
        var mask: UInt64 = 0     // letters in `compact`
        var phoneticMask: UInt64 = 0
        var prefixMasks: [UInt64] = []  // letters in the first n+1 of `compact`, n < 16
    }

    let items: [PokemonIndex.Item]
    let keys: [Key]
    let byID: [UInt32: Int]
    /// type name → ids.
    let typeMembers: [String: Set<UInt32>]
    /// generation number → ids.
    let generationMembers: [Int: Set<UInt32>]
    /// How many species have their localized names in the index.
    public let localizedSpecies: Int

    /// - Parameters:
    ///   - localized: species id → language → name. A species' names go to the Pokémon
    ///     whose id is the species id (its default form).
    ///   - types: type name → Pokémon ids. generations: number → Pokémon ids.
    public init(index: PokemonIndex, localized: [UInt32: [String: String]] = [:],
                types: [String: Set<UInt32>] = [:], generations: [Int: Set<UInt32>] = [:]) {
        items = index.items
        var keys: [Key] = []
        keys.reserveCapacity(items.count * 3)
        var byID: [UInt32: Int] = [:]
        for (position, item) in items.enumerated() {
            byID[item.id] = position
            var seen: Set<String> = []
            func add(_ text: String, _ language: String) {
                let folded = TextFolding.fold(text)
                guard !folded.isEmpty, seen.insert(folded).inserted else { return }
                let compact = TextFolding.compact(folded)
                var key = Key(position: position, text: text, language: language, folded: Array(folded.utf8),
                              compact: TextFolding.isLatin(compact) ? compact : [])
                if !key.compact.isEmpty {
                    key.phonetic = TextFolding.phonetic(key.compact)
                    key.mask = TextFolding.letterMask(key.compact)
                    key.phoneticMask = TextFolding.letterMask(key.phonetic)
                    var m: UInt64 = 0
                    for u in key.compact.prefix(16) { m |= TextFolding.letterMask([u]); key.prefixMasks.append(m) }
                }
                keys.append(key)
            }
            add(item.name, "")
            for (language, name) in (localized[item.id] ?? [:]).sorted(by: { $0.key < $1.key }) where language != "en" || name.lowercased() != item.name {
                add(name, language)
            }
        }
        self.keys = keys
        self.byID = byID
        typeMembers = types
        generationMembers = generations
        localizedSpecies = localized.count
    }

    /// Every API name, in the API's order.
    public var names: [String] { items.map(\.name) }

    /// Approximate bytes the index holds.
    public var memoryBytes: Int {
        keys.reduce(0) { $0 + 64 + $1.text.utf8.count + $1.folded.count + $1.compact.count * 4 } + items.count * 32
    }

    /// Best first: exact (number or name, any language), name prefix, word prefix inside a
    /// hyphenated name, substring, then typo-tolerant (see ``MatchKind/rank(_:localized:)``);
    /// within a rank, fewer typos, the API name before a localized one, default forms
    /// before other forms, then the API's order.
    public func search(_ query: SearchQuery, limit: Int) -> [SearchHit] {
        let allowedIDs = filterIDs(query)
        let q = Array(query.text.utf8)
        if q.isEmpty {
            guard let allowedIDs else { return [] }
            return items.lazy.filter { allowedIDs.contains($0.id) }.prefix(limit)
                .map { SearchHit(item: $0, match: .filter, matched: $0.name, language: "", distance: 0) }
        }
        var best: [Int: (hit: SearchHit, score: (Int, Int, Int, Int, Int))] = [:]
        func offer(_ key: Key, _ kind: MatchKind, _ distance: Int) {
            let item = items[key.position]
            if let allowedIDs, !allowedIDs.contains(item.id) { return }
            let localized = !key.language.isEmpty
            let score = (MatchKind.rank(kind, localized: localized), distance, localized ? 1 : 0, item.id > 10_000 ? 1 : 0, key.position)
            if let old = best[key.position], old.score <= score { return }
            let hit = SearchHit(item: item, match: localized ? .localized : kind, matched: key.text, language: key.language, distance: distance)
            best[key.position] = (hit, score)
        }
        if let number = UInt32(query.text), let position = byID[number] {
            offer(Key(position: position, text: items[position].name, language: "", folded: [], compact: []), .exact, 0)
        }
        for key in keys {
            let f = key.folded
            if f.count < q.count { continue }
            if f == q { offer(key, .exact, 0) }
            else if f.starts(with: q) { offer(key, .prefix, 0) }
            else if let at = Self.find(q, in: f) {
                offer(key, at > 0 && f[at - 1] == UInt8(ascii: "-") ? .word : .substring, 0)
                if at > 0 && f[at - 1] != UInt8(ascii: "-"), Self.hasWordPrefix(q, in: f) { offer(key, .word, 0) }
            }
        }
        let strong = best.count
        let compactQuery = TextFolding.compact(query.text)
        let allowed = EditDistance.allowed(forLength: compactQuery.count)
        if strong < limit, allowed > 0, TextFolding.isLatin(compactQuery) {
            var scratch: [Int] = []
            let qMask = TextFolding.letterMask(compactQuery)
            let phoneticQuery = TextFolding.phonetic(compactQuery)
            let pMask = TextFolding.letterMask(phoneticQuery)
            let n = compactQuery.count
            for key in keys where !key.compact.isEmpty {
                // Each letter one side has and the other lacks costs at least one edit.
                let missing = (qMask & ~key.mask).nonzeroBitCount, extra = (key.mask & ~qMask).nonzeroBitCount
                if max(missing, extra) <= allowed,
                   let d = EditDistance.distance(compactQuery, key.compact, limit: allowed, scratch: &scratch) {
                    offer(key, .fuzzy, d)
                    continue
                }
                // Sounds alike ("geodood", "quacksly"): one more than the sound distance.
                if (pMask & ~key.phoneticMask).nonzeroBitCount < allowed, (key.phoneticMask & ~pMask).nonzeroBitCount < allowed,
                   let d = EditDistance.distance(phoneticQuery, key.phonetic, limit: allowed - 1, scratch: &scratch) {
                    offer(key, .fuzzy, d + 1)
                    continue
                }
                // A typo in the first letters of a longer name, as typed in a search box.
                if n >= 4, key.compact.count > n + allowed, n <= key.prefixMasks.count,
                   (qMask & ~key.prefixMasks[n - 1]).nonzeroBitCount < allowed,
                   let d = EditDistance.distance(compactQuery, Array(key.compact.prefix(n)), limit: allowed - 1, scratch: &scratch) {
                    offer(key, .fuzzy, d + 1)
                }
            }
        }
        return best.values.sorted { $0.score < $1.score }.prefix(limit).map(\.hit)
    }

    /// The single best guess for a name that does not exist, for "did you mean".
    public func suggestion(for text: String) -> String? {
        let hits = search(SearchQuery(parsing: text), limit: 1)
        return hits.first.map(\.item.name)
    }

    private func filterIDs(_ query: SearchQuery) -> Set<UInt32>? {
        guard query.hasFilters else { return nil }
        var ids: Set<UInt32>?
        for t in query.types {
            let members = typeMembers[t] ?? []
            ids = ids.map { $0.intersection(members) } ?? members
        }
        if let g = query.generation {
            let members = generationMembers[g] ?? []
            ids = ids.map { $0.intersection(members) } ?? members
        }
        return ids ?? []
    }

    /// Position of `needle` in `haystack`, bytewise (UTF-8 keeps scalar boundaries).
    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count, let first = needle.first else { return nil }
        var i = 0
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    static func hasWordPrefix(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        var i = 0
        while let dash = haystack[i...].firstIndex(of: UInt8(ascii: "-")) {
            if haystack[(dash + 1)...].starts(with: needle) { return true }
            i = dash + 1
        }
        return false
    }
}

extension SearchIndex {
    /// The index as the service would build it from a disk tier: the list, every species
    /// record there, and the filters. Nil when the list is not cached. (Benchmarks, tools.)
    public static func load(from store: any CacheStore) -> SearchIndex? {
        guard let stored = store.readRecord(PokedexService.indexKey),
              let index = try? JSONDecoder().decode(PokemonIndex.self, from: Data(stored.payload)) else { return nil }
        var localized: [UInt32: [String: String]] = [:]
        for item in index.items where item.id < 10_000 {
            if let r = store.readRecord(PokedexService.speciesKey(item.id)),
               let s = try? JSONDecoder().decode(SpeciesRecord.self, from: Data(r.payload)) { localized[s.id] = s.names }
        }
        let filters = store.readRecord(ResourceLoader.filtersKey).flatMap { try? JSONDecoder().decode(SearchFilters.self, from: Data($0.payload)) }
        return SearchIndex(index: index, localized: localized, types: (filters?.types ?? [:]).mapValues(Set.init),
                           generations: PokedexService.generationsByPokemon(filters ?? SearchFilters(types: [:], generations: [:]), index: index))
    }
}
