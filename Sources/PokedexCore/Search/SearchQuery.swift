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
    /// Not the query's match but a relative of one (its evolution family): the desktop's
    /// first screen offers Raichu and Pichu beside Pikachu. ``SearchIndex`` never gives it.
    case related

    /// Exact names (any language) first, then the prefixes and words of the API's names and
    /// the reader's, then other languages' prefixes and words, then substrings, then typos.
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
    /// How it matched, as the contract says it: `.localized` for any name but the API's.
    public var match: MatchKind
    /// The name that matched, as written (the API name, or a localized name).
    public var matched: String
    /// "" for the API name, else the language code of the localized name that matched.
    public var language: String
    /// Typos (fuzzy matches only).
    public var distance: Int
    /// How the name matched, whichever name it is (Glurak, exactly).
    public var kind: MatchKind
    /// Whether the name is the API's or in the reader's language (a German reader's "Glurak").
    public var inReadersLanguage: Bool

    public init(item: PokemonIndex.Item, match: MatchKind, matched: String, language: String, distance: Int, kind: MatchKind? = nil,
                inReadersLanguage: Bool? = nil) {
        self.item = item
        self.match = match
        self.matched = matched
        self.language = language
        self.distance = distance
        self.kind = kind ?? (match != .localized ? match : distance > 0 ? .fuzzy : .substring)
        self.inReadersLanguage = inReadersLanguage ?? language.isEmpty
    }

    /// Its place among the hits (``MatchKind/rank(_:localized:)``): a name in the reader's
    /// language ranks as the API's.
    public var rank: Int { MatchKind.rank(kind, localized: !inReadersLanguage) }
}

/// A parsed query: text, and `type:` / `gen:` filters.
public struct SearchQuery: Equatable, Sendable {
    public var text: String
    public var types: [String]
    public var generation: Int?
    /// The reader's language (a PokeAPI code): its names rank as the API's ("glurak" is Glurak
    /// for a German reader before it is a typo of Golurk); nil: the API's names alone.
    public var language: String?

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
        // A number with a sign ("-1", "+25") names no Pokémon, as Detail("-1") finds none;
        // folded, its sign would go and leave a number that does.
        if let sign = joined.first, ["-", "+", "\u{2212}"].contains(sign), PokedexNumber.parse(String(joined.dropFirst())) != nil {
            generation = -1  // matches nothing, as an unknown generation
        }
    }

    /// The whole of `raw` as a name, with no filters read in it: what a person typed to name
    /// one Pokémon ("Type:0" is Type: Null in French, not a filter).
    public init(name raw: String) {
        types = []
        generation = nil
        text = TextFolding.fold(raw)
    }

    static let roman = ["i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9]
    public var hasFilters: Bool { !types.isEmpty || generation != nil }
}
