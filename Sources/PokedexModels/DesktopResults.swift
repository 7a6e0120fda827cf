/// One Pokémon as a desktop search shows it (GNOME Shell's overview, KRunner).
public struct DesktopResult: Equatable, Sendable {
    public var id: UInt32
    /// The display name: `Pikachu`.
    public var name: String
    /// `#025 · Electric · Mouse Pokémon` (what is known from memory), for GNOME Shell's row.
    public var description: String
    /// `#025 · Electric`: as much as KRunner's narrower column shows; the description if empty.
    public var brief: String
    /// The card's body, where there is room for all of it: `#025 · Electric · Mouse Pokémon`
    /// whatever its length; the description if empty.
    public var card: String
    /// What KRunner shows beside the name: the brief, else the description.
    public var krunnerSubtext: String { brief.isEmpty ? description : brief }
    /// The cached sprite's absolute path, or "" while it is not cached.
    public var spritePath: String
    /// 0…1, from the match's rank: an exact name or number first.
    public var relevance: Double
    /// An exact name or number.
    public var exact: Bool
    public var favorite: Bool

    /// The icon of the app entry, the search providers and results without a cached sprite:
    /// the project's own, installed in hicolor, which every theme inherits. Sent alone, with no
    /// generic name after it: a theme lookup tries every name in one theme before the next, so
    /// GNOME Shell showed Adwaita's `image-x-generic` rather than reach hicolor for ours.
    public static let appIcon = "io.github.pokedexd.Pokedex1"

    public init(id: UInt32, name: String, description: String, brief: String = "", card: String = "", spritePath: String,
                relevance: Double = 0, exact: Bool = false, favorite: Bool = false) {
        self.id = id
        self.name = name
        self.description = description
        self.brief = brief
        self.card = card.isEmpty ? description : card
        self.spritePath = spritePath
        self.relevance = relevance
        self.exact = exact
        self.favorite = favorite
    }
}

/// A KRunner match: the result, and its sprite's pixels when they are at hand.
public struct KRunnerMatch: Equatable, Sendable {
    public var result: DesktopResult
    public var icon: RGBAImage?
    public init(result: DesktopResult, icon: RGBAImage?) {
        self.result = result
        self.icon = icon
    }
}

/// What KRunner offers on a match.
public struct KRunnerAction: Equatable, Sendable {
    public var id: String
    public var text: String
    public var icon: String
    public init(id: String, text: String, icon: String) {
        self.id = id
        self.text = text
        self.icon = icon
    }

    // The texts in English, marked for the catalogues; ``translated(_:)`` gives the reader's.
    // The star is a toggle's: it shows what the Pokémon is now (empty on one that is not a
    // favorite, filled on one that is), as every star button on the desktop does.
    public static let favorite = KRunnerAction(id: "favorite", text: Words.english.tr("Add to favorites"), icon: "non-starred-symbolic")
    public static let unfavorite = KRunnerAction(id: "unfavorite", text: Words.english.tr("Remove from favorites"), icon: "starred-symbolic")
    public static let copySpritePath = KRunnerAction(id: "copy-sprite-path", text: Words.english.tr("Copy the sprite's path"), icon: "edit-copy")
    public static let open = KRunnerAction(id: "open", text: Words.english.tr("Open in the Pokédex"), icon: "document-open")
    /// Every action, for `Actions()`.
    public static let every = [favorite, unfavorite, copySpritePath, open]
    /// The same action, its text in the language of `words`. KRunner shows the text as it
    /// comes (a button's tooltip): it does not translate it.
    public func translated(_ words: Words) -> KRunnerAction { KRunnerAction(id: id, text: words.tr(text), icon: icon) }

    /// The ones that make sense for a match.
    public static func all(favorite: Bool) -> [KRunnerAction] { [favorite ? unfavorite : Self.favorite, copySpritePath, open] }
}
