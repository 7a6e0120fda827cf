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

/// What `Status` and `pokectl status` report.
public struct ServiceStatus: Equatable, Sendable {
    public var version: String
    public var apiURL: String
    public var cacheDirectory: String
    public var dataDirectory: String
    public var memoryEntries: Int
    public var memoryBytes: Int
    public var memoryCapBytes: Int
    public var diskEntries: Int
    public var diskBytes: Int
    public var diskCapBytes: Int
    public var favorites: Int
    public var online: Bool
    /// Each host the service fetches from, the API's first.
    public var hosts: [HostStatus]
    /// Requests in flight now, and the most at once since the start.
    public var requestsInFlight: Int
    public var maxRequestsInFlight: Int
    /// The sandbox in effect (Landlock, namespaces); set by the daemon's main, which applied it.
    public var sandbox = SandboxStatus()

    public init(version: String, apiURL: String, cacheDirectory: String, dataDirectory: String,
                memoryEntries: Int, memoryBytes: Int, memoryCapBytes: Int, diskEntries: Int, diskBytes: Int,
                diskCapBytes: Int, favorites: Int, online: Bool, hosts: [HostStatus] = [],
                requestsInFlight: Int = 0, maxRequestsInFlight: Int = 0) {
        self.hosts = hosts
        self.requestsInFlight = requestsInFlight
        self.maxRequestsInFlight = maxRequestsInFlight
        self.version = version
        self.apiURL = apiURL
        self.cacheDirectory = cacheDirectory
        self.dataDirectory = dataDirectory
        self.memoryEntries = memoryEntries
        self.memoryBytes = memoryBytes
        self.memoryCapBytes = memoryCapBytes
        self.diskEntries = diskEntries
        self.diskBytes = diskBytes
        self.diskCapBytes = diskCapBytes
        self.favorites = favorites
        self.online = online
    }
}

/// One host's state, as `Status` reports it.
public struct HostStatus: Equatable, Sendable {
    /// `host` or `host:port`.
    public var host: String
    /// Whether this is the API's own host, the one `Online` follows.
    public var isAPI: Bool
    public var up: Bool
    /// When it went down, in seconds since the epoch; nil while up.
    public var downSince: Double?
    /// Why it is down; "" while up.
    public var reason: String
    /// When it will next be tried, in seconds since the epoch; nil while up.
    public var nextAttempt: Double?
    /// Whether it multiplexes requests on one connection (HTTP/2); nil until it answered.
    public var multiplexed: Bool?

    public init(host: String, isAPI: Bool, up: Bool, downSince: Double? = nil, reason: String = "",
                nextAttempt: Double? = nil, multiplexed: Bool? = nil) {
        self.host = host
        self.isAPI = isAPI
        self.up = up
        self.downSince = downSince
        self.reason = reason
        self.nextAttempt = nextAttempt
        self.multiplexed = multiplexed
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

/// Names as people read them.
public enum PokemonNames {
    /// An API name for display: `mr-mime` → `Mr Mime`, `lightning-rod` → `Lightning Rod`.
    public static func display(_ apiName: String) -> String {
        apiName.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }
}

/// What PokeAPI's ids mean.
public enum PokemonID {
    /// Ids from here on are alternate forms (megas, regional forms); below it, a species'
    /// default form, whose id is the species' id.
    public static let firstAlternateForm: UInt32 = 10_000

    /// Whether `id` is a species' default form (and so also a species id).
    public static func isDefaultForm(_ id: UInt32) -> Bool { id < firstAlternateForm }

    /// The number as the games print it: `#025`, `#151`, `#1025`.
    public static func display(_ id: UInt32) -> String {
        "#" + String(repeating: "0", count: max(0, 3 - String(id).count)) + String(id)
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

/// The shape of PokeAPI's machine names (`pikachu`, `mr-mime`, `special-attack`,
/// `generation-iv`): lowercase ASCII letters, digits and hyphens, of bounded length. A name of any
/// other shape did not come from PokeAPI; it is dropped where a body is decoded.
public enum APIName {
    /// The longest real name is 26 bytes (`zygarde-10-power-construct`).
    public static let maxBytes = 64

    public static func isValid(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= maxBytes && s.utf8.allSatisfy { isNameByte($0, upper: false) }
    }

    /// A language code: the same, with capitals (`ja-Hrkt`, `zh-Hans`).
    public static func isLanguageCode(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 16 && s.utf8.allSatisfy { isNameByte($0, upper: true) }
    }

    private static func isNameByte(_ b: UInt8, upper: Bool) -> Bool {
        (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) || b == 0x2D || (upper && (0x41...0x5A).contains(b))
    }
}

/// A Pokédex number as people write it: `25`, `025`, `#025`, `#25`, `No. 25`, `no25`, `N°25`,
/// `Nº 25`, `№25`, and in full-width or other decimal digits (`２５`).
public enum PokedexNumber {
    /// The number, or nil when `text` is not one of those forms (a name, a number with words).
    public static func parse(_ text: String) -> UInt32? {
        var s = Substring(text.trimmingWhitespace().lowercased())
        for prefix in ["#", "no.", "no", "n°", "nº", "n.º", "№", "n."] where s.hasPrefix(prefix) {
            s = s.dropFirst(prefix.count)
            break
        }
        s = s.drop { $0 == " " || $0 == "." || $0 == "\u{3000}" }
        guard !s.isEmpty, s.count <= 10 else { return nil }
        var value: UInt64 = 0
        for ch in s {
            // Decimal digits of any script (ASCII, full-width, Arabic-Indic…), not ① or ½.
            guard ch.unicodeScalars.count == 1, ch.unicodeScalars.first!.properties.numericType == .decimal,
                  let d = ch.wholeNumberValue else { return nil }
            value = value * 10 + UInt64(d)
        }
        return value <= UInt64(UInt32.max) ? UInt32(value) : nil
    }
}

extension String {
    /// Without leading and trailing white space (PokedexModels links no Foundation).
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let end = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[start...end])
    }
}

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
    public static let fallbackIcons = ["accessories-dictionary", "image-x-generic"]

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

    public static let favorite = KRunnerAction(id: "favorite", text: "Add to favorites", icon: "starred")
    public static let unfavorite = KRunnerAction(id: "unfavorite", text: "Remove from favorites", icon: "non-starred")
    public static let copySpritePath = KRunnerAction(id: "copy-sprite-path", text: "Copy the sprite's path", icon: "edit-copy")
    public static let open = KRunnerAction(id: "open", text: "Open in the Pokédex", icon: "document-open")
    /// Every action, for `Actions()`.
    public static let every = [favorite, unfavorite, copySpritePath, open]
    /// The ones that make sense for a match.
    public static func all(favorite: Bool) -> [KRunnerAction] { [favorite ? unfavorite : Self.favorite, copySpritePath, open] }
}

/// The confinement pokedexd runs under, as `Status` reports it: Landlock's ABI and the rights
/// it restricts, and whether the service manager gave it namespaces of its own.
public struct SandboxStatus: Equatable, Sendable {
    /// The kernel's Landlock ABI; 0 when Landlock is absent or disabled.
    public var landlockABI: Int
    /// What Landlock restricts, of `files`, `tcp` and `scopes`.
    public var restricted: [String]
    /// What this kernel's ABI cannot restrict, with the ABI that brings it (`tcp: needs ABI 4`);
    /// or why Landlock is not in effect at all.
    public var missing: [String]
    /// Whether it runs in a user namespace of its own (the unit's namespace options applied).
    public var namespaces: Bool

    public init(landlockABI: Int = 0, restricted: [String] = [], missing: [String] = [], namespaces: Bool = false) {
        self.landlockABI = landlockABI
        self.restricted = restricted
        self.missing = missing
        self.namespaces = namespaces
    }

    /// `landlock ABI 7 (files, tcp, scopes); namespaces: yes`, or
    /// `no landlock (landlock is not in this kernel); namespaces: no`.
    public var summary: String {
        var landlock: String
        if restricted.isEmpty {
            landlock = "no landlock" + (missing.isEmpty ? "" : " (" + missing.joined(separator: "; ") + ")")
        } else {
            landlock = "landlock ABI \(landlockABI) (\(restricted.joined(separator: ", ")))"
            if !missing.isEmpty { landlock += ", without " + missing.joined(separator: "; ") }
        }
        return landlock + "; namespaces: " + (namespaces ? "yes" : "no")
    }
}
