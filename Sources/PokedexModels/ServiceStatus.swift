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
    /// What is wrong with the favorites file, in the service's words; "" when nothing is.
    public var favoritesProblem = ""
    /// False while the favorites file can be neither read nor changed (``favoritesProblem`` says why).
    public var favoritesReadable = true

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
    /// Whether it runs as pokedex-fallback.service: pokedex.service could not start with the
    /// namespace sandbox installed for it (the kernel refuses user namespaces now).
    public var fallback = false
    /// Whether it refuses itself new Unix sockets (a seccomp filter applied once the bus, the
    /// notify socket and the journal's stream were open): nothing it runs can reach another
    /// service on this machine through one.
    public var unixSocketsClosed = false

    public init(landlockABI: Int = 0, restricted: [String] = [], missing: [String] = [], namespaces: Bool = false) {
        self.landlockABI = landlockABI
        self.restricted = restricted
        self.missing = missing
        self.namespaces = namespaces
    }

    /// `landlock ABI 7 (files, tcp, scopes); no new unix sockets; namespaces: yes`, or
    /// `no landlock (landlock is not in this kernel); namespaces: no`.
    public var summary: String { summary(.english) }

    /// ``summary`` in `words`: `Landlock-ABI 7 (Dateien, TCP, Bereiche); Namensräume: nein`.
    public func summary(_ words: Words) -> String {
        let M = ServiceMessages.self
        let named = [("files", M.landlockFiles), ("tcp", M.landlockTCP), ("scopes", M.landlockScopes)]
        let what = restricted.map { r in named.first { $0.0 == r }.map { words.tr($0.1) } ?? r }.joined(separator: ", ")
        let why = missing.map { ServiceMessages.translate($0, words) }.joined(separator: "; ")
        let landlock = restricted.isEmpty ? (missing.isEmpty ? words.tr(M.noLandlock) : words.trf(M.noLandlockBecause, why))
            : missing.isEmpty ? words.trf(M.landlock, String(landlockABI), what) : words.trf(M.landlockWithout, String(landlockABI), what, why)
        return landlock + (unixSocketsClosed ? "; " + words.tr(M.noNewUnixSockets) : "") + "; " + (fallback ? words.tr(M.namespacesFallback) : words.trf(M.namespaces, words.tr(namespaces ? M.yes : M.no)))
    }
}
