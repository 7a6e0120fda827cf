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

/// `pokedexd`: the Pokédex service on the session bus. Options in (``ServiceOptions``), the parts
/// wired, the loop run; as hostnamed's `run()`, the main only wires.
enum Pokedexd {
    static func main() {
        let environment = ProcessInfo.processInfo.environment
        let config: ServiceConfiguration
        do {
            switch try ServiceOptions.parse(Array(CommandLine.arguments.dropFirst()), environment: environment) {
            case .help(let text): print(text); exit(0)
            case .version(let version): print(version); exit(0)
            case .run(let given): config = given
            }
        } catch {
            // EX_USAGE, as the man page says.
            _ = FileIO.writeAll(2, Array("pokedexd: \(error)\nSee 'pokedexd --help'.\n".utf8))
            exit(64)
        }
        exit(run(config, environment: environment))
    }

    /// Runs the service until SIGTERM, SIGINT, the idle timeout or a lost bus; its exit status.
    static func run(_ given: ServiceConfiguration, environment: [String: String]) -> Int32 {
        // Before any other thread exists: signals go to the loop's signalfd, and curl is set up once.
        // SIGCHLD too: the loop reaps the programs the launcher starts (sd_event_add_child).
        EventLoop.blockSignals([SIGTERM, SIGINT, SIGCHLD])
        Heap.tune()
        var config = given
        // Names on the desktop in the session's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG).
        config.language = NameLanguage.fromEnvironment(environment)
        let log = JournalLogger.make(verbose: config.verbose)
        // Outside the sandbox by design: what it starts is the session's (LauncherMain).
        if config.launcher { return LauncherMain.run(environment: environment, log: log) }
        for warning in config.startupWarnings { log(.warning, warning) }
        do { try CurlHTTPClient.globalInit() } catch {
            log(.error, "cannot start: \(error)")
            return 1
        }
        // The notifications' words in the session's language; their catalogue stays readable in the
        // sandbox. Beside the binary only: TEXTDOMAINDIR would choose what Landlock lets it read.
        let localeDirectory = Words.localeDirectory(environment: [:])
        let words = Words.gettext(localeDirectory: localeDirectory)
        // A caller's language's words (a family's conditions in `LocalizedDetail`), from the same folder.
        let catalogues = Catalogues(directory: localeDirectory)
        // Confined before any other thread exists (Landlock binds the calling thread and what it starts).
        Sandbox.confine(&config, localeDirectory: localeDirectory, environment: environment, log: log)
        if let token = config.folderCheckToken { return FolderCheck.main(token: token, config) }
        do {
            let loop = try EventLoop()
            // systemd's WatchdogSec=: pinged by a timer of the loop (a wedged loop is restarted).
            let watchdog = loop.enableWatchdog()
            if watchdog < 0 { log(.warning, "the service manager's watchdog could not be armed (errno \(Int(-watchdog))); running without it") }
            // Every Unix socket it will need, before the last door closes: the bus (the launches
            // go on it too), the notify socket (made with the loop), the notifications' connection.
            let bus = try PokedexBusServer.connect()
            let units = TransientUnits(loop: loop)
            units.use(bus)
            let notifier = config.notifications ? DesktopNotificationsClient(loop: loop, log: log) : nil
            _ = notifier?.connect()
            Sandbox.closeUnixSockets(&config, manager: loop.manager, environment: environment, log: log)
            let store = try FileCacheStore(directory: config.cacheDirectory, capacity: config.diskCacheBytes)
            let favorites = try FavoritesBook(persistence: FileFavoritesPersistence(directory: config.dataDirectory, log: log))
            var curlOptions = CurlHTTPClient.Options()
            curlOptions.maxHostConnections = config.maxHostConnections
            curlOptions.caFile = config.caFile
            let client = try CurlHTTPClient(loop: loop, options: curlOptions, log: log)
            // Landlock confines its files: nothing is then started directly (it would share the
            // sandbox), so nothing can inherit the filter either. The launcher reads the same.
            let launcher = SessionLauncher(environment: environment, units: units,
                                           confined: config.sandbox.restricted.contains("files"), loop: loop, log: log)
            // A sync's steps run on the loop's thread, where its transfers end, in slices below the bus.
            let syncExecutor = try LoopTaskExecutor(loop: loop)
            let service = PokedexService(configuration: config, client: client, store: store, favorites: favorites,
                                         decoder: LibPNGDecoder(), notifier: notifier, launcher: launcher,
                                         words: words, languageWords: { catalogues.words($0) },
                                         releaseMemory: Heap.trim, syncExecutor: syncExecutor, log: log)
            let server = PokedexBusServer(loop: loop, service: service, idleTimeout: config.idleTimeout, log: log)
            try server.start(on: bus)
            service.start()
            let sources = [
                try loop.onSignal(SIGTERM) { server.shutdown() },
                try loop.onSignal(SIGINT) { server.shutdown() },
            ]
            log(.notice, startupLine(config, watchdog: watchdog))
            if let why = Sandbox.asRoot { log(.warning, why) }
            let code = loop.run()
            withExtendedLifetime(sources) {}
            // However the loop ended (an idle exit or SIGTERM stopped the background work with
            // STOPPING=1; a lost bus did not), it is stopped now and waited for, the loop's queue
            // pumped meanwhile; then the cache writes.
            service.beginShutdown()
            let left = service.finishShutdown(timeout: 3) {
                loop.runQueued()
                syncExecutor.runQueued()
            }
            if left > 0 { log(.warning, "\(left) background job(s) had not ended at exit") }
            server.close()
            return code
        } catch {
            log(.error, "cannot start: \(error)")
            return 1
        }
    }

    /// What the journal says once the service serves: where it reads and keeps, and how it is confined.
    static func startupLine(_ config: ServiceConfiguration, watchdog: Double) -> String {
        "version \(ServiceConfiguration.version) serving \(Pokedex1.busName); API \(config.apiURL); "
            + "cache \(config.cacheDirectory); data \(config.dataDirectory); names in \(config.language); "
            + "sandbox: \(config.sandbox.summary)" + (watchdog > 0 ? "; watchdog \(Int(watchdog)) s" : "")
    }
}
