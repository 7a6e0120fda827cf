extension SearchIndex {
    /// The keys that hold each word of a query of several words at the start of a word of
    /// their own, in any order: "attack deoxys" finds deoxys-attack (PokeAPI's English name
    /// for that form is "Attack Deoxys"), "mega charizard x" charizard-mega-x. Each word of
    /// the key serves one word of the query.
    func keysHoldingWords(of query: [UInt8], _ found: (Int) -> Void) {
        let dash = UInt8(ascii: "-")
        // Longest first, so that a short word does not take the word a longer one needs.
        let words = query.split(separator: dash).sorted { $0.count > $1.count }
        guard words.count >= 2, words.count <= 8 else { return }
        // A name lacking one of the letters typed cannot hold every word: most are passed over
        // on their letter masks alone, before any byte is compared.
        let letters = TextFolding.letterMask(String(decoding: query, as: UTF8.self).unicodeScalars.lazy.filter { $0 != "-" }.map(\.value))
        var starts: [Int] = []
        folded.withUnsafeBufferPointer { fb in
            for k in 0..<keys.count where letters & ~mask[k] == 0 {
                let r = foldedRange[k]
                // Each query word takes a word of its own, with a hyphen between them.
                guard Int(r.count) >= query.count else { continue }
                let end = Int(r.upperBound)
                starts.removeAll(keepingCapacity: true)
                starts.append(Int(r.lowerBound))
                for i in Int(r.lowerBound)..<end where fb[i] == dash && i + 1 < end { starts.append(i + 1) }
                guard starts.count >= words.count, starts.count <= 64 else { continue }
                var used: UInt64 = 0
                let all = words.allSatisfy { word in
                    for (n, start) in starts.enumerated() where used & (1 << UInt64(n)) == 0 {
                        guard end - start >= word.count else { continue }
                        if zip(fb[start..<(start + word.count)], word).allSatisfy({ $0 == $1 }) {
                            used |= 1 << UInt64(n)
                            return true
                        }
                    }
                    return false
                }
                if all { found(k) }
            }
        }
    }
}
