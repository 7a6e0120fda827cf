#if canImport(Glibc)
import Glibc
#endif
import PokedexBusServer
import PokedexCore
import PokedexEventLoop

/// `pokedexd --launcher`: pokedexd's launcher (``LauncherServer``), as D-Bus activation starts
/// it, the bus's child with the session's activation environment. Never confined: it exists to
/// open what the confined service may not start itself, and opens nothing else.
enum LauncherMain {
    static func run(environment: [String: String], log: @escaping Logger) -> Int32 {
        do {
            let loop = try EventLoop()
            // No limits of its own: pokedexd admitted each launch by its caller, and no one else is heard.
            let launcher = SessionLauncher(environment: environment, units: nil, confined: false, limited: false, loop: loop, log: log)
            let server = LauncherServer(loop: loop, launcher: launcher, log: log)
            try server.start()
            let sources = [
                try loop.onSignal(SIGTERM) { loop.exit(0) },
                try loop.onSignal(SIGINT) { loop.exit(0) },
            ]
            log(.info, "serving io.github.pokedexd.Launcher1 for pokedexd's launches")
            let code = loop.run()
            withExtendedLifetime(sources) {}
            server.close()
            return code
        } catch {
            log(.error, "the launcher cannot start: \(error)")
            return 1
        }
    }
}
