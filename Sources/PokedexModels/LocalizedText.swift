/// Text PokeAPI gives in several languages (names, genera, flavour text), keyed by its
/// language codes, and how one language is picked from it.
public enum LocalizedText {
    /// The text in `language`, else in its closest relative (Japanese kana and kanji stand in
    /// for each other), else in English unless `english` is false; nil when there is none of these. Codes compare
    /// without case: the API has written both "ja-Hrkt" and "ja-hrkt".
    public static func pick(_ texts: [String: String], _ language: String, english: Bool = true) -> String? {
        // Most often the language itself is there: no list of codes is built for it.
        if let t = texts[language], !t.isEmpty { return t }
        for code in [language] + relatives(of: language) + (english ? ["en"] : []) {
            if let t = texts[code], !t.isEmpty { return t }
            if let t = texts.first(where: { $0.key.lowercased() == code })?.value, !t.isEmpty { return t }
        }
        return nil
    }

    /// Whether a text in `code` reads as `language`'s: the same code (any case), or its relative.
    public static func relative(_ code: String, of language: String) -> Bool {
        let code = code.lowercased(), language = language.lowercased()
        return code == language || relatives(of: language).contains(code)
    }

    /// The codes whose text a reader of `language` reads next best.
    static func relatives(of language: String) -> [String] {
        switch language {
        case "ja-hrkt": return ["ja"]
        case "ja": return ["ja-hrkt"]
        case "es-419": return ["es"]
        default: return []
        }
    }
}

/// What the service keeps of a resource read for its names alone: a type, an ability or a
/// stat (`names`), or a Pokémon form (`names`, and `form_names`: "Alola Form").
public struct NamesRecord: Sendable, Codable, Equatable {
    /// The API's identifier ("electric", "special-attack", "raichu-alola").
    public var name: String
    /// Language code → name.
    public var names: [String: String]
    /// A form's name without its species' (language code → name); empty for anything else.
    public var formNames: [String: String]
    /// An ability's effect (language code → PokeAPI's short effect in it, else the games' newest
    /// description in it); nil for anything else, and in an ability's record kept before.
    public var effects: [String: String]?

    public init(name: String, names: [String: String], formNames: [String: String] = [:], effects: [String: String]? = nil) {
        self.name = name
        self.names = names
        self.formNames = formNames
        self.effects = effects
    }

    /// An ability's effect in `language` (its relative's, else English); "" where there is none.
    public func effect(in language: String) -> String { FlavorText.joined(effects.flatMap { LocalizedText.pick($0, language) } ?? "") }
}

/// A Pokémon's name as the games write it, for `DisplayNames`: D-Bus `(uss)`.
public struct DisplayName: Equatable, Sendable {
    public var id: UInt32
    /// The API's identifier ("mr-mime"), as every other member names it.
    public var name: String
    /// As the games write it, in the language asked ("Mr. Mime", "Pantimos").
    public var displayName: String

    public init(id: UInt32, name: String, displayName: String) {
        self.id = id
        self.name = name
        self.displayName = displayName
    }
}
