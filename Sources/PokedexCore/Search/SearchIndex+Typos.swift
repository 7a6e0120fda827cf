/// Typos: a name found as it was mistyped, in its own script.
extension SearchIndex {
    /// Typo-tolerant matching over the names of the query's script: edit distance (letters,
    /// jamo, kana or hanzi), then, for Latin names, sound-alike, then a typo in the first letters
    /// of a longer name. A letter-set bound skips most Latin names.
    /// `offer(key, typos, partial)`: partial for a typo in the first letters of a longer name.
    func fuzzy(_ query: [UInt32], script: ScriptFolding.Script, allowed: Int, _ offer: (Int, Int, Bool) -> Void) {
        var scratch: [Int] = []
        let qMask = TextFolding.letterMask(query)
        let latin = script == .latin
        let phoneticQuery = latin ? TextFolding.phonetic(query) : []
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
                            if cr.isEmpty || scripts[k] != script.rawValue { continue }
                            let c = UnsafeBufferPointer(rebasing: cb[Int(cr.lowerBound)..<Int(cr.upperBound)])
                            // People rarely miss a Latin name's first letter: it must match the query's
                            // first (or second: a swap, a dropped letter), or sound like it. An input
                            // method's first kana, syllable or hanzi is as easily wrong as any other.
                            let pr0 = phoneticRange[k]
                            if latin, c[0] != qb[0] && (c.count < 2 || c[1] != qb[0]) && (n < 2 || c[0] != qb[1])
                                && (pr0.isEmpty || pqb.isEmpty || pb[Int(pr0.lowerBound)] != pqb[0]) { continue }
                            let km = mask[k]
                            // A length gap, or each letter one side has and the other lacks, costs an edit.
                            if abs(c.count - n) <= allowed,
                               max((qMask & ~km).nonzeroBitCount, (km & ~qMask).nonzeroBitCount) <= allowed,
                               let d = EditDistance.distance(qb, c, limit: allowed, scratch: &scratch),
                               EditDistance.similarEnough(d, typed, c.count) {
                                offer(k, d, false)
                                continue
                            }
                            // Sounds alike ("geodood", "quacksly"): one more than the sound distance.
                            let pm = phoneticMask[k], pr = phoneticRange[k]
                            if phoneticAllowed > 0, abs(Int(pr.count) - phoneticQuery.count) < phoneticAllowed,
                               (pMask & ~pm).nonzeroBitCount < phoneticAllowed, (pm & ~pMask).nonzeroBitCount < phoneticAllowed {
                                let p = UnsafeBufferPointer(rebasing: pb[Int(pr.lowerBound)..<Int(pr.upperBound)])
                                if let d = EditDistance.distance(pqb, p, limit: phoneticAllowed - 1, scratch: &scratch),
                                   EditDistance.similarEnough(d + 1, phoneticQuery.count, p.count) {
                                    offer(k, d + 1, false)
                                    continue
                                }
                            }
                            // A typo in the first letters of a longer name, as typed in a search box
                            // ("pika" finds Pikipek): one fewer than the whole name allows, but one at least.
                            let prefixAllowed = max(1, allowed - 1)
                            // The letters of its first n, worked out here: kept, 16 masks a name
                            // were 2 MiB of the service's memory for a filter this cheap.
                            if n >= 4, n <= 16, c.count > n,
                               (qMask & ~TextFolding.letterMask(UnsafeBufferPointer(rebasing: c[0..<n]))).nonzeroBitCount <= prefixAllowed,
                               let d = EditDistance.distance(qb, UnsafeBufferPointer(rebasing: c[0..<n]), limit: prefixAllowed, scratch: &scratch),
                               EditDistance.similarEnough(d, typed, n) {
                                offer(k, d, true)
                            }
                        }
                    }
                }
            }
        }
    }

}
