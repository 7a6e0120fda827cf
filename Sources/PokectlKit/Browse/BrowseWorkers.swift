import Glibc
import PokedexBusClient
import PokedexLocks
import PokedexModels
import PokedexProtocol
import PokedexTerminal

/// What comes back to the loop: an event for the model, or the end (the service went away).
enum BrowseResult: Sendable {
    case event(BrowseEvent)
    case fatal(String)
}

/// The loop's inbox: results from any thread, and a pipe that wakes the loop's `poll`.
final class Inbox: Sendable {
    private let items = Mutex<[BrowseResult]>([])
    /// Whether the service's name has an owner now, as ``BrowseSignals`` last saw it.
    let serviceRunning = Mutex<Bool>(true)
    let wake: (read: Int32, write: Int32)

    init() {
        wake = makePipe(nonblocking: true)
    }

    func post(_ r: BrowseResult) {
        items.withLock { $0.append(r) }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    /// Everything posted so far, oldest first.
    func take() -> [BrowseResult] {
        var sink = [UInt8](repeating: 0, count: 256)
        while read(wake.read, &sink, sink.count) > 0 {}
        return items.withLock { items in defer { items.removeAll() }; return items }
    }
}

/// One lane of bus calls: its own connection on its own thread, jobs in order, so that a slow
/// call in one lane (a Detail from the network) never holds up another (pages, sprites) or the
/// keyboard. A search job replaces the search still waiting: only the newest query matters.
final class Lane: Sendable {
    private let jobs = Mutex<[BrowseEffect]>([])
    private let wake: (read: Int32, write: Int32)
    private let inbox: Inbox

    init(_ name: String, inbox: Inbox) {
        self.inbox = inbox
        wake = makePipe(nonblocking: false)
        let box = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        pthread_create(&thread, nil, { arg in
            let lane = Unmanaged<Lane>.fromOpaque(arg!).takeRetainedValue()
            lane.run()
            return nil
        }, box)
        pthread_detach(thread)
    }

    func submit(_ job: BrowseEffect) {
        jobs.withLock { jobs in
            if case .search = job { jobs.removeAll { if case .search = $0 { return true } else { return false } } }
            jobs.append(job)
        }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    private func run() {
        let client: PokedexClient
        do { client = try PokedexClient() } catch { return inbox.post(.fatal(error.message)) }
        var byte: UInt8 = 0
        // Set once the service has answered; until then a job first asks whether it can
        // (``PokedexClient/serviceProblem(activation:)``), so the status line says why within seconds.
        // The lane's thread's own: a local, not a field.
        var reached = false
        while read(wake.read, &byte, 1) >= 0 {
            while let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                inbox.post(perform(job, client, reached: &reached))
            }
        }
    }

    /// One call, and what the model hears of it.
    private func perform(_ job: BrowseEffect, _ c: PokedexClient, reached: inout Bool) -> BrowseResult {
        if !reached, let why = c.serviceProblem() {
            switch job {
            case .loadPage(let offset): return .event(.pageFailed(offset: offset, why))
            case .search(_, let generation): return .event(.searchFailed(generation: generation, why))
            case .loadDetail: return .event(.detailFailed(why))
            default: return .event(.failed(why))
            }
        }
        reached = true
        do {
            switch job {
            case .loadPage(let offset):
                let page = try c.listPage(offset: UInt32(offset), limit: UInt32(BrowseModel.pageSize))
                BrowseNames.shared.learn(page.entries, c)
                return .event(.page(offset: offset, page))
            case .search(let query, let generation):
                let page = try c.searchPage(query, offset: 0, limit: 100)
                BrowseNames.shared.learn(page.entries, c)
                return .event(.searchPage(generation: generation, offset: 0, page))
            case .searchMore(let query, let generation, let offset):
                let page = try c.searchPage(query, offset: UInt32(offset), limit: 100)
                BrowseNames.shared.learn(page.entries, c)
                return .event(.searchPage(generation: generation, offset: offset, page))
            case .loadDetail(let name):
                return .event(.detail(try Pokedex1.detail.decodeReply(try Language.detail(name, c))))
            case .toggleFavorite(let name):
                _ = try c.toggleFavorite(name)  // FavoriteChanged brings the change to the screen
                let favorites = try c.listFavorites()
                BrowseNames.shared.learn(favorites, c)
                return .event(.favorites(favorites))
            case .loadFavorites:
                let favorites = try c.listFavorites()
                BrowseNames.shared.learn(favorites, c)
                return .event(.favorites(favorites))
            case .spritePath(let id, let name):
                return .event(.sprite(id: id, path: try c.spritePath(name)))
            case .playCry(let name):
                // The card is on screen already; the cry follows it, or one line says why not.
                if case .silent(let why) = CryPlayer.play(try c.call(Pokedex1.cryPath, name), environment: Terminal.environment) {
                    return .event(.failed(why))
                }
                return .event(.failed(""))
            case .scheduleSearch, .retryPage, .quit, .soundChanged:
                return .event(.failed(""))
            }
        } catch {
            if error.isBusGone { return .fatal(error.message) }
            // The service is not there: browse waits for it (``BrowseSignals`` sees it come
            // back); a failure to start it says why in the status line.
            if error.isServiceGone, !inbox.serviceRunning.withLock({ $0 }) || error.isStartFailure {
                inbox.post(.event(.service(down: error.isStartFailure ? error.message : Language.words.tr("waiting for the service"))))
            }
            switch job {
            case .loadPage(let offset): return .event(.pageFailed(offset: offset, error.message))
            case .search(_, let generation), .searchMore(_, let generation, _): return .event(.searchFailed(generation: generation, error.message))
            case .loadDetail: return .event(.detailFailed(error.message))
            case .spritePath, .playCry: return .event(.failed(""))  // the placeholder stays, or no cry: nothing to say
            default: return .event(.failed(error.message))
            }
        }
    }
}

/// Follows `FavoriteChanged`, `CacheCleared` and `Online` on a connection of its own, for the
/// loop's inbox.
enum BrowseSignals {
    static func start(_ inbox: Inbox) {
        let box = Unmanaged.passRetained(inbox).toOpaque()
        var thread = pthread_t()
        pthread_create(&thread, nil, { arg in
            let inbox = Unmanaged<Inbox>.fromOpaque(arg!).takeRetainedValue()
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
                    inbox.post(.event(.service(down: Language.words.tr("waiting for the service"))))
                }
                while true {
                    guard let s = try watcher.next(timeout: nil) else { continue }
                    if s.member == PokedexSignalWatcher.ownerChanged, s.values.count == 3, let new = s.values[2].string {
                        serviceIs(running: !new.isEmpty, Language.words.tr("service stopped"))
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
            return nil
        }, box)
        pthread_detach(thread)
    }
}

/// Names as the games write them, for the tiles: learnt with each page, search and favorites
/// list the lanes fetch (``Language/names(_:_:)``, from memory at the service), read by the
/// view on the loop's thread.
final class BrowseNames: Sendable {
    static let shared = BrowseNames()
    private let names = Mutex<[UInt32: String]>([:])

    func learn(_ entries: [ListEntry], _ c: PokedexClient) {
        let missing = names.withLock { known in entries.map(\.id).filter { known[$0] == nil } }
        guard !missing.isEmpty else { return }
        let found = Language.names(missing, c)
        names.withLock { $0.merge(found) { a, _ in a } }
    }

    func name(_ id: UInt32) -> String? { names.withLock { $0[id] } }
}
