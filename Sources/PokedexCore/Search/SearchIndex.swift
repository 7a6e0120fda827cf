#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

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
    /// What typos are counted in (``ScriptFolding/letters(_:)``: letters, jamo, kana, hanzi);
    /// an empty range for a name in no script typos are counted in.
    let compact: [UInt32]; let compactRange: [Range<Int32>]
    /// Each key's ``ScriptFolding/Script``: a name is compared for typos with queries of its script.
    let scripts: [UInt8]
    let phonetic: [UInt32]; let phoneticRange: [Range<Int32>]
    let mask: [UInt64]; let phoneticMask: [UInt64]
    /// type name → ids.
    let typeMembers: [String: Set<UInt32>]
    /// A type's name in any language, folded (``TextFolding``) → its identifier: `type:feuer`
    /// and `type:ほのお` are `type:fire`.
    let typeNames: [String: String]
    /// generation number → ids.
    let generationMembers: [Int: Set<UInt32>]
    /// How many species have their localized names in the index.
    public let localizedSpecies: Int

    /// - Parameters:
    ///   - localized: Pokémon id → language → name. A species' names go to the Pokémon
    ///     whose id is the species id (its default form); a form's, to the form.
    ///   - types: type name → Pokémon ids. generations: number → Pokémon ids.
    ///   - typeNames: a type's identifier → its names in every language (the filters' `type`
    ///     bodies), so that a filter may name it in any.
    public init(index: PokemonIndex, localized: [UInt32: [String: String]] = [:],
                types: [String: Set<UInt32>] = [:], generations: [Int: Set<UInt32>] = [:],
                typeNames: [String: [String: String]] = [:]) {
        items = index.items
        var keys: [Key] = [], byID: [UInt32: Int] = [:], apiKey: [Int32] = []
        var folded: [UInt8] = [], foldedRange: [Range<Int32>] = []
        var compact: [UInt32] = [], compactRange: [Range<Int32>] = [], scripts: [UInt8] = []
        var phonetic: [UInt32] = [], phoneticRange: [Range<Int32>] = []
        var mask: [UInt64] = [], phoneticMask: [UInt64] = []
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
                let (c, script) = ScriptFolding.letters(TextFolding.compact(f))
                let latin = script == .latin
                let p = latin ? TextFolding.phonetic(c) : []
                keys.append(Key(position: Int32(position), text: text, language: language))
                foldedRange.append(append(Array(f.utf8), to: &folded))
                folded.append(0)  // no match runs across two names
                compactRange.append(append(script == .other ? [] : c, to: &compact))
                scripts.append(script.rawValue)
                phoneticRange.append(append(p, to: &phonetic))
                mask.append(TextFolding.letterMask(c))
                phoneticMask.append(TextFolding.letterMask(p))
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
        self.compact = compact; self.compactRange = compactRange; self.scripts = scripts
        self.phonetic = phonetic; self.phoneticRange = phoneticRange
        self.mask = mask; self.phoneticMask = phoneticMask
        typeMembers = types
        var aliases: [String: String] = [:]
        for (type, names) in typeNames where types[type] != nil {
            for name in names.values { aliases[TextFolding.fold(name), default: type] = type }
        }
        self.typeNames = aliases
        generationMembers = generations
        localizedSpecies = localized.keys.filter(PokemonID.isDefaultForm).count
    }

    /// Every API name, in the API's order.
    public var names: [String] { items.map(\.name) }

    /// Approximate bytes the index holds.
    public var memoryBytes: Int {
        keys.reduce(0) { $0 + 48 + $1.text.utf8.count } + folded.count + (compact.count + phonetic.count) * 4
            + (foldedRange.count * 3) * 8 + mask.count * 2 * 8 + items.count * 32
    }

    /// Best first: exact (number or name, any language), name prefix, word prefix inside a
    /// hyphenated name (or every word typed, in any order), substring, then typo-tolerant (see ``MatchKind/rank(_:localized:)``:
    /// the API's names and those in the query's language rank alike, before other languages');
    /// within a rank, fewer typos, the API's or the reader's name before another language's,
    /// default forms before other forms, then the API's order.
    public func search(_ query: SearchQuery, limit: Int) -> [SearchHit] {
        let allowedIDs = filterIDs(query)
        let q = Array(query.text.utf8)
        if q.isEmpty {
            guard let allowedIDs else { return [] }
            return items.lazy.filter { allowedIDs.contains($0.id) }.prefix(limit)
                .map { SearchHit(item: $0, match: .filter, matched: $0.name, language: "", distance: 0) }
        }
        // The API's names, and the reader's: names of the first rank.
        let language = query.language
        func readers(_ k: Int) -> Bool {
            keys[k].language.isEmpty || language.map { LocalizedText.relative(keys[k].language, of: $0) } == true
        }
        // Per item: the best (score, key, kind, distance) so far.
        var best: [Int32: (score: (Int, Int, Int, Int, Int32), key: Int, kind: MatchKind, distance: Int)] = [:]
        // `partial`: typos in the first letters of a longer name. They rank as one typo more,
        // after the whole names with as many ("pikachuu" is Pikachu before it is the start of
        // pikachu-unova-cap, "blastoys" Blastoise before blastoise-mega), and count one at least.
        func offer(_ k: Int, _ kind: MatchKind, _ typos: Int, partial: Bool = false) {
            let distance = partial ? max(typos, 1) : typos
            let position = keys[k].position
            let item = items[Int(position)]
            if let allowedIDs, !allowedIDs.contains(item.id) { return }
            let foreign = !readers(k)
            let score = (MatchKind.rank(kind, localized: foreign), partial ? typos * 2 + 3 : typos * 2, foreign ? 1 : 0,
                         PokemonID.isDefaultForm(item.id) ? 0 : 1, position)
            if let old = best[position], old.score <= score { return }
            best[position] = (score, k, kind, distance)
        }
        if let number = UInt32(query.text), let position = byID[number], apiKey[position] >= 0 {
            offer(Int(apiKey[position]), .exact, 0)
        }
        folded.withUnsafeBufferPointer { fb in
            q.withUnsafeBufferPointer { qb in
                // First the exact and prefix matches of the API's names and the reader's: when they
                // fill the list, nothing ranked lower can enter it ("m", "pi", "char" stop here).
                for k in 0..<keys.count where readers(k) {
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
        if best.count < limit, q.contains(UInt8(ascii: "-")) {
            keysHoldingWords(of: q) { offer($0, .word, 0) }
        }
        let (letters, script) = ScriptFolding.letters(TextFolding.compact(query.text))
        // Typos are allowed by the letters typed, each run once: ten z's are one letter (but
        // 盖盖虫 is three hanzi).
        let allowed = ScriptFolding.allowed(script == .kana || script == .han ? letters.count : TextFolding.deduplicated(letters).count, script)
        // Kana compare as typed even where no typo is allowed (ピカチユウ, 3 kana or 30).
        if best.count < limit, allowed > 0 || script == .kana {
            fuzzy(letters, script: script, allowed: allowed) { offer($0, .fuzzy, $1, partial: $2) }
        }
        return best.values.sorted { $0.score < $1.score }.prefix(limit).map { b in
            let key = keys[b.key]
            return SearchHit(item: items[Int(key.position)], match: key.language.isEmpty ? b.kind : .localized,
                             matched: key.text, language: key.language, distance: b.distance, kind: b.kind, inReadersLanguage: readers(b.key))
        }
    }

    /// The other species of `item`'s evolution family that the list holds, in Pokédex order
    /// (Raichu and Pichu for Pikachu), from the bundled table: none for a form, or for a
    /// Pokémon the table no longer describes.
    func relatives(of item: PokemonIndex.Item) -> [PokemonIndex.Item] {
        guard PokemonID.isDefaultForm(item.id), BundledNames.entry(item.id, apiName: item.name)?.isSpecies == true else { return [] }
        return BundledNames.family(of: item.id).compactMap { id in
            guard id != item.id, let position = byID[id] else { return nil }
            let relative = items[position]
            return BundledNames.entry(id, apiName: relative.name) == nil ? nil : relative
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
}
