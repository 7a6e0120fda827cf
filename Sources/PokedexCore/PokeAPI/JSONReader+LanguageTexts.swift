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
        let seen = Recurring<(name: String, kept: Bool)>(capacity: 64)
        try array { (r) throws(Failure) in
            let (text, language) = try r.languageText(keys, field, seen) { (r, language) throws(Failure) in
                let name = try r.string(language)
                guard let only, let kept else { return (name, true) }
                // Exactly as written, else (capitals, escapes) as the name reads lowercased.
                return (name, try r.index(of: language, in: kept) != nil || only.contains(name.lowercased()))
            }
            guard language.kept else { return try r.check(text) }
            out.append(.init(text: try r.string(text), language: language.name))
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
        // Each language's code (lowercased), nil for one not kept.
        let seen = Recurring<String?>(capacity: 64)
        try array { (r) throws(Failure) in
            let (text, code) = try r.languageText(keys, field, seen) { (r, language) throws(Failure) -> String? in
                if let k = try r.index(of: language, in: kept) { return codes[k] }
                let code = try r.string(language).lowercased()
                return only.contains(code) ? code : nil
            }
            try r.check(text)
            if let code { entries.append((text, code)) }
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

    /// One entry's text, and its language as `read` makes it of the language's name, where the
    /// reader is at its object. A language object is read once a body: those that repeat its
    /// bytes (a species' 200 texts name a dozen languages) are stepped over (``Recurring``).
    private mutating func languageText<Language>(_ keys: Keys, _ field: String, _ seen: Recurring<Language>,
                                                 _ read: (inout JSONReader, StringToken) throws(Failure) -> Language)
        throws(Failure) -> (text: StringToken, language: Language) {
        var text: StringToken?, language: Language?
        try object(keys) { (k, r) throws(Failure) in
            if k == 0 { text = try r.stringToken(); return }
            language = try r.recurring(seen) { (r) throws(Failure) -> Language? in
                let name = try r.resourceNameToken()
                return try read(&r, name)
            }
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
