import PokedexModels

/// What a desktop widget shows: one favorite (and the names of all of them), that there is none,
/// or that the service cannot answer.
public enum WidgetContent: Equatable, Sendable {
    /// `why`: a sentence for the tooltip, in the reader's language.
    case unavailable(why: String)
    case empty
    /// `all`: every favorite's name as the games write it, newest first.
    case favorite(WidgetFavorite, all: [String])
}

/// One favorite as a widget shows it. Everything here came from the service, so from outside:
/// each format makes it safe for its own markup.
public struct WidgetFavorite: Equatable, Sendable {
    public var id: UInt32
    /// PokeAPI's identifier (`mr-mime`): for CSS classes and clicks, never shown.
    public var identifier: String
    /// As the games write it, in the reader's language (`Pantimos`).
    public var name: String
    /// `#rrggbb`, else empty.
    public var color = ""
    /// Absolute paths without a control character, else empty.
    public var spritePath = ""
    public var animatedSpritePath = ""
    public var genus = ""
    public var typeNames: [String] = []
    /// PokeAPI's type identifiers (`fire`), for CSS classes.
    public var types: [String] = []
    /// Whether the record was there: offline, a favorite never fetched has its name only.
    public var hasDetail = false

    /// A favorite known by name only (the bundled table names it offline).
    public init(id: UInt32, identifier: String, name: String) {
        self.id = id
        self.identifier = identifier
        self.name = name.isEmpty ? identifier : name
    }

    /// From a `LocalizedDetail` answer; `name` is the display name when the detail has none.
    public init(_ d: PokemonDetail, name: String) {
        self.init(id: d.id, identifier: d.name, name: d.displayName.isEmpty ? name : d.displayName)
        color = Self.isColor(d.color) ? d.color : ""
        spritePath = Self.isPath(d.spritePath) ? d.spritePath : ""
        animatedSpritePath = Self.isPath(d.animatedSpritePath) ? d.animatedSpritePath : ""
        genus = d.genus
        typeNames = d.typeNames.isEmpty ? d.types : d.typeNames
        types = d.types
        hasDetail = true
    }

    static func isColor(_ s: String) -> Bool {
        let u = Array(s.utf8)
        return u.count == 7 && u[0] == UInt8(ascii: "#") && u.dropFirst().allSatisfy {
            (48...57).contains($0) || (65...70).contains($0) || (97...102).contains($0)
        }
    }

    static func isPath(_ s: String) -> Bool {
        s.hasPrefix("/") && !s.unicodeScalars.contains(where: UntrustedText.isControl)
    }
}

/// Which favorite a widget shows. It stays until the user's choice changes: `newest` shows the
/// last one added (a new favorite shows at once); `random` keeps the one it drew while it is
/// still a favorite, and draws again only when it is not.
public enum WidgetPick: String, CaseIterable, Sendable {
    case newest, random

    /// The id to show among `favorites` (in the order added), given the one `shown` now.
    public func choose<G: RandomNumberGenerator>(from favorites: [UInt32], keeping shown: UInt32?,
                                                 using generator: inout G) -> UInt32? {
        switch self {
        case .newest:
            return favorites.last
        case .random:
            if let shown, favorites.contains(shown) { return shown }
            return favorites.randomElement(using: &generator)
        }
    }
}
