/// One row of a list, search or favorites answer: D-Bus `(ussb)`.
public struct ListEntry: Equatable, Sendable, Codable {
    public var id: UInt32
    public var name: String
    /// Absolute path of the sprite in the disk cache, or "" while it is not on disk.
    public var spritePath: String
    public var favorite: Bool

    public init(id: UInt32, name: String, spritePath: String, favorite: Bool) {
        self.id = id
        self.name = name
        self.spritePath = spritePath
        self.favorite = favorite
    }
}

/// The answer to `ListPage`.
public struct ListPage: Equatable, Sendable {
    public var total: UInt32
    public var entries: [ListEntry]

    public init(total: UInt32, entries: [ListEntry]) {
        self.total = total
        self.entries = entries
    }
}

/// Every Pokémon the API lists, in the API's order.
public struct PokemonIndex: Sendable, Codable, Equatable {
    public struct Item: Sendable, Codable, Equatable {
        public var id: UInt32
        public var name: String
        public init(id: UInt32, name: String) {
            self.id = id
            self.name = name
        }
    }
    public var items: [Item]
    /// The API's `count`.
    public var total: UInt32

    /// name → position in `items`.
    private(set) var byName: [String: Int] = [:]
    /// id → position in `items`.
    private(set) var byID: [UInt32: Int] = [:]

    enum CodingKeys: String, CodingKey { case items, total }

    public init(items: [Item], total: UInt32) {
        self.items = items
        self.total = total
        buildLookups()
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        items = try c.decode([Item].self, forKey: .items)
        total = try c.decode(UInt32.self, forKey: .total)
        buildLookups()
    }

    private mutating func buildLookups() {
        byName.reserveCapacity(items.count)
        byID.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            byName[item.name] = i
            byID[item.id] = i
        }
    }

    public func item(named name: String) -> Item? { byName[name].map { items[$0] } }
    public func item(id: UInt32) -> Item? { byID[id].map { items[$0] } }

    public static func == (a: PokemonIndex, b: PokemonIndex) -> Bool {
        a.items == b.items && a.total == b.total
    }
}

/// A change to the favorites, as the bus signals it.
public struct FavoriteChange: Equatable, Sendable {
    public var id: UInt32
    public var name: String
    public var favorite: Bool
    /// Every favorite id, in the order added, after the change.
    public var allIDs: [UInt32]

    public init(id: UInt32, name: String, favorite: Bool, allIDs: [UInt32]) {
        self.id = id
        self.name = name
        self.favorite = favorite
        self.allIDs = allIDs
    }
}

/// One row of `SearchDetailed`: the entry, and why it matched.
public struct SearchMatch: Equatable, Sendable {
    public var entry: ListEntry
    /// exact, prefix, word, substring, fuzzy, localized or filter.
    public var match: String
    /// The name that matched, as written (the API name, or a localized name).
    public var matchedName: String
    /// "" for the API name, else the language code of the localized name that matched.
    public var language: String
    /// Typos (fuzzy matches only).
    public var distance: UInt32

    public init(entry: ListEntry, match: String, matchedName: String, language: String, distance: UInt32) {
        self.entry = entry
        self.match = match
        self.matchedName = matchedName
        self.language = language
        self.distance = distance
    }
}

/// `RandomSprite`'s answer: a Pokémon picked at random and the path of its sprite.
public struct RandomSprite: Equatable, Sendable {
    public var id: UInt32
    /// The API name ("pikachu").
    public var name: String
    /// The sprite's absolute path: the shiny one when ``shiny``.
    public var path: String
    /// Whether the shiny sprite was drawn.
    public var shiny: Bool

    public init(id: UInt32, name: String, path: String, shiny: Bool) {
        self.id = id
        self.name = name
        self.path = path
        self.shiny = shiny
    }
}

/// What a favorites change did: `ChangeFavorite`'s answer.
public struct FavoriteUpdate: Equatable, Sendable {
    public var id: UInt32
    /// The API name ("pikachu"), whatever the caller typed.
    public var name: String
    /// The state after the call.
    public var favorite: Bool
    /// Whether the call changed it (false: it already was so).
    public var changed: Bool

    public init(id: UInt32, name: String, favorite: Bool, changed: Bool) {
        self.id = id
        self.name = name
        self.favorite = favorite
        self.changed = changed
    }
}

/// How `ChangeFavorite` changes a favorite.
public enum FavoriteAction: String, Sendable, CaseIterable {
    case add, remove, toggle
}
