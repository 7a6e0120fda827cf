/// The `[{"<field>": "…", "language": {"name": "en", …}}]` arrays of PokeAPI's bodies: names,
/// genera, flavour texts, effects.
extension JSONReader {
    private static let languageTextKeys = ["genus": Keys("genus", "language"), "flavor_text": Keys("flavor_text", "language"),
                                           "name": Keys("name", "language"), "short_effect": Keys("short_effect", "language")]
    /// The languages names are shown in, sorted, as keys: the languages kept are nearly always
    /// those (a `Keys` made for each array was 5 of a species' samples).
    private static let shownSorted = APIDecoding.shown.sorted()
    private static let shownKeys = Keys(shownSorted)

    private static func keys(of only: Set<String>) -> (keys: Keys, codes: [String]) {
        if only == APIDecoding.shown { return (shownKeys, shownSorted) }
        let codes = only.sorted()
        return (Keys(codes), codes)
    }

    /// Every entry of the array. With `only`, a text in another language is checked but not
    /// built.
    mutating func languageTexts(_ field: String, only: Set<String>? = nil) throws(Failure) -> [APIDecoding.LanguageText] {
        let keys = Self.languageTextKeys[field] ?? Keys(field, "language")
        // The languages kept, matched on the body's bytes: a species has 200 flavour texts, most
        // in languages not kept, and their language's name was a String built to be dropped.
        let kept = only.map { Self.keys(of: $0).keys }
        var out: [APIDecoding.LanguageText] = []
        try array { (r) throws(Failure) in
            let (text, language) = try r.languageTextTokens(keys, field)
            if let only, let kept {
                // Exactly as written, else (capitals, escapes) as the name reads lowercased.
                let name = try r.index(of: language, in: kept) == nil ? try r.string(language) : nil
                if let name, !only.contains(name.lowercased()) {
                    try r.check(text)
                    return
                }
            }
            out.append(.init(text: try r.string(text), language: try r.string(language)))
        }
        return out
    }

    /// What ``APIDecoding/byLanguage(_:_:_:_:_:_:)`` keeps of ``languageTexts(_:only:)``'s
    /// entries — in each language of `only`, the last text neither empty nor over `cap` bytes —
    /// building a String only for those, and for a text whose bytes may be over the cap; every
    /// other text is checked as one in a language not kept. A species has about 150 flavour
    /// texts in the languages shown, one for each game, and keeps the newest of each language.
    ///
    /// Returns the texts by language code (lowercased), and the texts over the cap in the
    /// array's order, for the caller's notes (it knows the body's name only at its end).
    mutating func newestByLanguage(_ field: String, only: Set<String>, cap: Int) throws(Failure) -> APIDecoding.NewestTexts {
        let keys = Self.languageTextKeys[field] ?? Keys(field, "language")
        let (kept, codes) = Self.keys(of: only)
        var entries: [(text: StringToken, code: String)] = []
        try array { (r) throws(Failure) in
            let (text, language) = try r.languageTextTokens(keys, field)
            let code: String
            if let k = try r.index(of: language, in: kept) {
                code = codes[k]
            } else {
                code = try r.string(language).lowercased()
                guard only.contains(code) else { return try r.check(text) }
            }
            try r.check(text)
            entries.append((text, code))
        }
        var out = APIDecoding.NewestTexts()
        // A text over the cap is dropped (and said), the one before it in its language kept:
        // only a text of more raw bytes than the cap can be (an escape reads shorter).
        var withinCap: [Int: String] = [:]
        for (k, e) in entries.enumerated() where e.text.rawCount > cap {
            let s = try string(e.text)
            if s.utf8.count > cap { out.overCap.append((e.code, s.utf8.count)) } else { withinCap[k] = s }
        }
        for (k, e) in entries.enumerated().reversed() where out.texts[e.code] == nil && e.text.rawCount > 0 {
            if e.text.rawCount > cap {
                if let s = withinCap[k] { out.texts[e.code] = s }
            } else {
                out.texts[e.code] = try string(e.text)
            }
        }
        return out
    }

    /// One entry's text and language, where the reader is at its object.
    private mutating func languageTextTokens(_ keys: Keys, _ field: String) throws(Failure) -> (text: StringToken, language: StringToken) {
        var text: StringToken?, language: StringToken?
        try object(keys) { (k, r) throws(Failure) in
            if k == 0 { text = try r.stringToken() } else { language = try r.resourceNameToken() }
        }
        guard let text else { throw missing(field) }
        guard let language else { throw missing("language") }
        return (text, language)
    }
}

extension APIDecoding {
    /// ``JSONReader/newestByLanguage(_:only:cap:)``'s answer.
    struct NewestTexts {
        var texts: [String: String] = [:]
        var overCap: [(language: String, bytes: Int)] = []

        /// The texts, the ones over the cap said to `dropped` as ``capped(_:_:_:_:)`` says them.
        func kept(_ what: String, cap: Int, _ dropped: Dropped) -> [String: String] {
            for o in overCap { dropped("dropped the \(o.language) \(what): \(o.bytes) bytes, over its cap of \(cap)") }
            return texts
        }
    }
}
