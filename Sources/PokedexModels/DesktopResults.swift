/// One Pokémon as a desktop search shows it (GNOME Shell's overview, KRunner).
public struct DesktopResult: Equatable, Sendable {
    public var id: UInt32
    /// The display name: `Pikachu`.
    public var name: String
    /// `#025 · Mouse Pokémon · Electric` (what is known from memory).
    public var description: String
    /// The cached sprite's absolute path, or "" while it is not cached.
    public var spritePath: String
    /// 0…1, from the match's rank: an exact name or number first.
    public var relevance: Double
    /// An exact name or number.
    public var exact: Bool
    public var favorite: Bool

    /// Themed icons shown while the sprite is not cached.
    /// The project's own icon (installed in hicolor, so every theme finds it), then a generic
    /// image, which Breeze and Adwaita both have.
    public static let fallbackIcons = [appIcon, "image-x-generic"]
    /// The icon of the app entry, the search providers and results without a sprite.
    public static let appIcon = "io.github.pokedexd.Pokedex1"

    public init(id: UInt32, name: String, description: String, spritePath: String, relevance: Double = 0, exact: Bool = false,
                favorite: Bool = false) {
        self.id = id
        self.name = name
        self.description = description
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

    public static let favorite = KRunnerAction(id: "favorite", text: "Add to favorites", icon: "starred-symbolic")
    public static let unfavorite = KRunnerAction(id: "unfavorite", text: "Remove from favorites", icon: "non-starred-symbolic")
    public static let copySpritePath = KRunnerAction(id: "copy-sprite-path", text: "Copy the sprite's path", icon: "edit-copy")
    public static let open = KRunnerAction(id: "open", text: "Open in the Pokédex", icon: "document-open")
    /// Every action, for `Actions()`.
    public static let every = [favorite, unfavorite, copySpritePath, open]
    /// The ones that make sense for a match.
    public static func all(favorite: Bool) -> [KRunnerAction] { [favorite ? unfavorite : Self.favorite, copySpritePath, open] }
}
