#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// Everything the service can be told. The defaults work with no configuration.
public struct ServiceConfiguration: Sendable {
    /// The daemon's version, reported on the bus and in the User-Agent.
    public static let version = PokedexVersion.current
    /// PokeAPI's public base URL.
    public static let defaultAPIURL = "https://pokeapi.co/api/v2"
    /// Sprite hosts allowed by default, besides the API's own host.
    public static let defaultSpriteHosts = ["raw.githubusercontent.com"]

    /// Base URL of the API, without a trailing slash.
    public var apiURL: String
    /// PokeAPI's pattern for the default sprite; `{id}` stands for the Pokémon's id.
    public static let defaultSpriteURLTemplate = "https://raw.githubusercontent.com/PokeAPI/sprites/master/sprites/pokemon/{id}.png"

    /// Where a default sprite is guessed to be before a `pokemon` body names it; nil for the
    /// default pattern, which the bodies seen so far may refine.
    public var spriteURLTemplate: String?
    /// Most concurrent requests per host; prefetching uses at most this minus two.
    public var maxHostConnections: Int
    /// Whether anything is fetched in the background: pages ahead and their sprites, the
    /// warm start (connections to both hosts, search filters).
    public var prefetch: Bool
    /// Most requests in flight at once, over every host (callers always keep room).
    public var maxRequests: Int
    /// Pokémon a `Sync` fetches at once, each with one or two requests in flight: the
    /// politeness cap (PokeAPI's fair-use policy asks clients to cache and not to hammer it).
    public var syncParallel: Int
    /// Hosts sprites may be fetched from (the API host is always allowed).
    public var spriteHosts: [String]
    /// `$XDG_CACHE_HOME/pokedex`.
    public var cacheDirectory: String
    /// `$XDG_DATA_HOME/pokedex`.
    public var dataDirectory: String
    /// The sandbox the daemon put itself in, for `Status`.
    public var sandbox = SandboxStatus()
    /// Memory tier cap in bytes.
    public var memoryCacheBytes: Int
    /// Disk tier cap in bytes.
    public var diskCacheBytes: Int
    /// A caller gets an answer or an error within this many seconds.
    public var requestDeadline: Double
    /// How long a 404 is remembered, in seconds.
    public var notFoundTTL: Double
    /// The language names are shown in on the desktop (GNOME Shell, KRunner, notifications):
    /// a PokeAPI code, English where a name has none in it (``NameLanguage``).
    public var language = "en"

    public init(
        apiURL: String = ServiceConfiguration.defaultAPIURL,
        spriteHosts: [String] = ServiceConfiguration.defaultSpriteHosts,
        cacheDirectory: String = XDGPaths.cacheHome() + "/pokedex",
        dataDirectory: String = XDGPaths.dataHome() + "/pokedex",
        memoryCacheBytes: Int = 32 << 20,
        diskCacheBytes: Int = 256 << 20,
        requestDeadline: Double = ServiceDefaults.callDeadline,
        notFoundTTL: Double = 3600,
        spriteURLTemplate: String? = nil,
        maxHostConnections: Int = 6,
        prefetch: Bool = true,
        maxRequests: Int = 64,
        syncParallel: Int = 32
    ) {
        self.prefetch = prefetch
        self.maxRequests = maxRequests
        self.syncParallel = syncParallel
        self.spriteURLTemplate = spriteURLTemplate
        self.maxHostConnections = maxHostConnections
        var url = apiURL
        while url.hasSuffix("/") { url.removeLast() }
        self.apiURL = url
        self.spriteHosts = spriteHosts
        self.cacheDirectory = cacheDirectory
        self.dataDirectory = dataDirectory
        self.memoryCacheBytes = memoryCacheBytes
        self.diskCacheBytes = diskCacheBytes
        self.requestDeadline = requestDeadline
        self.notFoundTTL = notFoundTTL
    }
}

/// The XDG base directories, with the specification's fallbacks.
public enum XDGPaths {
    static func env(_ name: String) -> String? {
        guard let v = ProcessInfo.processInfo.environment[name], v.hasPrefix("/") else { return nil }
        return v
    }
    static var home: String {
        if let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty { return home }
        // As glibc's tools do without $HOME: the password database's entry.
        if let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir { return String(cString: dir) }
        return "/"
    }

    /// `$XDG_CACHE_HOME`, or `~/.cache`.
    public static func cacheHome() -> String { env("XDG_CACHE_HOME") ?? home + "/.cache" }
    /// `$XDG_DATA_HOME`, or `~/.local/share`.
    public static func dataHome() -> String { env("XDG_DATA_HOME") ?? home + "/.local/share" }

    /// `path` made absolute once, at start, against `directory` (the working directory): a
    /// relative `--cache-dir cache` means `$PWD/cache`, whatever the service's directory later.
    /// `.` and `..` components are resolved by name, without following links.
    public static func absolute(_ path: String, from directory: String = FileManager.default.currentDirectoryPath) -> String {
        let joined = path.hasPrefix("/") ? path : directory + "/" + path
        var parts: [Substring] = []
        for part in joined.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
