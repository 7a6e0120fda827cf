/// Case, accents and width folded away with no ICU: what Foundation's
/// `folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive])` did for
/// search, from tables generated from Unicode's own data (`tools/gen-text-folding.py`, Debian's
/// unicode-data) and the standard library's character properties.
///
/// - Full case folding: "ß" → "ss", "İ" → "i".
/// - The marks on a Latin, Greek or Cyrillic letter go, precomposed or not: "é" and
///   "e\u{301}" → "e", "ά" → "α". Marks on other scripts' letters stay: "ガ" is not "カ".
/// - Full-width and half-width forms as their usual ones: "ＰＩＫＡ" → "pika", "ｶ" → "カ".
/// - Kana followed by a voicing mark are composed: "ｶﾞ" and "か\u{3099}" read as "ガ" and "が",
///   the forms the API's names use (Foundation left those apart).
///
/// Where it differs from Foundation on a single character, it follows Unicode 15's tables
/// (UnicodeFoldingTests lists each difference).
enum UnicodeFolding {
    /// Below this, a base's marks are diacritics to fold away (Latin, Greek, Cyrillic).
    static let markBaseLimit: UInt32 = 0x510

    static func fold(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        // Whether the last base was Latin, Greek or Cyrillic: then the marks after it go.
        var lowBase = false
        for u in text.unicodeScalars {
            if u.isASCII {
                out.append((0x41...0x5A).contains(u.value) ? Unicode.Scalar(UInt8(u.value) + 0x20) : u)
                lowBase = true
                continue
            }
            // A mark after a Latin, Greek or Cyrillic letter goes; a mark with nothing before it stays.
            if lowBase, !out.isEmpty, isMark(u) { continue }
            guard let mapped = folded[u.value] else {
                append(u, to: &out)
                lowBase = u.value < markBaseLimit
                continue
            }
            for m in mapped { append(m, to: &out) }
            if let first = mapped.first { lowBase = first.value < markBaseLimit }
        }
        return String(out)
    }

    /// A combining mark: a character drawn on the one before it.
    static func isMark(_ u: Unicode.Scalar) -> Bool {
        let p = u.properties
        return p.canonicalCombiningClass != .notReordered || p.generalCategory == .nonspacingMark
            || p.generalCategory == .enclosingMark
    }

    /// Appends `u`, composing a voicing mark with the kana before it.
    private static func append(_ u: Unicode.Scalar, to out: inout String.UnicodeScalarView) {
        if u.value == 0x3099 || u.value == 0x309A, let last = out.last,
           let voiced = voiced[UInt64(last.value) << 32 | UInt64(u.value)] {
            out.removeLast()
            out.append(voiced)
            return
        }
        out.append(u)
    }

    /// What each listed character folds to, read once from ``foldings``.
    private static let folded: [UInt32: [Unicode.Scalar]] = {
        var table: [UInt32: [Unicode.Scalar]] = [:]
        for line in foldings.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let key = UInt32(parts[0], radix: 16) else { continue }
            table[key] = parts[1].split(separator: " ").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
        }
        return table
    }()

    /// Kana and voicing mark → the voiced kana, read once from ``kanaVoicing``.
    private static let voiced: [UInt64: Unicode.Scalar] = {
        var table: [UInt64: Unicode.Scalar] = [:]
        for line in kanaVoicing.split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == " " || $0 == ":" }).compactMap { UInt32($0, radix: 16) }
            guard parts.count == 3, let voiced = Unicode.Scalar(parts[2]) else { continue }
            table[UInt64(parts[0]) << 32 | UInt64(parts[1])] = voiced
        }
        return table
    }()
}
