/// How names and queries are compared: case, accents and width folded away, katakana
/// read as hiragana, and separators (space, dot, apostrophe, colon, brackets, comma) read as
/// hyphens. "Flabébé" and "flabebe" fold alike, as do "Mr. Mime" and "mr-mime", "ＰＩＫＡ" and
/// "pika", "Deoxys (Angriff)" and "deoxys angriff". Kana as people mistype them (small for
/// large, a voicing mark or a long vowel left out: "ピカチユウ") are near misses
/// (``ScriptFolding``), not the same name: ガラガラ is not カラカラ.
enum TextFolding {
    public static func fold(_ text: String) -> String {
        // A pass can leave what another pass folds: a halfwidth ﾟ becomes a combining mark that
        // the next pass takes off its letter, a mark after ’ stays until ’ is a hyphen. Folded
        // again until nothing changes (a pass never lengthens the text; two are the most seen),
        // folding a folded name or query changes nothing.
        var folded = foldOnce(text)
        for _ in 0..<4 {
            let again = foldOnce(folded)
            if again == folded { break }
            folded = again
        }
        return folded
    }

    private static func foldOnce(_ text: String) -> String {
        // Plain ASCII (most queries) needs no Unicode folding: lower-case and separators only.
        let folded = text.utf8.allSatisfy({ $0 < 0x80 }) ? text.lowercased() : UnicodeFolding.fold(text)
        var out = String.UnicodeScalarView()
        var lastHyphen = false
        for u in folded.unicodeScalars {
            var u = u
            // Katakana → hiragana (ァ…ヶ → ぁ…ゖ).
            if (0x30A1...0x30F6).contains(u.value), let h = Unicode.Scalar(u.value - 0x60) { u = h }
            switch u {
            case " ", ".", "'", "\u{2019}", ":", "-", "_", "\u{30FB}", "(", ")", ",":
                if !lastHyphen && !out.isEmpty { out.append("-"); lastHyphen = true }
            default:
                out.append(u)
                lastHyphen = false
            }
        }
        if lastHyphen { out.removeLast() }
        return String(out)
    }

    /// The folded text without hyphens: "mr-mime" → "mrmime", for typo distance.
    public static func compact(_ folded: String) -> [UInt32] {
        folded.unicodeScalars.filter { $0 != "-" }.map(\.value)
    }

    /// Each run of one letter counted once: "zzzzzzzzzz" → "z", "pikachuu" → "pikachu". The
    /// typo allowance is measured on this, so that holding a key down earns no typos.
    public static func deduplicated(_ compact: [UInt32]) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(compact.count)
        for c in compact where out.last != c { out.append(c) }
        return out
    }

    /// A rough sound-alike key for Latin names: "geodood" and "geodude", "quacksly" and
    /// "quaxly", "mewww" and "mew" come out alike. ph→f, ck/c/q→k, x→ks, z→s, y→i,
    /// oo→u, ee→i, doubled letters once, no final e.
    public static func phonetic(_ compact: [UInt32]) -> [UInt32] {
        let a: UInt32 = 0x61, c: UInt32 = 0x63, e: UInt32 = 0x65, f: UInt32 = 0x66, h: UInt32 = 0x68, i: UInt32 = 0x69
        let k: UInt32 = 0x6B, o: UInt32 = 0x6F, p: UInt32 = 0x70, q: UInt32 = 0x71, s: UInt32 = 0x73, u: UInt32 = 0x75
        let w: UInt32 = 0x77, x: UInt32 = 0x78, y: UInt32 = 0x79, z: UInt32 = 0x7A
        var out: [UInt32] = []
        out.reserveCapacity(compact.count + 2)
        func emit(_ v: UInt32) { if out.last != v { out.append(v) } }  // doubled letters once
        var j = 0
        while j < compact.count {
            let ch = compact[j], next = j + 1 < compact.count ? compact[j + 1] : 0
            switch (ch, next) {
            case (p, h): emit(f); j += 2
            case (c, k): emit(k); j += 2
            case (q, u): emit(k); emit(w); j += 2
            case (o, o), (o, u): emit(u); j += 2
            case (e, e), (e, a): emit(i); j += 2
            case (q, _), (c, _): emit(k); j += 1
            case (x, _): emit(k); emit(s); j += 1
            case (z, _): emit(s); j += 1
            case (y, _): emit(i); j += 1
            default: emit(ch); j += 1
            }
        }
        if out.count > 3, out.last == e { out.removeLast() }
        return out
    }

    /// Letters a–z and digits present, one bit each: a cheap lower bound on edit distance.
    static func letterMask(_ scalars: some Sequence<UInt32>) -> UInt64 {
        var m: UInt64 = 0
        for u in scalars {
            if (0x61...0x7A).contains(u) { m |= 1 << (u - 0x61) } else if (0x30...0x39).contains(u) { m |= 1 << (26 + u - 0x30) } else { m |= 1 << 40 }
        }
        return m
    }

    /// Whether the folded text is written in Latin letters and digits (where typos are measured).
    static func isLatin(_ scalars: [UInt32]) -> Bool { scalars.allSatisfy { $0 < 0x250 } }
}

/// Optimal-string-alignment Damerau–Levenshtein distance, cut off above `limit`.
enum EditDistance {
    /// The distance between `a` and `b`, or nil when it exceeds `limit`.
    public static func distance(_ a: [UInt32], _ b: [UInt32], limit: Int, scratch: inout [Int]) -> Int? {
        a.withUnsafeBufferPointer { ab in b.withUnsafeBufferPointer { bb in distance(ab, bb, limit: limit, scratch: &scratch) } }
    }

    /// ``distance(_:_:limit:scratch:)`` over buffers (the search loop's form).
    static func distance(_ a: UnsafeBufferPointer<UInt32>, _ b: UnsafeBufferPointer<UInt32>, limit: Int, scratch: inout [Int]) -> Int? {
        let n = a.count, m = b.count
        if abs(n - m) > limit { return nil }
        if n == 0 { return m <= limit ? m : nil }
        if m == 0 { return n <= limit ? n : nil }
        let width = m + 1
        if scratch.count < 3 * width { scratch = Array(repeating: 0, count: 3 * width) }
        return scratch.withUnsafeMutableBufferPointer { buf -> Int? in
            // Three rolling rows: two back (for transpositions), previous, current.
            var prev2 = 0, prev = width, cur = 2 * width
            for j in 0...m { buf[prev + j] = j }
            for i in 1...n {
                buf[cur] = i
                var rowMin = i
                let ai = a[i - 1]
                for j in 1...m {
                    let cost = ai == b[j - 1] ? 0 : 1
                    var v = min(buf[prev + j] + 1, buf[cur + j - 1] + 1, buf[prev + j - 1] + cost)
                    if i > 1, j > 1, ai == b[j - 2], a[i - 2] == b[j - 1] { v = min(v, buf[prev2 + j - 2] + 1) }
                    buf[cur + j] = v
                    rowMin = min(rowMin, v)
                }
                if rowMin > limit { return nil }
                (prev2, prev, cur) = (prev, cur, prev2)
            }
            let d = buf[prev + m]
            return d <= limit ? d : nil
        }
    }

    /// The floor of similarity under which a match with typos is no match: the typos may be
    /// at most a third of the longer side (letters as typed, each run once, against the name).
    public static func similarEnough(_ typos: Int, _ queryLength: Int, _ nameLength: Int) -> Bool {
        typos * 3 <= max(queryLength, nameLength)
    }

    /// The typos allowed for a query of this many letters: none up to 2, one up to 4,
    /// two up to 8, three beyond.
    public static func allowed(forLength n: Int) -> Int {
        switch n {
        case ..<3: return 0
        case 3...4: return 1
        case 5...8: return 2
        default: return 3
        }
    }
}
