import Glibc
import PokedexModels
import PokedexTerminal

/// What one wake of browse's loop brought: signal numbers, the keyboard's bytes, the lanes'
/// results, and whether the wait timed out. The loop (``BrowseLoop``) reads them from the file
/// descriptors; a test makes them by hand.
struct BrowseWake {
    enum Keyboard: Equatable {
        case nothing
        case bytes([UInt8])
        /// The terminal went away (end of file, a hang-up).
        case closed
    }

    var signals: [Int32] = []
    var keyboard: Keyboard = .nothing
    var results: [BrowseResult] = []
    var timedOut = false
}

/// How browse ends.
enum BrowseOutcome: Equatable { case quit, signal(Int32), serviceGone(String) }

/// browse's state and what it does with each wake, apart from the waiting (ratatui's `App`
/// beside its `run`): the model handles the events, effects go to the lanes and the timers, a
/// frame is drawn when the screen changed. It never waits on the bus.
struct BrowseApp {
    var model: BrowseModel
    let mode: ColorMode
    var writer: ScreenWriter
    var decoder = InputDecoder()
    let terminal: any BrowseTerminal
    let lanes: Lanes
    let names: BrowseNames
    let words: Words
    let environment: [String: String]
    /// Search debounces: generation → when it is due (``clock`` seconds).
    var timers: [Int: Double] = [:]
    /// Failed pages' retries: offset → when it is due (``clock`` seconds).
    var pageTimers: [Int: Double] = [:]
    var last: Screen?
    var art = ArtCache()
    let graphics: TileGraphics
    /// Monotonic seconds; a test's clock moves by hand.
    var clock: () -> Double = monotonic

    init(query: String, open: String?, mode: ColorMode, graphics: TileGraphics, terminal: any BrowseTerminal, lanes: Lanes,
         names: BrowseNames, words: Words, environment: [String: String]) {
        model = BrowseModel(query: query, open: open, sound: BrowseSound.remembered(environment))
        self.mode = mode
        self.graphics = graphics
        self.terminal = terminal
        self.lanes = lanes
        self.names = names
        self.words = words
        self.environment = environment
        writer = ScreenWriter(mode: mode)
    }

    /// The first frame: the terminal's size, the model's first effects.
    mutating func start() -> BrowseOutcome? {
        let size = terminal.size()
        _ = model.handle(.resized(width: size.width, height: size.height))
        if let end = perform(model.start()) { return end }
        draw()
        return nil
    }

    /// How long the loop may wait for the next wake, in milliseconds (-1: until something
    /// happens, no busy loop): a pending escape's 30 ms, or the next timer.
    func timeout() -> Int32 {
        var timeout: Int32 = -1
        if decoder.pendingEscape { timeout = 30 }
        if let due = (Array(timers.values) + Array(pageTimers.values)).min() {
            timeout = min(timeout < 0 ? Int32.max : timeout, Int32(max(0, (due - clock()) * 1000).rounded(.up)))
        }
        return timeout
    }

    /// One wake: its events handled in the order they came (signals, keys, a pending escape
    /// that timed out, the lanes' results, the timers due), then a frame if the screen changed.
    /// The outcome when browse ends.
    mutating func step(_ wake: BrowseWake) -> BrowseOutcome? {
        var events: [BrowseEvent] = []
        for sig in wake.signals {
            switch sig {
            case SIGWINCH:
                let size = terminal.size()
                writer.invalidate()
                events.append(.resized(width: size.width, height: size.height))
            case SIGTSTP:
                events.append(suspend())
            case SIGCONT:  // after a SIGSTOP, which gave nothing back: take it again all the same
                terminal.resume()
                events.append(wholeScreen())
            default:
                return .signal(sig)
            }
        }
        switch wake.keyboard {
        case .closed: return .quit  // the terminal went away
        case .bytes(let bytes):
            for input in decoder.feed(bytes) {
                if input == suspendKey { events.append(suspend()) } else { events.append(.input(input)) }
            }
        case .nothing: break
        }
        if wake.timedOut, decoder.pendingEscape { events += decoder.flush().map { .input($0) } }
        for r in wake.results {
            switch r {
            case .event(let e): events.append(e)
            case .fatal(let why): return .serviceGone(why)
            }
        }
        events += due()
        for e in events {
            if let end = perform(model.handle(e)) { return end }
        }
        draw()
        return nil
    }

    /// The timers due now, as events (and forgotten).
    private mutating func due() -> [BrowseEvent] {
        var events: [BrowseEvent] = []
        let now = clock()
        for (generation, at) in timers where at <= now {
            timers[generation] = nil
            events.append(.searchDue(generation: generation))
        }
        for (offset, at) in pageTimers where at <= now {
            pageTimers[offset] = nil
            events.append(.pageDue(offset: offset))
        }
        return events
    }

    /// The key that suspends, as the decoder reports it (`stty susp`, Ctrl-Z by default);
    /// nil when the terminal has none.
    var suspendKey: InputEvent? {
        guard let byte = terminal.suspendByte, (0x01...0x1A).contains(byte) else { return nil }
        return .key(.control(Character(Unicode.Scalar(byte + 0x60))))
    }

    /// Ctrl-Z or SIGTSTP: the pictures freed and the terminal given back, stopped; once
    /// continued, the whole screen again at the terminal's size now.
    mutating func suspend() -> BrowseEvent {
        terminal.write(graphics.end())
        terminal.suspend()
        return wholeScreen()
    }

    /// Everything drawn again on the next frame (after a resume): the size asked anew.
    mutating func wholeScreen() -> BrowseEvent {
        writer.invalidate()
        last = nil
        let size = terminal.size()
        return .resized(width: size.width, height: size.height)
    }

    /// Hands effects to the lanes and the timers; the outcome if one of them ends the loop.
    mutating func perform(_ effects: [BrowseEffect]) -> BrowseOutcome? {
        for effect in effects {
            switch effect {
            case .quit: return .quit
            case .scheduleSearch(let generation, let after): timers = [generation: clock() + after]
            // Jitter: windows opened together (or the service's signal to all of them) do not retry in step.
            case .retryPage(let offset, let after): pageTimers[offset] = clock() + Double.random(in: after / 2...after)
            case .soundChanged(let on): BrowseSound.remember(on, environment)
            case .loadPage, .spritePath, .playCry, .search, .searchMore, .loadDetail, .loadMoves, .toggleFavorite, .loadFavorites:
                lanes.submit(effect)
            }
        }
        return nil
    }

    /// Draws a frame if the screen changed.
    mutating func draw() {
        let pictures: BrowseView.Pictures = graphics.protocolUsed == .kitty ? .layered : graphics.protocolUsed == .sixel ? .painted : .none
        let view = BrowseView.settle(&model) { [art, mode, words, names, graphics] model in
            BrowseView(model: model, mode: mode, art: { path in art.tile(path, mode) }, image: { path in art.image(path) }, pictures: pictures,
                       words: words, displayName: names.name,
                       cardPicture: { path, columns, rows in graphics.fitting(path, columns, rows).map { ($0.columns, $0.rows) } })
        }
        let screen = view.render()
        guard screen != last else { return }
        last = screen
        let placements = view.placements()
        let repaint = graphics.needsRepaint(placements) || writer.isInvalid
        if repaint { writer.invalidate() }
        let bytes = writer.frame(screen) + graphics.update(placements, repainted: repaint)
        // Noted before they are written: a write of pictures can take long (the terminal reads
        // as it can), and a signal meanwhile must still free every image already sent.
        terminal.noteKittyImages(upTo: graphics.lastImageID, tmux: graphics.tmuxPassthrough)
        terminal.write(bytes)
    }
}
