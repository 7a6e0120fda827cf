import Glibc
import PokedexBusClient
import PokedexLocks
import PokedexModels
import PokedexProtocol
import PokedexTerminal

/// Follows `FavoriteChanged`, `CacheCleared` and `Online` on a connection of its own, for the
/// loop's inbox.
/// Its thread ends when ``stop(within:)`` closes the pipe it waits on beside the bus.
final class BrowseSignals {
    private let thread: OwnedThread
    /// Closed to end the thread: its read end hangs up (``PokedexSignalWatcher/wait(timeout:endingWith:)``).
    private let ending: (read: Int32, write: Int32)

    init(_ inbox: Inbox, words: Words) {
        let ending = makePipe(nonblocking: false)
        self.ending = ending
        thread = OwnedThread {
            do {
                let watcher = try PokedexSignalWatcher(reportingOwner: true)
                // Asked without starting the service (no auto-start): only when it runs.
                func serviceIs(running: Bool, _ why: String) {
                    inbox.serviceRunning.withLock { $0 = running }
                    inbox.post(.event(.service(down: running ? nil : why)))
                    if running, let online = try? PokedexClient(timeout: 5).property(Pokedex1.online.name).bool { inbox.post(.event(.online(online))) }
                }
                if watcher.owner != nil {
                    serviceIs(running: true, "")
                } else {
                    inbox.serviceRunning.withLock { $0 = false }
                    // Not running yet: the first call may start it (bus activation); until then, say so.
                    inbox.post(.event(.service(down: words.tr("waiting for the service"))))
                }
                while true {
                    guard case .signal(let s) = try watcher.wait(timeout: nil, endingWith: ending.read) else { return }
                    if s.member == PokedexSignalWatcher.ownerChanged, s.values.count == 3, let new = s.values[2].string {
                        serviceIs(running: !new.isEmpty, words.tr("service stopped"))
                    } else if s.member == Pokedex1.favoriteChanged.name, let (id, name, favorite) = try? Pokedex1.favoriteChanged.decode(s.values) {
                        inbox.post(.event(.favoriteChanged(id: id, name: name, favorite: favorite)))
                    } else if s.member == Pokedex1.cacheCleared.name {
                        inbox.post(.event(.cacheCleared))
                    } else if s.member == FreedesktopBus.propertiesChanged, s.values.count == 3, case .dict(let props) = s.values[1] {
                        for p in props where p.key.string == Pokedex1.online.name {
                            if case .variant(let v) = p.value, let up = v.bool { inbox.post(.event(.online(up))) } else if let up = p.value.bool { inbox.post(.event(.online(up))) }
                        }
                    }
                }
            } catch {
                inbox.post(.fatal((error as? BusError)?.message ?? "\(error)"))
            }
        }
    }

    /// Ends the thread and joins it (at most `within` seconds).
    func stop(within seconds: Double) {
        close(ending.write)
        // A thread still inside a call (left to the process's exit) may poll this end yet.
        if thread.join(within: seconds) { close(ending.read) }
    }
}

/// Names as the games write them, for the tiles: learnt with each page, search and favorites
/// list the lanes fetch (``Language/names(_:_:)``, from memory at the service), read by the
/// view on the loop's thread.
/// One per browse, in its ``language``.
final class BrowseNames: Sendable {
    /// The language the names are asked in (a PokeAPI code, the ``Context``'s).
    let language: String
    private let names = Mutex<[UInt32: String]>([:])

    init(language: String) { self.language = language }

    func learn(_ entries: [ListEntry], _ c: any PokedexService) {
        // A form's species too: a tile whose name two rows cannot hold shows what sets the
        // form apart from it (``TileLabel``).
        let ids = entries.flatMap { e in [e.id, PokedexNumber.shown(e.id)] }
        let missing = names.withLock { known in Array(Set(ids.filter { known[$0] == nil })).sorted() }
        guard !missing.isEmpty else { return }
        let found = Context.names(missing, language: language, c)
        names.withLock { $0.merge(found) { a, _ in a } }
    }

    func name(_ id: UInt32) -> String? { names.withLock { $0[id] } }
}
