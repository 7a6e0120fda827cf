import FoundationEssentials

/// One option of `pokedexd`, written once: its flag, its environment variable, the values it
/// takes, its help, and the field of ``ServiceConfiguration`` it sets. The parser
/// (``ServiceOptions/parse(_:environment:)``), `--help`, the man page's OPTIONS and ENVIRONMENT
/// and the README's configuration table are all made from ``ServiceOptions/all``.
public struct ServiceOption: Sendable {
    /// What an option takes, and so how its text is read and checked.
    public enum Kind: Sendable {
        /// Any text (a path is made absolute where the field needs it).
        case text
        /// A host; repeatable on the command line, comma-separated in the environment.
        case hosts
        /// A whole number in this range.
        case count(ClosedRange<Int>)
        /// A finite number of seconds in this range.
        case seconds(ClosedRange<Double>)
        /// yes or no (also y/n, true/false, on/off, 1/0).
        case yesNo
        /// `--name` and `--no-name`; in the environment, yes or no.
        case toggle
        /// `--name` alone; in the environment, yes or no.
        case flag
    }

    /// The long flag, without its dashes.
    public let name: String
    /// The one-letter flag, if any.
    public let short: Character?
    /// The environment variable read when the flag is not given.
    public let environment: String?
    public let kind: Kind
    /// What the value is, as `--help` and the man page name it (URL, DIR, N, SECONDS).
    public let valueName: String
    /// What it does, in a sentence or two: `--help`, the man page and the README say this.
    public let help: String
    /// pokedex-sandbox-setup's own options, left out of the help and the docs.
    public let hidden: Bool
    /// The default as shown, read from a configuration with nothing set (nil: none to show).
    let shown: @Sendable (ServiceConfiguration) -> String?
    /// Sets the field from a value that has been read and checked.
    let set: @Sendable (inout ServiceConfiguration, OptionValue) -> Void

    init(_ name: String, short: Character? = nil, env: String?, _ kind: Kind, valueName: String = "",
         help: String, hidden: Bool = false,
         shown: @escaping @Sendable (ServiceConfiguration) -> String? = { _ in nil },
         set: @escaping @Sendable (inout ServiceConfiguration, OptionValue) -> Void) {
        self.name = name
        self.short = short
        self.environment = env
        self.kind = kind
        self.valueName = valueName
        self.help = help
        self.hidden = hidden
        self.shown = shown
        self.set = set
    }

    /// The default as `--help` shows it.
    public var defaultText: String? { shown(ServiceOptions.documented) }

    /// Whether it takes a value after the flag.
    public var takesValue: Bool {
        switch kind {
        case .toggle, .flag: false
        default: true
        }
    }
}

/// A value read from the command line or the environment, checked against its option's kind.
enum OptionValue: Sendable {
    case text(String)
    case list([String])
    case count(Int)
    case seconds(Double)
    case yes(Bool)

    var text: String { if case .text(let t) = self { t } else { "" } }
    var list: [String] { if case .list(let l) = self { l } else { [] } }
    var count: Int { if case .count(let n) = self { n } else { 0 } }
    var seconds: Double { if case .seconds(let s) = self { s } else { 0 } }
    var yes: Bool { if case .yes(let b) = self { b } else { false } }
}

/// Every option of `pokedexd`, in the order `--help` lists them.
public enum ServiceOptions {
    /// A configuration with nothing set, its folders named as the documentation names them.
    static let documented = ServiceConfiguration(cacheDirectory: "$XDG_CACHE_HOME/pokedex",
                                                 dataDirectory: "$XDG_DATA_HOME/pokedex")

    public static let all: [ServiceOption] = [
        ServiceOption("api-url", env: "POKEDEX_API_URL", .text, valueName: "URL",
                      help: "PokeAPI's base URL.",
                      shown: { $0.apiURL }, set: { $0.apiURL = $1.text }),
        ServiceOption("sprite-host", env: "POKEDEX_SPRITE_HOSTS", .hosts, valueName: "HOST",
                      help: "A host sprites may be fetched from, besides the API's own; repeat for more (comma-separated in the environment). Redirects and sprite URLs outside these hosts are refused.",
                      shown: { $0.spriteHosts.joined(separator: ",") }, set: { $0.spriteHosts = $1.list }),
        ServiceOption("sprite-url-template", env: "POKEDEX_SPRITE_URL_TEMPLATE", .text, valueName: "URL",
                      help: "Where a default sprite is before a body names it; {id} is the Pokémon's id. By default, PokeAPI's pattern on raw.githubusercontent.com, refined by the bodies seen.",
                      set: { $0.spriteURLTemplate = $1.text }),
        ServiceOption("cache-dir", env: "POKEDEX_CACHE_DIR", .text, valueName: "DIR",
                      help: "The cache: records and sprites, safe to delete.",
                      shown: { $0.cacheDirectory }, set: { $0.cacheDirectory = XDGPaths.absolute($1.text) }),
        ServiceOption("data-dir", env: "POKEDEX_DATA_DIR", .text, valueName: "DIR",
                      help: "Where favorites live; never in the cache.",
                      shown: { $0.dataDirectory }, set: { $0.dataDirectory = XDGPaths.absolute($1.text) }),
        ServiceOption("memory-cache-mib", env: "POKEDEX_MEMORY_CACHE_MIB", .count(1...1_048_576), valueName: "MIB",
                      help: "The memory tier's cap, in MiB.",
                      shown: { "\($0.memoryCacheBytes >> 20)" }, set: { $0.memoryCacheBytes = $1.count << 20 }),
        ServiceOption("disk-cache-mib", env: "POKEDEX_DISK_CACHE_MIB", .count(1...16_777_216), valueName: "MIB",
                      help: "The disk tier's cap, in MiB.",
                      shown: { "\($0.diskCacheBytes >> 20)" }, set: { $0.diskCacheBytes = $1.count << 20 }),
        ServiceOption("timeout", env: "POKEDEX_TIMEOUT", .seconds(0.001...31_536_000), valueName: "SECONDS",
                      help: "Every call is answered or fails within this time, across every fetch it chains; one that runs out answers Unavailable, naming the step it waited for.",
                      shown: { Self.number($0.requestDeadline) }, set: { $0.requestDeadline = $1.seconds }),
        ServiceOption("max-host-connections", env: "POKEDEX_MAX_HOST_CONNECTIONS", .count(1...65_535), valueName: "N",
                      help: "Connections to a host that speaks HTTP/1.1; an HTTP/2 host gets one, multiplexed.",
                      shown: { "\($0.maxHostConnections)" }, set: { $0.maxHostConnections = $1.count }),
        ServiceOption("max-requests", env: "POKEDEX_MAX_REQUESTS", .count(1...1024), valueName: "N",
                      help: "Requests in flight at once, over every host; callers always keep room.",
                      shown: { "\($0.maxRequests)" }, set: { $0.maxRequests = $1.count }),
        ServiceOption("sync-parallel", env: "POKEDEX_SYNC_PARALLEL", .count(1...256), valueName: "N",
                      help: "Pokémon a sync fetches at once, each with one or two requests in flight: the politeness cap toward PokeAPI.",
                      shown: { "\($0.syncParallel)" }, set: { $0.syncParallel = $1.count }),
        ServiceOption("ca-file", env: "POKEDEX_CA_FILE", .text, valueName: "PEM",
                      help: "Trust the certificates in this PEM file instead of the system's (a self-hosted mirror); TLS is always verified.",
                      set: { $0.caFile = $1.text }),
        ServiceOption("idle-timeout", env: "POKEDEX_IDLE_TIMEOUT", .seconds(0...31_536_000), valueName: "SECONDS",
                      help: "Exit after this long without calls (D-Bus activation starts it again); 0 never.",
                      shown: { Self.number($0.idleTimeout) }, set: { $0.idleTimeout = $1.seconds }),
        ServiceOption("notify", env: "POKEDEX_NOTIFY", .yesNo, valueName: "yes|no",
                      help: "A desktop notification when a favorite is added or removed.",
                      shown: { Self.yesNo($0.notifications) }, set: { $0.notifications = $1.yes }),
        ServiceOption("landlock", env: "POKEDEX_LANDLOCK", .yesNo, valueName: "yes|no",
                      help: "Confine the service with Landlock (files, TCP ports, signals) where the kernel has it. No is for finding out whether the sandbox is in the way; the unit's own options still apply.",
                      shown: { Self.yesNo($0.landlock) }, set: { $0.landlock = $1.yes }),
        ServiceOption("prefetch", env: "POKEDEX_PREFETCH", .toggle,
                      help: "Fetch the next pages and their sprites in the background, and warm up at start; --no-prefetch fetches only what is asked for.",
                      shown: { Self.yesNo($0.prefetch) }, set: { $0.prefetch = $1.yes }),
        ServiceOption("verbose", short: "v", env: "POKEDEX_VERBOSE", .flag,
                      help: "Log every request (its URL, status, size and time) and what was not found, besides what a person needs to act on.",
                      shown: { Self.yesNo($0.verbose) }, set: { $0.verbose = $1.yes }),
        ServiceOption("test-schedule-scale", env: "POKEDEX_TEST_SCHEDULE_SCALE", .seconds(0.0001...1), valueName: "FACTOR",
                      help: "For the project's tests only: every retry pause, backoff and probe schedule multiplied by this, so that a test waits out no real backoff (a deadline is not shortened). A service keeps 1.",
                      shown: { Self.number($0.scheduleScale) }, set: { $0.scheduleScale = $1.seconds }),
        ServiceOption("check-folders", env: nil, .text, valueName: "TOKEN",
                      help: "For pokedex-sandbox-setup's probe: confined as the service, read TOKEN from the cache's .sandbox-TOKEN, write it to the data folder's, and exit.",
                      hidden: true, set: { $0.folderCheckToken = $1.text }),
        ServiceOption("launcher", env: nil, .flag,
                      help: "For D-Bus activation only (io.github.pokedexd.Launcher1.service): open the terminals the service asks for, outside its sandbox, where no user manager does; exit when idle.",
                      hidden: true, set: { $0.launcher = $1.yes }),
    ]

    /// What `--help` says first.
    public static let overview = "The Pokédex service: publishes io.github.pokedexd.Pokedex1 on the session bus."
    public static let discussion = """
        Every option falls back to the environment variable named in its help, then to its \
        default. The defaults work with no configuration. Usually started by systemd \
        (systemctl --user start pokedex) or on demand by D-Bus activation.
        """

    static func number(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    }

    static func yesNo(_ value: Bool) -> String { value ? "yes" : "no" }
}
