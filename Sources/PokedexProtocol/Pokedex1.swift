import PokedexModels

/// `io.github.pokedexd.Pokedex1`: every member the service publishes, described once.
///
/// The server builds its vtable from ``interface`` and registers one handler per method;
/// the client's typed calls and pokectl use the same descriptions; the tests compare
/// `dbus/io.github.pokedexd.Pokedex1.xml` and the live `Introspect` with ``interface``.
/// Adding a member means a line here, a handler, and its tests.
public enum Pokedex1 {
    /// The well-known bus name on the session bus.
    public static let busName = "io.github.pokedexd.Pokedex1"
    /// The one object.
    public static let objectPath = "/io/github/pokedexd/Pokedex1"
    /// The interface's name.
    public static let interfaceName = "io.github.pokedexd.Pokedex1"

    /// The errors every member that takes a Pokémon may answer with.
    static let lookupErrors: [PokedexError.Kind] = [.notFound, .invalidArgument, .unavailable]

    // MARK: Methods

    /// A page of the list, of a search or of the desktop's results: how many in all, and this
    /// page's entries.
    static let page = Fields.two("total", Coding.uint32, "entries", Coding.entries)
        .map({ ListPage(total: $0.0, entries: $0.1) }, { ($0.total, $0.entries) })

    /// The Pokémon list in the API's order. limit: 1…100.
    public static let listPage = Method(
        "ListPage", args: .two("offset", Coding.uint32, "limit", Coding.uint32),
        reply: page,
        errors: [.invalidArgument, .unavailable])

    /// One Pokémon's types, stats, sizes, genus, flavour text, sprite and colour.
    public static let detail = Method(
        "Detail", args: .one("pokemon", Coding.argument), reply: .one("detail", Coding.detail), errors: lookupErrors)

    /// ``detail`` in a language: "" (the service's, from its session's locale), a PokeAPI code
    /// ("de", "ja-hrkt") or a locale ("de_DE.UTF-8"). The genus and flavour text are in it, and
    /// `display_name`, `type_names`, `ability_names` and `stat_names` are added, each in English
    /// where the API has none in it; `language` says which. Identifiers stay as ``detail`` gives them.
    public static let localizedDetail = Method(
        "LocalizedDetail", args: .two("pokemon", Coding.argument, "language", Coding.language),
        reply: .one("detail", Coding.detail), errors: lookupErrors)

    /// The moves one Pokémon learns in one game (`game` "": the newest it has moves in; a version
    /// group, a version, or a game's name in any language), by `method` ("" for level-up,
    /// machine, egg and tutor), with each move's name, type and category in `language` (as
    /// ``localizedDetail`` takes it), power, accuracy and PP. Its own member: the card's round
    /// trip stays small.
    public static let moves = Method(
        "Moves", args: .four("pokemon", Coding.argument, "game", Coding.argument, "method", Coding.learnMethod, "language", Coding.language),
        reply: .one("moves", Coding.moveTable), errors: lookupErrors)

    /// Names as the games write them, in a language as ``localizedDetail`` takes it, for the
    /// ids asked (at most 4096), in their order; an id that is no Pokémon is left out. Never
    /// waits on the network: the service ships every name.
    public static let displayNames = Method(
        "DisplayNames", args: .two("ids", Coding.ids, "language", Coding.language),
        reply: .one("names", Coding.displayNames), errors: [.invalidArgument, .unavailable])

    /// By name (any language) or number, with typos forgiven; `type:` and `gen:` filter.
    public static let search = Method(
        "Search", args: .two("query", Coding.argument, "limit", Coding.uint32), reply: .one("results", Coding.entries),
        errors: [.invalidArgument, .unavailable])

    /// ``search`` with the reason for each result.
    public static let searchDetailed = Method(
        "SearchDetailed", args: .two("query", Coding.argument, "limit", Coding.uint32),
        reply: .one("results", Coding.searchMatches), errors: [.invalidArgument, .unavailable])

    /// ``search`` a page at a time, with how many match in all, as ``listPage`` pages the list
    /// (`Search` stops at 100). limit: 1…100; an offset at or past total gives an empty list.
    public static let searchPage = Method(
        "SearchPage", args: .three("query", Coding.argument, "offset", Coding.uint32, "limit", Coding.uint32),
        reply: page,
        errors: [.invalidArgument, .unavailable])

    /// What the desktop's search finds for `terms` (GNOME Shell's `GetInitialResultSet`,
    /// KRunner's `Match`), a page at a time as ``searchPage``: every term must match, species
    /// first, at most 20. `pokectl browse --desktop-search` lists it, so that a launch from the
    /// shell shows the list the shell showed.
    public static let desktopSearchPage = Method(
        "DesktopSearchPage", args: .three("terms", DesktopCoding.terms, "offset", Coding.uint32, "limit", Coding.uint32),
        reply: page,
        errors: [.invalidArgument, .unavailable])

    /// Flips the favorite; durable before the reply. Returns the new state.
    public static let toggleFavorite = Method(
        "ToggleFavorite", args: .one("pokemon", Coding.argument), reply: .one("favorite", Coding.bool),
        errors: lookupErrors + [.storage])

    /// Sets the favorite; idempotent; durable before the reply.
    public static let setFavorite = Method(
        "SetFavorite", args: .two("pokemon", Coding.argument, "favorite", Coding.bool), reply: .none,
        errors: lookupErrors + [.storage])

    /// Adds, removes or toggles a favorite in one call, and says what it did: the API name,
    /// the state after, and whether this call changed it. Durable before the reply.
    public static let changeFavorite = Method(
        "ChangeFavorite", args: .two("pokemon", Coding.argument, "action", Coding.favoriteAction),
        reply: Fields.four("id", Coding.uint32, "name", Coding.string, "favorite", Coding.bool, "changed", Coding.bool)
            .map({ FavoriteUpdate(id: $0.0, name: $0.1, favorite: $0.2, changed: $0.3) }, { ($0.id, $0.name, $0.favorite, $0.changed) }),
        errors: lookupErrors + [.storage])

    /// Favorites in the order they were added.
    public static let listFavorites = Method(
        "ListFavorites", args: .none, reply: .one("favorites", Coding.entries), errors: [])

    /// Fetches the default sprite if needed; returns its absolute path.
    public static let spritePath = Method(
        "SpritePath", args: .one("pokemon", Coding.argument), reply: .one("path", Coding.string), errors: lookupErrors)

    /// Fetches the cry (`cries.latest`, Ogg Vorbis) if needed; returns its absolute path, for a
    /// player (`pokectl cry`, `pw-play`, `paplay`).
    public static let cryPath = Method(
        "CryPath", args: .one("pokemon", Coding.argument), reply: .one("path", Coding.string), errors: lookupErrors)

    /// A Pokémon at random among those whose sprite is cached (every Pokémon, or only the
    /// favorites), with its sprite's path: the shiny one with probability `shiny_chance`,
    /// where one is cached. Never waits on the network while the cache holds a candidate.
    public static let randomSprite = Method(
        "RandomSprite", args: .two("favorites", Coding.bool, "shiny_chance", Coding.double),
        reply: Fields.four("id", Coding.uint32, "name", Coding.string, "path", Coding.string, "shiny", Coding.bool)
            .map({ RandomSprite(id: $0.0, name: $0.1, path: $0.2, shiny: $0.3) }, { ($0.id, $0.name, $0.path, $0.shiny) }),
        errors: [.notFound, .invalidArgument, .unavailable])

    /// Version, API, cache tiers, favorites, online.
    public static let status = Method("Status", args: .none, reply: .one("status", Coding.status), errors: [])

    /// Fetches everything needed offline; replies with (complete, failed).
    public static let sync = Method(
        "Sync", args: .none,
        reply: Fields.two("complete", Coding.uint32, "failed", Coding.uint32)
            .map({ SyncResult(complete: $0.0, failed: $0.1) }, { ($0.complete, $0.failed) }),
        errors: [])

    /// What the disk cache holds, by kind: count, bytes, oldest and newest fetched-at, how
    /// many are stale now; the files, bytes and cap in all; the memory tier's entries and bytes.
    public static let cacheStats = Method(
        "CacheStats", args: .none, reply: .one("stats", Coding.cacheStats), errors: [.storage])

    /// Reads every record and checks every sprite against its metadata record; removes and
    /// fetches again what is damaged; removes files that belong to nothing. Takes as long as
    /// the cache is big.
    public static let verifyCache = Method(
        "VerifyCache", args: .none, reply: .one("report", Coding.cacheVerification), errors: [.storage])

    /// Empties the disk cache and the memory tier; favorites are kept. Replies with the files
    /// and bytes removed.
    public static let clearCache = Method(
        "ClearCache", args: .none,
        reply: Fields.two("files", Coding.uint64, "bytes", Coding.uint64)
            .map({ CacheClearResult(files: Int(clamping: $0.0), bytes: Int(clamping: $0.1)) },
                 { (UInt64(max(0, $0.files)), UInt64(max(0, $0.bytes))) }),
        errors: [.storage])

    // MARK: Signals

    /// Sent after every durable favorites change, whichever client made it.
    public static let favoriteChanged = Signal(
        "FavoriteChanged", values: .three("id", Coding.uint32, "name", Coding.string, "favorite", Coding.bool))
    /// Sent after `ClearCache` emptied the cache, whichever client asked: every sprite path a
    /// client holds is gone, and what it shows is to be asked again.
    public static let cacheCleared = Signal("CacheCleared", values: .none)
    /// Sent just before the service releases its name. `reason` is ``StopReason/idle`` (no call
    /// for the idle timeout: the next call starts it again, and nothing it answered has
    /// changed) or ``StopReason/stop`` (it was told to stop: SIGTERM, `systemctl --user stop`).
    /// A widget keeps what it shows across an idle exit and says "unavailable" after a stop.
    public static let stopping = Signal("Stopping", values: .one("reason", Coding.string))

    /// Why the service is leaving, as ``stopping`` says it.
    public enum StopReason: String, Sendable {
        case idle, stop
    }

    // MARK: Properties

    /// Favorite ids in the order added.
    public static let favorites = Property("Favorites", Coding.uint32Array, change: .emits)
    /// Whether the network answers.
    public static let online = Property("Online", Coding.bool, change: .emits)
    /// (done, total) of the sync under way, or of the last one.
    public static let syncProgress = Property("SyncProgress", Coding.uint32Pair, change: .emits)
    /// How the sync under way, or the last one, stands: `idle` (none since the start),
    /// `running`, `done`, `failed` (done, some Pokémon not) or `cancelled` (its caller left).
    public static let syncState = Property("SyncState", Coding.string, change: .emits)
    /// (species whose localized names are searchable, species listed).
    public static let searchCoverage = Property("SearchCoverage", Coding.uint32Pair, change: .none)
    public static let version = Property("Version", Coding.string, change: .const)
    public static let apiURL = Property("ApiUrl", Coding.string, change: .const)

    /// The whole interface, in vtable order.
    public static let interface = Interface(name: interfaceName, objectPath: objectPath, listing: [
        listPage.member, detail.member, search.member, searchDetailed.member, searchPage.member, desktopSearchPage.member, toggleFavorite.member, setFavorite.member,
        changeFavorite.member, listFavorites.member, spritePath.member, randomSprite.member, status.member, sync.member,
        cacheStats.member, verifyCache.member, clearCache.member, localizedDetail.member, displayNames.member, cryPath.member,
        moves.member,
        favoriteChanged.member, cacheCleared.member, stopping.member,
        favorites.member, online.member, syncProgress.member, syncState.member, searchCoverage.member, version.member, apiURL.member,
    ])
}

/// The freedesktop.org interfaces every object has, as clients call them.
public enum FreedesktopBus {
    public static let properties = "org.freedesktop.DBus.Properties"
    public static let propertiesChanged = "PropertiesChanged"
    public static let peer = "org.freedesktop.DBus.Peer"
    public static let introspectable = "org.freedesktop.DBus.Introspectable"
    public static let daemonName = "org.freedesktop.DBus"
    public static let daemonPath = "/org/freedesktop/DBus"
    /// The bus daemon's members the service and its clients use.
    public static let getNameOwner = "GetNameOwner"
    public static let nameOwnerChanged = "NameOwnerChanged"
    public static let getConnectionUnixProcessID = "GetConnectionUnixProcessID"
}
