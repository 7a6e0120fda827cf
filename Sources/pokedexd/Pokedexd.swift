import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import PokedexProtocol
import PokedexBusServer
import PokedexCore
import PokedexCurl
import PokedexLocale
import PokedexEventLoop
import PokedexModels
import PokedexPNG

/// `pokedexd`: the Pokédex service on the session bus.
@main
struct Pokedexd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pokedexd",
        abstract: "The Pokédex service: publishes io.github.pokedexd.Pokedex1 on the session bus.",
        discussion: """
            Every option falls back to the environment variable named in its help, then to its default. \
            The defaults work with no configuration. Usually started by systemd (systemctl --user start pokedex) \
            or on demand by D-Bus activation.

            FILES
              $XDG_CACHE_HOME/pokedex/v1    the cache (records/, sprites/); safe to delete
              $XDG_DATA_HOME/pokedex        favorites.json; never in the cache
            """,
        version: ServiceConfiguration.version)

    @Option(help: "PokeAPI base URL. [env: POKEDEX_API_URL] (default: \(ServiceConfiguration.defaultAPIURL))")
    var apiURL: String?

    @Option(name: .customLong("sprite-host"),
            help: "A host sprites may be fetched from, besides the API's own; repeat for more. [env: POKEDEX_SPRITE_HOSTS, comma-separated] (default: raw.githubusercontent.com)")
    var spriteHosts: [String] = []

    @Option(help: "Where a default sprite is before a body names it; {id} is the Pokémon's id. [env: POKEDEX_SPRITE_URL_TEMPLATE] (default: PokeAPI's pattern on raw.githubusercontent.com, refined by the bodies seen)")
    var spriteURLTemplate: String?

    @Option(help: "Cache directory. [env: POKEDEX_CACHE_DIR] (default: $XDG_CACHE_HOME/pokedex)")
    var cacheDir: String?

    @Option(help: "Data directory, where favorites live. [env: POKEDEX_DATA_DIR] (default: $XDG_DATA_HOME/pokedex)")
    var dataDir: String?

    @Option(name: .customLong("memory-cache-mib"), help: "Memory tier cap in MiB. [env: POKEDEX_MEMORY_CACHE_MIB] (default: 32)")
    var memoryCacheMiB: Int?

    @Option(name: .customLong("disk-cache-mib"), help: "Disk tier cap in MiB. [env: POKEDEX_DISK_CACHE_MIB] (default: 256)")
    var diskCacheMiB: Int?

    @Option(help: "Seconds within which every call is answered or fails. [env: POKEDEX_TIMEOUT] (default: 10)")
    var timeout: Double?

    @Option(help: "Most connections per host. [env: POKEDEX_MAX_HOST_CONNECTIONS] (default: 6)")
    var maxHostConnections: Int?

    @Option(help: "Most requests in flight at once, over every host; callers always keep room. [env: POKEDEX_MAX_REQUESTS] (default: 64)")
    var maxRequests: Int?

    @Option(help: "Pokémon a sync fetches at once, each with one or two requests in flight: the politeness cap toward PokeAPI (at most twice this many requests). [env: POKEDEX_SYNC_PARALLEL] (default: 32)")
    var syncParallel: Int?

    @Option(help: "Trust the certificates in this PEM file instead of the system's (a self-hosted mirror); TLS is always verified. [env: POKEDEX_CA_FILE]")
    var caFile: String?

    @Option(help: "Seconds without calls before the service exits; D-Bus activation restarts it; 0 = never. [env: POKEDEX_IDLE_TIMEOUT] (default: 300)")
    var idleTimeout: Double?

    @Flag(inversion: .prefixedNo, help: "Fetch the next pages and their sprites in the background. [env: POKEDEX_PREFETCH=0 turns it off] (default: on)")
    var prefetch = true

    @Option(help: "Show a desktop notification when a favorite is added or removed: yes or no. [env: POKEDEX_NOTIFY] (default: yes)")
    var notify: String?

    @Option(help: "Confine the service with Landlock (files, TCP ports, signals) where the kernel has it: yes or no. No is for finding out whether the sandbox is in the way; the unit's own options still apply. [env: POKEDEX_LANDLOCK] (default: yes)")
    var landlock: String?

    @Option(name: .customLong("check-folders"), help: ArgumentHelp(
        "For pokedex-sandbox-setup's probe: confined as the service, read TOKEN from the cache's .sandbox-TOKEN, write it to the data folder's, and exit.",
        visibility: .hidden))
    var checkFolders: String?

    @Flag(name: .shortAndLong, help: "Log every request, not only what a person needs to act on. [env: POKEDEX_VERBOSE=1]")
    var verbose = false

    static func env(_ name: String) -> String? {
        guard let v = ProcessInfo.processInfo.environment[name], !v.isEmpty else { return nil }
        return v
    }

    static func number<T: LosslessStringConvertible>(_ flag: T?, _ name: String, _ fallback: T) throws -> T {
        if let flag { return flag }
        guard let text = env(name) else { return fallback }
        guard let v = T(text) else { throw ValidationError("\(name)=\(text) is not a number") }
        return v
    }

    /// A yes-or-no option: the flag, else the environment variable, else yes.
    static func yesOrNo(_ flag: String?, option: String, env name: String) throws -> Bool {
        let text = (flag ?? env(name) ?? "yes").lowercased()
        switch text {
        case "yes", "y", "true", "on", "1": return true
        case "no", "n", "false", "off", "0": return false
        default: throw ValidationError("--\(option) takes yes or no, not \(text)")
        }
    }

    /// `--notify`, else `POKEDEX_NOTIFY`, else yes.
    func notificationsWanted() throws -> Bool { try Self.yesOrNo(notify, option: "notify", env: "POKEDEX_NOTIFY") }

    func makeConfiguration() throws -> (ServiceConfiguration, idle: Double) {
        let api = apiURL ?? Self.env("POKEDEX_API_URL") ?? ServiceConfiguration.defaultAPIURL
        guard let u = URLComponents(string: api), ["http", "https"].contains(u.scheme ?? ""), u.host != nil else {
            throw ValidationError("the API URL \(api) is not an http(s) URL")
        }
        var hosts = spriteHosts
        if hosts.isEmpty, let e = Self.env("POKEDEX_SPRITE_HOSTS") {
            hosts = e.split(separator: ",").map { String($0.trimmingWhitespace()) }.filter { !$0.isEmpty }
        }
        if hosts.isEmpty { hosts = ServiceConfiguration.defaultSpriteHosts }
        let memory = try Self.number(memoryCacheMiB, "POKEDEX_MEMORY_CACHE_MIB", 32)
        let disk = try Self.number(diskCacheMiB, "POKEDEX_DISK_CACHE_MIB", 256)
        let deadline = try Self.number(timeout, "POKEDEX_TIMEOUT", ServiceDefaults.callDeadline)
        let maxHost = try Self.number(maxHostConnections, "POKEDEX_MAX_HOST_CONNECTIONS", 6)
        let idle = try Self.number(idleTimeout, "POKEDEX_IDLE_TIMEOUT", 300.0)
        let maxRequests = try Self.number(self.maxRequests, "POKEDEX_MAX_REQUESTS", 64)
        let syncParallel = try Self.number(self.syncParallel, "POKEDEX_SYNC_PARALLEL", 32)
        guard (1...1024).contains(maxRequests), (1...256).contains(syncParallel) else {
            throw ValidationError("--max-requests takes 1 to 1024, and --sync-parallel 1 to 256")
        }
        guard memory >= 1, disk >= 1 else { throw ValidationError("cache caps must be at least 1 MiB") }
        guard deadline > 0, maxHost >= 1, idle >= 0 else {
            throw ValidationError("--timeout and --max-host-connections must be positive, --idle-timeout not negative")
        }
        var config = ServiceConfiguration(
            apiURL: api, spriteHosts: hosts,
            cacheDirectory: XDGPaths.absolute(cacheDir ?? Self.env("POKEDEX_CACHE_DIR") ?? XDGPaths.cacheHome() + "/pokedex"),
            dataDirectory: XDGPaths.absolute(dataDir ?? Self.env("POKEDEX_DATA_DIR") ?? XDGPaths.dataHome() + "/pokedex"),
            memoryCacheBytes: memory << 20, diskCacheBytes: disk << 20, requestDeadline: deadline,
            spriteURLTemplate: spriteURLTemplate ?? Self.env("POKEDEX_SPRITE_URL_TEMPLATE"), maxHostConnections: maxHost,
            prefetch: prefetch && Self.env("POKEDEX_PREFETCH") != "0", maxRequests: maxRequests, syncParallel: syncParallel)
        // Names on the desktop in the session's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG).
        config.language = NameLanguage.fromEnvironment(ProcessInfo.processInfo.environment)
        if let t = config.spriteURLTemplate, !t.contains("{id}") {
            throw ValidationError("the sprite URL template \(t) has no {id}")
        }
        if u.scheme == "https", let t = config.spriteURLTemplate, !t.lowercased().hasPrefix("https://") {
            throw ValidationError("the sprite URL template \(t) is not https while the API is: nothing is fetched over plain http then")
        }
        return (config, idle)
    }

    func run() throws {
        // Before any other thread exists: signals go to the loop's signalfd, and curl is set up once.
        // SIGCHLD too: the loop reaps the programs the launcher starts (sd_event_add_child).
        EventLoop.blockSignals([SIGTERM, SIGINT, SIGCHLD])
        CurlHTTPClient.globalInit()
        // A fixed mmap threshold: a rare 1 MB message is mmapped and handed back on free,
        // instead of glibc raising the threshold and keeping such blocks in the heap for good.
        _ = glibcMallopt(-3 /* M_MMAP_THRESHOLD */, 128 * 1024)
        // Two heaps, not eight per core: the pool's threads take turns decoding bodies, and
        // each heap of its own would keep its high-water mark (600 calls at once: 66 → 5x MiB).
        _ = glibcMallopt(-8 /* M_ARENA_MAX */, 2)

        var (config, idle) = try makeConfiguration()
        let caFile = caFile ?? Self.env("POKEDEX_CA_FILE")
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw ValidationError("the CA file \(caFile) cannot be read")
        }
        let notifications = try notificationsWanted()
        let confine = try Self.yesOrNo(landlock, option: "landlock", env: "POKEDEX_LANDLOCK")
        let log = JournalLogger.make(verbose: verbose || Self.env("POKEDEX_VERBOSE") == "1")
        // The notifications' words in the session's language; their catalogue stays readable in the
        // sandbox. Beside the binary only: TEXTDOMAINDIR would choose what Landlock lets it read.
        let localeDirectory = Words.localeDirectory(environment: [:])
        let words = Words.gettext(localeDirectory: localeDirectory)
        // A caller's language's words (a family's conditions in `LocalizedDetail`), from the same folder.
        let catalogues = Catalogues(directory: localeDirectory)
        // Confined before any other thread exists (Landlock binds the calling thread and what it starts).
        config.sandbox = confine
            ? Landlock.apply(Landlock.policy(config, caFile: caFile, localeDirectory: localeDirectory,
                                             environment: ProcessInfo.processInfo.environment), log: log)
            : SandboxStatus(missing: [ServiceMessages.landlockOff], namespaces: Landlock.ownUserNamespace())
        if Self.env("POKEDEX_SANDBOX_FALLBACK") == "1" {
            config.sandbox.fallback = true
            log(.warning, "running as pokedex-fallback.service: pokedex.service could not start with its namespace sandbox "
                + "(has the kernel stopped allowing user namespaces? 'journalctl --user -u pokedex' says why); Landlock alone confines "
                + "the service until the next login tries the namespaces again, or run pokedex-sandbox-setup to install only what applies")
        }
        if let token = checkFolders { return try FolderCheck.run(token: token, config) }
        do {
            let loop = try EventLoop()
            // systemd's WatchdogSec=: pinged by a timer of the loop (a wedged loop is restarted).
            let watchdog = loop.enableWatchdog()
            if watchdog < 0 { log(.warning, "the service manager's watchdog could not be armed (errno \(Int(-watchdog))); running without it") }
            // Every Unix socket it will need, before the last door closes: the bus, the notify
            // socket (made with the loop), the notifications' and the launches' connections.
            let bus = try PokedexBusServer.connect()
            let units = TransientUnits(loop: loop)
            if let why = units.connect() { log(.warning, "cannot reach the user manager for launches: \(why)") }
            let notifier = notifications ? DesktopNotificationsClient(loop: loop, log: log) : nil
            _ = notifier?.connect()
            // Landlock confines its files: nothing is then started directly (it would share the
            // sandbox), so nothing can inherit the filter either. The launcher reads the same.
            let confined = config.sandbox.restricted.contains("files")
            if confined {
                if let why = UnixSocketFilter.apply() {
                    log(.warning, "sandbox: cannot refuse new unix sockets: \(why)")
                } else {
                    config.sandbox.unixSocketsClosed = true
                }
            }
            if let checks = Self.env("POKEDEX_SANDBOX_SELFCHECK") {
                SandboxSelfCheck.run(checks, report: config.cacheDirectory + "/sandbox-self-check", log: log)
            }
            let store = try FileCacheStore(directory: config.cacheDirectory, capacity: config.diskCacheBytes)
            let favorites = try FavoritesBook(persistence: FileFavoritesPersistence(directory: config.dataDirectory, log: log))
            var curlOptions = CurlHTTPClient.Options()
            curlOptions.maxHostConnections = config.maxHostConnections
            curlOptions.caFile = caFile
            let client = try CurlHTTPClient(loop: loop, options: curlOptions, log: log)
            let service = PokedexService(configuration: config, client: client, store: store, favorites: favorites,
                                         decoder: LibPNGDecoder(), notifier: notifier,
                                         launcher: SessionLauncher(environment: ProcessInfo.processInfo.environment, units: units,
                                                                           confined: confined, loop: loop, log: log),
                                         words: words, languageWords: { catalogues.words($0) }, log: log)
            let server = PokedexBusServer(loop: loop, service: service, idleTimeout: idle, log: log)
            try server.start(on: bus)
            service.start()
            let sources = [
                try loop.onSignal(SIGTERM) { server.shutdown() },
                try loop.onSignal(SIGINT) { server.shutdown() },
            ]
            log(.notice, "version \(ServiceConfiguration.version) serving \(Pokedex1.busName); API \(config.apiURL); cache \(config.cacheDirectory); data \(config.dataDirectory); names in \(config.language); sandbox: \(config.sandbox.summary)\(watchdog > 0 ? "; watchdog \(Int(watchdog)) s" : "")")
            let code = loop.run()
            withExtendedLifetime(sources) {}
            // However the loop ended (an idle exit or SIGTERM stopped the background work with
            // STOPPING=1; a lost bus did not), it is stopped now and waited for, the loop's queue
            // pumped meanwhile; then the cache writes.
            service.beginShutdown()
            let left = service.finishShutdown(timeout: 3) { loop.runQueued() }
            if left > 0 { log(.warning, "\(left) background job(s) had not ended at exit") }
            server.close()
            if code != 0 { throw ExitCode(code) }
        } catch let e as ExitCode {
            throw e
        } catch {
            log(.error, "cannot start: \(error)")
            throw ExitCode.failure
        }
    }
}

/// glibc's `mallopt(3)` (malloc.h is not part of the Glibc module).
@_silgen_name("mallopt")
func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
