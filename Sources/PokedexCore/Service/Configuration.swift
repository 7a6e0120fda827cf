import FoundationEssentials

/// Everything the service can be told. The defaults work with no configuration.
///
/// Each default is written here, once: `ServiceOptions` shows it in `--help`, the man page and the
/// README from an instance made with no arguments, and sets the fields from the command line and
/// the environment.
public struct ServiceConfiguration: Sendable {
    /// The daemon's version, reported on the bus and in the User-Agent.
    public static let version = PokedexVersion.current
    /// PokeAPI's public base URL.
    public static let defaultAPIURL = "https://pokeapi.co/api/v2"
    /// Sprite hosts allowed by default, besides the API's own host.
    public static let defaultSpriteHosts = ["raw.githubusercontent.com"]
    /// PokeAPI's pattern for the default sprite; `{id}` stands for the Pokémon's id.
    public static let defaultSpriteURLTemplate = "https://raw.githubusercontent.com/PokeAPI/sprites/master/sprites/pokemon/{id}.png"

    /// Base URL of the API, without a trailing slash.
    public var apiURL = ServiceConfiguration.defaultAPIURL {
        didSet { apiURL = Self.withoutTrailingSlash(apiURL) }
    }
    /// Hosts sprites may be fetched from (the API host is always allowed).
    public var spriteHosts = ServiceConfiguration.defaultSpriteHosts
    /// Where a default sprite is guessed to be before a `pokemon` body names it; nil for the
    /// default pattern, which the bodies seen so far may refine.
    public var spriteURLTemplate: String?
    /// `$XDG_CACHE_HOME/pokedex`, made absolute once, at start.
    public var cacheDirectory = XDGPaths.absolute(XDGPaths.cacheHome() + "/pokedex")
    /// `$XDG_DATA_HOME/pokedex`, the same.
    public var dataDirectory = XDGPaths.absolute(XDGPaths.dataHome() + "/pokedex")
    /// Memory tier cap in bytes.
    public var memoryCacheBytes = 32 << 20
    /// Disk tier cap in bytes.
    public var diskCacheBytes = 256 << 20
    /// A caller gets an answer or an error within this many seconds.
    public var requestDeadline = ServiceDefaults.callDeadline
    /// Most concurrent requests per host; prefetching uses at most this minus two.
    public var maxHostConnections = 6
    /// Most requests in flight at once, over every host (callers always keep room).
    public var maxRequests = 64
    /// Pokémon a `Sync` fetches at once, each with one or two requests in flight: the
    /// politeness cap (PokeAPI's fair-use policy asks clients to cache and not to hammer it).
    public var syncParallel = 32
    /// Certificates trusted instead of the system's (a self-hosted mirror); nil for the system's.
    public var caFile: String?
    /// Seconds without calls before the service exits (D-Bus activation restarts it); 0 never.
    public var idleTimeout = 300.0
    /// Whether anything is fetched in the background: pages ahead and their sprites, the
    /// warm start (connections to both hosts, search filters).
    public var prefetch = true
    /// Whether adding or removing a favorite shows a desktop notification.
    public var notifications = true
    /// Whether the service confines itself with Landlock (and then refuses itself new Unix sockets).
    public var landlock = true
    /// Whether debug lines are logged too: every request, what was not found.
    public var verbose = false
    /// pokedex-sandbox-setup's probe (`--check-folders TOKEN`): check the folders and exit.
    public var folderCheckToken: String?
    /// `--launcher`: be pokedexd's launcher (`io.github.pokedexd.Launcher1`, D-Bus activated)
    /// rather than the service.
    public var launcher = false
    /// How long a 404 is remembered, in seconds.
    public var notFoundTTL = 3600.0
    /// What every retry pause, backoff and probe schedule is multiplied by (``NetworkSchedule``,
    /// `Sync`'s pauses): 1 for a service, below 1 for the project's tests alone.
    public var scheduleScale = 1.0
    /// The sandbox the daemon put itself in, for `Status`.
    public var sandbox = SandboxStatus()
    /// What the journal is told once the service starts: settings from the environment that
    /// were ignored, and why.
    public var startupWarnings: [String] = []
    /// The language names are shown in on the desktop (GNOME Shell, KRunner, notifications):
    /// a PokeAPI code, English where a name has none in it (``NameLanguage``).
    public var language = "en"

    /// The defaults, with what is given changed (the tests' and the bench's shorthand).
    public init(
        apiURL: String? = nil,
        spriteHosts: [String]? = nil,
        cacheDirectory: String? = nil,
        dataDirectory: String? = nil,
        memoryCacheBytes: Int? = nil,
        diskCacheBytes: Int? = nil,
        requestDeadline: Double? = nil,
        notFoundTTL: Double? = nil,
        spriteURLTemplate: String? = nil,
        maxHostConnections: Int? = nil,
        prefetch: Bool? = nil,
        maxRequests: Int? = nil,
        syncParallel: Int? = nil
    ) {
        if let apiURL { self.apiURL = Self.withoutTrailingSlash(apiURL) }
        if let spriteHosts { self.spriteHosts = spriteHosts }
        if let cacheDirectory { self.cacheDirectory = cacheDirectory }
        if let dataDirectory { self.dataDirectory = dataDirectory }
        if let memoryCacheBytes { self.memoryCacheBytes = memoryCacheBytes }
        if let diskCacheBytes { self.diskCacheBytes = diskCacheBytes }
        if let requestDeadline { self.requestDeadline = requestDeadline }
        if let notFoundTTL { self.notFoundTTL = notFoundTTL }
        self.spriteURLTemplate = spriteURLTemplate
        if let maxHostConnections { self.maxHostConnections = maxHostConnections }
        if let prefetch { self.prefetch = prefetch }
        if let maxRequests { self.maxRequests = maxRequests }
        if let syncParallel { self.syncParallel = syncParallel }
    }

    static func withoutTrailingSlash(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
