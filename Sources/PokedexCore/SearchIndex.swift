#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

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
                generation = Int(value) ?? Self.roman[value.replacing("generation-", with: "")]
                if generation == nil { generation = -1 }  // unknown: matches nothing
            } else {
                words.append(String(token))
            }
        }
        // A number as people write it (`#025`, `No. 25`, `N°25`, `２５`) is the number.
        let joined = words.joined(separator: " ")
        text = PokedexNumber.parse(joined).map(String.init) ?? TextFolding.fold(joined)
    }

    static let roman = ["i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9]
    public var hasFilters: Bool { !types.isEmpty || generation != nil }
}

/// Every Pokémon's names (the API's and the localized ones), folded for matching, with
/// their types and generations for filters. Built off the bus thread; searched in well
/// under a millisecond.
public struct SearchIndex: Sendable {
    /// One searchable name. Its folded bytes, typo keys and letter masks live in the flat
    /// arrays below, so a search walks plain memory with no reference counting per name.
    struct Key: Sendable {
        var position: Int32      // in `items`
        var text: String         // as written
        var language: String     // "" for the API name
    }

    let items: [PokemonIndex.Item]
    let keys: [Key]
    let byID: [UInt32: Int]
    /// position in `items` → its API name's key (-1 if the name folds to nothing).
    let apiKey: [Int32]
    // Flat storage, one range per key.
    let folded: [UInt8]; let foldedRange: [Range<Int32>]
    let compact: [UInt32]; let compactRange: [Range<Int32>]      // empty range: not Latin
    let phonetic: [UInt32]; let phoneticRange: [Range<Int32>]
    let mask: [UInt64]; let phoneticMask: [UInt64]
    let prefixMask: [UInt64]   // 16 per key: letters in the first n+1 of `compact`
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
        var keys: [Key] = [], byID: [UInt32: Int] = [:], apiKey: [Int32] = []
        var folded: [UInt8] = [], foldedRange: [Range<Int32>] = []
        var compact: [UInt32] = [], compactRange: [Range<Int32>] = []
        var phonetic: [UInt32] = [], phoneticRange: [Range<Int32>] = []
        var mask: [UInt64] = [], phoneticMask: [UInt64] = [], prefixMask: [UInt64] = []
        func append<T>(_ values: [T], to store: inout [T]) -> Range<Int32> {
            let start = Int32(store.count)
            store.append(contentsOf: values)
            return start..<Int32(store.count)
        }
        for (position, item) in items.enumerated() {
            byID[item.id] = position
            var seen: Set<String> = []
            func add(_ text: String, _ language: String) {
                let f = TextFolding.fold(text)
                guard !f.isEmpty, seen.insert(f).inserted else { return }
                let c = TextFolding.compact(f)
                let latin = TextFolding.isLatin(c)
                let p = latin ? TextFolding.phonetic(c) : []
                keys.append(Key(position: Int32(position), text: text, language: language))
                foldedRange.append(append(Array(f.utf8), to: &folded))
                folded.append(0)  // no match runs across two names
                compactRange.append(append(latin ? c : [], to: &compact))
                phoneticRange.append(append(p, to: &phonetic))
                mask.append(TextFolding.letterMask(c))
                phoneticMask.append(TextFolding.letterMask(p))
                var m: UInt64 = 0
                for i in 0..<16 {
                    if i < c.count { m |= TextFolding.letterMask([c[i]]) }
                    prefixMask.append(m)
                }
            }
            let before = keys.count
            add(item.name, "")
            apiKey.append(keys.count > before ? Int32(before) : -1)
            for (language, name) in (localized[item.id] ?? [:]).sorted(by: { $0.key < $1.key }) where language != "en" || name.lowercased() != item.name {
                add(name, language)
            }
        }
        self.keys = keys
        self.byID = byID
        self.apiKey = apiKey
        self.folded = folded; self.foldedRange = foldedRange
        self.compact = compact; self.compactRange = compactRange
        self.phonetic = phonetic; self.phoneticRange = phoneticRange
        self.mask = mask; self.phoneticMask = phoneticMask; self.prefixMask = prefixMask
        typeMembers = types
        generationMembers = generations
        localizedSpecies = localized.count
    }

    /// Every API name, in the API's order.
    public var names: [String] { items.map(\.name) }

    /// Approximate bytes the index holds.
    public var memoryBytes: Int {
        keys.reduce(0) { $0 + 48 + $1.text.utf8.count } + folded.count + (compact.count + phonetic.count) * 4
            + (foldedRange.count * 3) * 8 + (mask.count * 2 + prefixMask.count) * 8 + items.count * 32
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
        // Per item: the best (score, key, kind, distance) so far.
        var best: [Int32: (score: (Int, Int, Int, Int, Int32), key: Int, kind: MatchKind, distance: Int)] = [:]
        func offer(_ k: Int, _ kind: MatchKind, _ distance: Int) {
            let position = keys[k].position
            let item = items[Int(position)]
            if let allowedIDs, !allowedIDs.contains(item.id) { return }
            let localized = !keys[k].language.isEmpty
            let score = (MatchKind.rank(kind, localized: localized), distance, localized ? 1 : 0, PokemonID.isDefaultForm(item.id) ? 0 : 1, position)
            if let old = best[position], old.score <= score { return }
            best[position] = (score, k, kind, distance)
        }
        if let number = UInt32(query.text), let position = byID[number], apiKey[position] >= 0 {
            offer(Int(apiKey[position]), .exact, 0)
        }
        folded.withUnsafeBufferPointer { fb in
            q.withUnsafeBufferPointer { qb in
                // First the API names' exact and prefix matches: when they fill the list,
                // nothing ranked lower can enter it ("m", "pi", "char" stop here).
                for k in 0..<keys.count where keys[k].language.isEmpty {
                    let r = foldedRange[k]
                    guard Int(r.count) >= qb.count else { continue }
                    if memcmp(fb.baseAddress! + Int(r.lowerBound), qb.baseAddress!, qb.count) == 0 {
                        offer(k, Int(r.count) == qb.count ? .exact : .prefix, 0)
                    }
                }
                if best.count >= limit { return }
                // Then every occurrence anywhere, in one sweep over all names: memchr jumps to
                // each place the first byte occurs, memcmp checks the rest.
                let dash = UInt8(ascii: "-")
                let base = fb.baseAddress!
                var from = 0
                while from + qb.count <= fb.count, let hit = memchr(base + from, Int32(qb[0]), fb.count - from - qb.count + 1) {
                    let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    from = at + 1
                    guard memcmp(base + at, qb.baseAddress!, qb.count) == 0 else { continue }
                    let k = keyAt(byteOffset: at)
                    let start = Int(foldedRange[k].lowerBound)
                    if at == start {
                        offer(k, Int(foldedRange[k].count) == qb.count ? .exact : .prefix, 0)
                    } else {
                        offer(k, fb[at - 1] == dash ? .word : .substring, 0)
                    }
                }
            }
        }
        let compactQuery = TextFolding.compact(query.text)
        // Typos are allowed by the letters typed, each run once: ten z's are one letter.
        let allowed = EditDistance.allowed(forLength: TextFolding.deduplicated(compactQuery).count)
        if best.count < limit, allowed > 0, TextFolding.isLatin(compactQuery) {
            fuzzy(compactQuery, allowed: allowed, offer)
        }
        return best.values.sorted { $0.score < $1.score }.prefix(limit).map { b in
            let key = keys[b.key]
            return SearchHit(item: items[Int(key.position)], match: key.language.isEmpty ? b.kind : .localized,
                             matched: key.text, language: key.language, distance: b.distance)
        }
    }

    /// Typo-tolerant matching over the Latin names: edit distance, then sound-alike, then a
    /// typo in the first letters of a longer name. A letter-set bound skips most names.
    private func fuzzy(_ query: [UInt32], allowed: Int, _ offer: (Int, MatchKind, Int) -> Void) {
        var scratch: [Int] = []
        let qMask = TextFolding.letterMask(query)
        let phoneticQuery = TextFolding.phonetic(query)
        let pMask = TextFolding.letterMask(phoneticQuery)
        let n = query.count
        // Sound-alike keys collapse ("ouououou" is "u", "zszszs" is "s"): their typos are
        // allowed by the key's own length, not by what was typed.
        let phoneticAllowed = min(allowed, EditDistance.allowed(forLength: phoneticQuery.count))
        let typed = TextFolding.deduplicated(query).count
        compact.withUnsafeBufferPointer { cb in
            phonetic.withUnsafeBufferPointer { pb in
                query.withUnsafeBufferPointer { qb in
                    phoneticQuery.withUnsafeBufferPointer { pqb in
                        for k in 0..<keys.count {
                            let cr = compactRange[k]
                            if cr.isEmpty { continue }
                            let c = UnsafeBufferPointer(rebasing: cb[Int(cr.lowerBound)..<Int(cr.upperBound)])
                            // People rarely miss a name's first letter: it must match the query's
                            // first (or second: a swap, a dropped letter), or sound like it.
                            let pr0 = phoneticRange[k]
                            if c[0] != qb[0] && (c.count < 2 || c[1] != qb[0]) && (n < 2 || c[0] != qb[1])
                                && (pr0.isEmpty || pqb.isEmpty || pb[Int(pr0.lowerBound)] != pqb[0]) { continue }
                            let km = mask[k]
                            // A length gap, or each letter one side has and the other lacks, costs an edit.
                            if abs(c.count - n) <= allowed,
                               max((qMask & ~km).nonzeroBitCount, (km & ~qMask).nonzeroBitCount) <= allowed,
                               let d = EditDistance.distance(qb, c, limit: allowed, scratch: &scratch),
                               EditDistance.similarEnough(d, typed, c.count) {
                                offer(k, .fuzzy, d)
                                continue
                            }
                            // Sounds alike ("geodood", "quacksly"): one more than the sound distance.
                            let pm = phoneticMask[k], pr = phoneticRange[k]
                            if phoneticAllowed > 0, abs(Int(pr.count) - phoneticQuery.count) < phoneticAllowed,
                               (pMask & ~pm).nonzeroBitCount < phoneticAllowed, (pm & ~pMask).nonzeroBitCount < phoneticAllowed {
                                let p = UnsafeBufferPointer(rebasing: pb[Int(pr.lowerBound)..<Int(pr.upperBound)])
                                if let d = EditDistance.distance(pqb, p, limit: phoneticAllowed - 1, scratch: &scratch),
                                   EditDistance.similarEnough(d + 1, phoneticQuery.count, p.count) {
                                    offer(k, .fuzzy, d + 1)
                                    continue
                                }
                            }
                            // A typo in the first letters of a longer name, as typed in a search box.
                            if n >= 4, n <= 16, c.count > n + allowed, (qMask & ~prefixMask[k * 16 + n - 1]).nonzeroBitCount < allowed,
                               let d = EditDistance.distance(qb, UnsafeBufferPointer(rebasing: c[0..<n]), limit: allowed - 1, scratch: &scratch),
                               EditDistance.similarEnough(d + 1, typed, n) {
                                offer(k, .fuzzy, d + 1)
                            }
                        }
                    }
                }
            }
        }
    }

    /// The key whose folded bytes contain `offset` (binary search over the ranges).
    private func keyAt(byteOffset offset: Int) -> Int {
        var lo = 0, hi = foldedRange.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if Int(foldedRange[mid].lowerBound) <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The single best guess for a name that does not exist, for "did you mean".
    public func suggestion(for text: String) -> String? {
        search(SearchQuery(parsing: text), limit: 1).first.map(\.item.name)
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
}

extension SearchIndex {
    /// The index as the service would build it from a disk tier: the list, every species
    /// record there, and the filters. Nil when the list is not cached. (Benchmarks, tools.)
    public static func load(from store: any CacheStore) -> SearchIndex? {
        guard let stored = store.readRecord(APIRoutes.indexKey),
              let index = ResourceKind.index.fromDisk(stored.payload) else { return nil }
        var localized: [UInt32: [String: String]] = [:]
        for item in index.items where PokemonID.isDefaultForm(item.id) {
            if let r = store.readRecord(APIRoutes.speciesKey(item.id)),
               let s = ResourceKind.species.fromDisk(r.payload) { localized[s.id] = s.names }
        }
        let filters = store.readRecord(ResourceLoader.filtersKey).flatMap { try? JSONDecoder().decode(SearchFilters.self, from: Data($0.payload)) }
        return SearchIndex(index: index, localized: localized, types: (filters?.types ?? [:]).mapValues(Set.init),
                           generations: SearchEngine.generationsByPokemon(filters ?? SearchFilters(types: [:], generations: [:]), index: index))
    }
}
