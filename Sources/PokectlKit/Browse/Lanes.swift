import Glibc
import PokedexBusClient
import PokedexLocks
import PokedexModels
import PokedexProtocol
import PokedexTerminal

/// browse's three lanes of bus calls, by what they carry: pages of the list, the user's actions
/// (search, detail, favorites) and sprites (and cries). Each is a thread of its own with its
/// own connection, so that a slow call in one (a Detail from the network) never holds up
/// another or the keyboard. Their owner (the loop) starts them and joins them when browse ends.
struct Lanes {
    let pages: Lane
    let actions: Lane
    let sprites: Lane

    /// Starts the three threads; each connects through `connect` (the bus, or a test's fake).
    /// `desktopSearch`: the desktop's search browse was opened on (`--desktop-search`), listed as
    /// the desktop lists it.
    init(inbox: Inbox, names: BrowseNames, words: Words, environment: [String: String], desktopSearch: String? = nil,
         connect: @escaping @Sendable () throws(BusError) -> any PokedexService) {
        func lane() -> Lane {
            Lane(inbox: inbox, names: names, words: words, environment: environment, desktopSearch: desktopSearch, connect: connect)
        }
        pages = lane()
        actions = lane()
        sprites = lane()
    }

    /// Hands a call to its lane; false for an effect that is no call.
    @discardableResult
    func submit(_ effect: BrowseEffect) -> Bool {
        switch effect {
        case .loadPage: pages.submit(effect)
        case .spritePath, .playCry: sprites.submit(effect)
        case .search, .searchMore, .loadDetail, .loadMoves, .toggleFavorite, .loadFavorites: actions.submit(effect)
        case .quit, .scheduleSearch, .retryPage, .soundChanged: return false
        }
        return true
    }

    /// Ends the three lanes and joins their threads, waiting at most `within` seconds for all
    /// of them (``OwnedThread/join(within:)``).
    func stop(within seconds: Double) {
        let lanes = [pages, actions, sprites]
        for lane in lanes { lane.stop() }
        let deadline = monotonic() + seconds
        for lane in lanes { lane.join(within: max(0, deadline - monotonic())) }
    }
}

/// One lane: jobs in order on its thread. A search job replaces the search still waiting: only
/// the newest query matters.
final class Lane: Sendable {
    private let jobs = Mutex<(waiting: [BrowseEffect], stopping: Bool)>(([], false))
    private let wake: (read: Int32, write: Int32)
    private let inbox: Inbox
    private let names: BrowseNames
    private let words: Words
    private let environment: [String: String]
    private let desktopSearch: String?
    private let thread = Mutex<OwnedThread?>(nil)

    init(inbox: Inbox, names: BrowseNames, words: Words, environment: [String: String], desktopSearch: String? = nil,
         connect: @escaping @Sendable () throws(BusError) -> any PokedexService) {
        self.inbox = inbox
        self.names = names
        self.words = words
        self.environment = environment
        self.desktopSearch = desktopSearch
        wake = makePipe(nonblocking: false)
        let started = OwnedThread { [self] in run(connect) }
        thread.withLock { $0 = started }
    }

    func submit(_ job: BrowseEffect) {
        jobs.withLock { jobs in
            if case .search = job { jobs.waiting.removeAll { if case .search = $0 { return true } else { return false } } }
            jobs.waiting.append(job)
        }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    /// The thread ends once the job it is on is done; the jobs still waiting are dropped.
    func stop() {
        jobs.withLock { $0.stopping = true }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    func join(within seconds: Double) {
        // Its wake pipe is closed once nothing can read or write it: the thread has ended.
        if thread.withLock({ $0 })?.join(within: seconds) == true {
            close(wake.read)
            close(wake.write)
        }
    }

    private func run(_ connect: () throws(BusError) -> any PokedexService) {
        let client: any PokedexService
        do { client = try connect() } catch { return inbox.post(.fatal(error.message)) }
        var byte: UInt8 = 0
        // Set once the service has answered; until then a job first asks whether it can
        // (``PokedexClient/serviceProblem(activation:)``), so the status line says why within seconds.
        // The lane's thread's own: a local, not a field.
        var reached = false
        while read(wake.read, &byte, 1) > 0 || errno == EINTR {
            while let job = jobs.withLock({ $0.stopping || $0.waiting.isEmpty ? nil : $0.waiting.removeFirst() }) {
                inbox.post(perform(job, client, reached: &reached))
            }
            if jobs.withLock({ $0.stopping }) { return }
        }
    }

    /// A page of the search: the desktop's list for the search browse was opened on, else the
    /// service's search. A service from before `DesktopSearchPage` gives its search.
    private func searchPage(_ c: any PokedexService, _ query: String, offset: Int) throws(BusError) -> ListPage {
        if let desktopSearch, query == desktopSearch {
            let terms = query.split(whereSeparator: \.isWhitespace).map(String.init)
            do { return try c.call(Pokedex1.desktopSearchPage, (terms, UInt32(offset), 100)) } catch {
                guard error.name == BusError.Name.unknownMethod else { throw error }
            }
        }
        return try c.call(Pokedex1.searchPage, (query, UInt32(offset), 100))
    }

    /// One call, and what the model hears of it.
    private func perform(_ job: BrowseEffect, _ c: any PokedexService, reached: inout Bool) -> BrowseResult {
        if !reached, let why = c.serviceProblem(activation: 2, words: .english) {
            switch job {
            case .loadPage(let offset): return .event(.pageFailed(offset: offset, why))
            case .search(_, let generation): return .event(.searchFailed(generation: generation, why))
            case .loadDetail: return .event(.detailFailed(why))
            case .loadMoves(let name): return .event(.movesFailed(name: name, why))
            default: return .event(.failed(why))
            }
        }
        reached = true
        do {
            switch job {
            case .loadPage(let offset):
                let page = try c.call(Pokedex1.listPage, (UInt32(offset), UInt32(BrowseModel.pageSize)))
                names.learn(page.entries, c)
                return .event(.page(offset: offset, page))
            case .search(let query, let generation):
                let page = try searchPage(c, query, offset: 0)
                names.learn(page.entries, c)
                return .event(.searchPage(generation: generation, offset: 0, page))
            case .searchMore(let query, let generation, let offset):
                let page = try searchPage(c, query, offset: offset)
                names.learn(page.entries, c)
                return .event(.searchPage(generation: generation, offset: offset, page))
            case .loadDetail(let name):
                return .event(.detail(try Pokedex1.detail.decodeReply(try Context.detail(name, language: names.language, c))))
            case .loadMoves(let name):
                do {
                    return .event(.moves(try c.call(Pokedex1.moves, (name, "", nil, names.language))))
                } catch where error.name == BusError.Name.unknownMethod {
                    return .event(.movesFailed(name: name, ""))  // a service from before moves: the card has none
                }
            case .toggleFavorite(let name):
                _ = try c.call(Pokedex1.toggleFavorite, name)  // FavoriteChanged brings the change to the screen
                let favorites = try c.call(Pokedex1.listFavorites)
                names.learn(favorites, c)
                return .event(.favorites(favorites))
            case .loadFavorites:
                let favorites = try c.call(Pokedex1.listFavorites)
                names.learn(favorites, c)
                return .event(.favorites(favorites))
            case .spritePath(let id, let name):
                return .event(.sprite(id: id, path: try c.call(Pokedex1.spritePath, name)))
            case .playCry(let name):
                // The card is on screen already; the cry follows it, or one line says why not.
                if case .silent(let why) = CryPlayer.play(try c.call(Pokedex1.cryPath, name), environment: environment) {
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
                inbox.post(.event(.service(down: error.isStartFailure ? error.message : words.tr("waiting for the service"))))
            }
            // Frozen (SIGSTOP, a debugger): said in the status line, not "online", until it runs.
            if error.isTimeout, let why = c.stoppedService(words: words) { waitWhileStopped(c, why) }
            let why = said(error, c)
            switch job {
            case .loadPage(let offset): return .event(.pageFailed(offset: offset, why))
            case .search(_, let generation), .searchMore(_, let generation, _): return .event(.searchFailed(generation: generation, why))
            case .loadDetail: return .event(.detailFailed(why))
            case .loadMoves(let name): return .event(.movesFailed(name: name, why))
            case .spritePath, .playCry: return .event(.failed(""))  // the placeholder stays, or no cry: nothing to say
            default: return .event(.failed(why))
            }
        }
    }

    /// A failure in the reader's words: the service's own messages translated, the Pokémon
    /// they name by identifier named as the games do (asked only of a service that answered).
    private func said(_ error: BusError, _ c: any PokedexService) -> String {
        guard error.name.hasPrefix(PokedexError.namePrefix) else { return error.isTimeout ? words.tr("pokedexd did not answer in time") : error.message }
        return ServiceMessages.translate(error.message, words, naming: Context.naming(error, language: names.language, c))
    }

    /// The service's process is stopped: the status line says so, and this lane waits (its
    /// calls would only time out) until it runs again or browse ends; then it is back.
    private func waitWhileStopped(_ c: any PokedexService, _ why: String) {
        inbox.post(.event(.service(down: why)))
        while !jobs.withLock({ $0.stopping }), c.stoppedService(words: words) != nil { usleep(250_000) }
        inbox.post(.event(.service(down: nil)))
    }
}
