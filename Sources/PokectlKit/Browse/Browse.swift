import ArgumentParser
import Glibc
import PokedexModels
import PokedexPNG
import PokedexTerminal

struct Browse: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "browse",
        abstract: tr("Browse the Pokédex full screen: a grid of sprites that loads as you scroll, search as you type, the detail card, favorites."),
        discussion: tr("Keys: arrows or h j k l move, PgUp/PgDn a screen, Home/End the first and last; Enter opens the detail, Esc or Backspace goes back; / searches as you type (Enter keeps the results, Esc goes back to the whole list); f keeps or drops a favorite, F shows only the favorites; ? lists the keys; q or Ctrl-C quits. The mouse wheel scrolls, a click selects, a click on the selected tile opens it. Needs a terminal of at least 28×9; 80×24 or more shows a grid of 5×3.")) }

    @Argument(help: ArgumentHelp(tr("Start with this search applied (a name in any language, a number, type:fire, gen:1).")))
    var query: [String] = []
    @Option(help: ArgumentHelp(tr("Start on this Pokémon's card (a name or number); Esc shows the grid behind it."), valueName: "pokemon"))
    var open: String?
    @Option(help: ArgumentHelp(tr("Colour and pictures: auto (unless NO_COLOR is set), always or never.")))
    var color: Output.When = .auto
    @Option(help: ArgumentHelp(tr("How to draw the tiles' sprites: auto (the best the terminal offers: kitty graphics, sixel, half blocks), kitty, sixel or blocks.")))
    var imageProtocol: ImageChoice = .auto

    func run() throws {
        guard isatty(0) == 1, isatty(1) == 1 else {
            throw Failure(message: Language.words.tr("browse needs a terminal on its input and output; for scripts, use 'pokectl list' or 'pokectl search'"),
                          code: .usage)
        }
        // A terminal that cannot move the cursor or clear the screen (Emacs' shell, a dumb
        // serial line) would show the escape codes as text.
        if let why = Self.cannotDraw(term: Terminal.environment["TERM"]) {
            throw Failure(message: Language.words.trf("browse cannot draw on this terminal (%s); use 'pokectl list' or 'pokectl search' instead", why),
                          code: .usage)
        }
        Output.when = color
        let mode = color == .never ? ColorMode.none : color == .always ? Terminal.colorMode : ColorMode.detect(environment: Terminal.environment)
        // Asked before the screen is taken over: the answers come on the same input.
        let pictures = mode == .none ? Pictures.choose(.blocks, environment: Terminal.environment)
            : Pictures.choose(imageProtocol, environment: Terminal.environment)
        let graphics = TileGraphics(protocolUsed: pictures.protocolUsed, tmuxPassthrough: pictures.tmuxPassthrough,
                                    fit: { path, columns, rows in
                                        Terminal.image(at: path).flatMap { pictures.fitted($0, maxColumns: columns, maxRows: rows) }
                                    },
                                    png: { LibPNGEncoder.encode($0) })
        // The terminal's answers all read before browse reads keys: a late one is no key.
        TerminalQuery.settle()
        var loop = BrowseLoop(query: query.joined(separator: " "), open: open, mode: mode, graphics: graphics)
        let outcome = loop.run()
        TerminalSession.write(loop.graphics.end())
        TerminalSession.restore()
        switch outcome {
        case .quit: return
        case .signal(let sig): TerminalSession.die(of: sig)
        case .serviceGone(let why):
            throw Failure(message: Language.words.trf("browse lost the session bus (%s); the terminal is restored", why),
                          code: .unavailable)
        }
    }
}

extension Browse {
    /// Why a terminal of this `TERM` cannot show browse; nil when it can.
    static func cannotDraw(term: String?) -> String? {
        guard let term, !term.isEmpty else { return Language.words.tr("TERM is not set") }
        return term == "dumb" ? "TERM=dumb" : nil
    }
}

/// The loop: `poll` on the keyboard, the inbox and the signals; the model handles what arrives;
/// a frame is drawn only when the screen changed. It never waits on the bus: calls run in
/// ``Lane``s.
struct BrowseLoop {
    enum Outcome { case quit, signal(Int32), serviceGone(String) }

    var model: BrowseModel
    let mode: ColorMode
    var writer: ScreenWriter
    var decoder = InputDecoder()
    let inbox = Inbox()
    var lanes: [String: Lane] = [:]
    /// Search debounces: generation → when it is due (monotonic seconds).
    var timers: [Int: Double] = [:]
    /// Failed pages' retries: offset → when it is due (monotonic seconds).
    var pageTimers: [Int: Double] = [:]
    var last: Screen?
    var art = ArtCache()
    let graphics: TileGraphics

    init(query: String, open: String?, mode: ColorMode, graphics: TileGraphics) {
        model = BrowseModel(query: query, open: open, sound: BrowseSound.remembered(Terminal.environment))
        self.mode = mode
        self.graphics = graphics
        writer = ScreenWriter(mode: mode)
    }

    mutating func run() -> Outcome {
        TerminalSession.begin()
        TerminalSession.startingWorkers {
            lanes = ["pages": Lane("pages", inbox: inbox), "actions": Lane("actions", inbox: inbox), "sprites": Lane("sprites", inbox: inbox)]
            BrowseSignals.start(inbox)
        }
        let size = TerminalSession.size()
        _ = model.handle(.resized(width: size.width, height: size.height))
        if let end = perform(model.start()) { return end }
        draw()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: inbox.wake.read, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: TerminalSession.signals, events: Int16(POLLIN), revents: 0)]
            let now = monotonic()
            var timeout: Int32 = -1  // nothing to wait for: sleep until something happens (no busy loop)
            if decoder.pendingEscape { timeout = 30 }
            if let due = (Array(timers.values) + Array(pageTimers.values)).min() { timeout = min(timeout < 0 ? Int32.max : timeout, Int32(max(0, (due - now) * 1000).rounded(.up))) }
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno != EINTR { return .serviceGone("poll failed") }
            var events: [BrowseEvent] = []
            if fds[2].revents != 0 {
                var sig: UInt8 = 0
                while read(TerminalSession.signals, &sig, 1) == 1 {
                    switch Int32(sig) {
                    case SIGWINCH:
                        let size = TerminalSession.size()
                        writer.invalidate()
                        events.append(.resized(width: size.width, height: size.height))
                    case SIGTSTP:
                        events.append(suspend())
                    case SIGCONT:  // after a SIGSTOP, which gave nothing back: take it again all the same
                        TerminalSession.resume()
                        events.append(wholeScreen())
                    default:
                        return .signal(Int32(sig))
                    }
                }
            }
            if fds[0].revents & Int16(POLLIN) != 0 {
                let n = read(0, &buffer, buffer.count)
                if n == 0 { return .quit }  // the terminal went away
                if n > 0 {
                    for input in decoder.feed(Array(buffer[0..<n])) {
                        if input == suspendKey { events.append(suspend()) } else { events.append(.input(input)) }
                    }
                }
            } else if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 {
                return .quit
            }
            if ready == 0, decoder.pendingEscape { events += decoder.flush().map { .input($0) } }
            if fds[1].revents != 0 {
                for r in inbox.take() {
                    switch r {
                    case .event(let e): events.append(e)
                    case .fatal(let why): return .serviceGone(why)
                    }
                }
            }
            let due = monotonic()
            for (generation, at) in timers where at <= due {
                timers[generation] = nil
                events.append(.searchDue(generation: generation))
            }
            for (offset, at) in pageTimers where at <= due {
                pageTimers[offset] = nil
                events.append(.pageDue(offset: offset))
            }
            for e in events {
                if let end = perform(model.handle(e)) { return end }
            }
            draw()
        }
    }

    /// The key that suspends, as the decoder reports it (`stty susp`, Ctrl-Z by default);
    /// nil when the terminal has none.
    var suspendKey: InputEvent? {
        guard let byte = TerminalSession.suspendByte, (0x01...0x1A).contains(byte) else { return nil }
        return .key(.control(Character(Unicode.Scalar(byte + 0x60))))
    }

    /// Ctrl-Z or SIGTSTP: the pictures freed and the terminal given back, stopped; once
    /// continued, the whole screen again at the terminal's size now.
    mutating func suspend() -> BrowseEvent {
        TerminalSession.write(graphics.end())
        TerminalSession.suspend()
        return wholeScreen()
    }

    /// Everything drawn again on the next frame (after a resume): the size asked anew.
    mutating func wholeScreen() -> BrowseEvent {
        writer.invalidate()
        last = nil
        let size = TerminalSession.size()
        return .resized(width: size.width, height: size.height)
    }

    /// Hands effects to the lanes and the timers; the outcome if one of them ends the loop.
    mutating func perform(_ effects: [BrowseEffect]) -> Outcome? {
        for effect in effects {
            switch effect {
            case .quit: return .quit
            case .scheduleSearch(let generation, let after): timers = [generation: monotonic() + after]
            // Jitter: windows opened together (or the service's signal to all of them) do not retry in step.
            case .retryPage(let offset, let after): pageTimers[offset] = monotonic() + Double.random(in: after / 2...after)
            case .loadPage: lanes["pages"]!.submit(effect)
            case .spritePath, .playCry: lanes["sprites"]!.submit(effect)
            case .soundChanged(let on): BrowseSound.remember(on, Terminal.environment)
            case .search, .searchMore, .loadDetail, .toggleFavorite, .loadFavorites: lanes["actions"]!.submit(effect)
            }
        }
        return nil
    }

    /// Draws a frame if the screen changed.
    mutating func draw() {
        let view = BrowseView(model: model, mode: mode, art: { [art, mode] path in art.tile(path, mode) },
                              image: { [art] path in art.image(path) }, pictures: graphics.protocolUsed == .kitty ? .layered : graphics.protocolUsed == .sixel ? .painted : .none,
                              words: Language.words, displayName: BrowseNames.shared.name,
                              cardPicture: { [graphics] path, columns, rows in graphics.fitting(path, columns, rows).map { ($0.columns, $0.rows) } })
        let screen = view.render()
        guard screen != last else { return }
        last = screen
        let placements = view.placements()
        let repaint = graphics.needsRepaint(placements) || writer.isInvalid
        if repaint { writer.invalidate() }
        TerminalSession.write(writer.frame(screen) + graphics.update(placements, repainted: repaint))
        TerminalSession.noteKittyImages(upTo: graphics.lastImageID, tmux: graphics.tmuxPassthrough)
    }
}

/// Sprites decoded once and drawn small once, by path. A class so that the view's closures
/// share it; the loop's thread is its only user.
final class ArtCache {
    /// Small: a tile's lines are a few hundred bytes, 1,351 of them well under a megabyte.
    private var tiles: [String: TileArt?] = [:]
    /// Only the detail card's sprite is kept whole.
    private var detail: (path: String, image: RGBAImage?)?

    func image(_ path: String) -> RGBAImage? {
        if let d = detail, d.path == path { return d.image }
        let decoded = Terminal.image(at: path)
        detail = (path, decoded)
        return decoded
    }

    func tile(_ path: String, _ mode: ColorMode) -> TileArt? {
        if let known = tiles[path] { return known }
        let art = Terminal.image(at: path).map { TileArt(image: $0, mode: mode) }
        tiles[path] = art
        return art
    }
}
