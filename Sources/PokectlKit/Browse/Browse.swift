import ArgumentParser
import Glibc
import PokedexModels
import PokedexPNG
import PokedexTerminal

struct Browse: PokectlCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "browse",
        abstract: tr("Browse the Pokédex full screen: a grid of sprites that loads as you scroll, search as you type, the detail card, favorites."),
        discussion: tr("""
            Keys: arrows or h j k l move, PgUp/PgDn a screen, Home/End the first and last; Enter \
            opens the detail, Esc or Backspace goes back; / searches as you type (Enter keeps \
            the results, Esc goes back to the whole list); f keeps or drops a favorite, F shows \
            only the favorites; s turns the cries on or off; ? lists the keys; q or Ctrl-C \
            quits. On a card, ↑ ↓ (j k), PgUp/PgDn (b, space), Home/End (g G) and the wheel \
            scroll it, Tab goes to its next part, ← → pick in its family and Enter opens the one \
            picked. The mouse wheel scrolls, a click selects, a click on the selected tile opens \
            it. Draws at any size; 80×24 or more shows a grid of 5×3.
            """)) }

    @Argument(help: ArgumentHelp(tr("Start with this search applied (a name in any language, a number, type:fire, gen:1).")))
    var query: [String] = []
    @Option(help: ArgumentHelp(tr("Start on this Pokémon's card (a name or number); Esc shows the grid behind it."), valueName: "pokemon"))
    var open: String?
    @Flag(help: ArgumentHelp(tr("List what the desktop's search (GNOME Shell, KRunner) shows for the query's words, in its order: each word must match. Typing a new search lists what the search line finds.")))
    var desktopSearch = false
    @Option(help: ArgumentHelp(tr("Colour and pictures: auto (unless NO_COLOR is set), always or never.")))
    var color: Output.When = .auto
    @Option(help: ArgumentHelp(tr("How to draw the tiles' sprites: auto (the best the terminal offers: kitty graphics, sixel, half blocks), kitty, sixel or blocks.")))
    var imageProtocol: ImageChoice = .auto

    /// browse's context: its own `--color`; no `--json`, no `--language` (the locale's names).
    var options: ContextOptions { ContextOptions(json: false, color: color, language: nil) }

    func run(in context: Context) throws {
        let w = context.words
        guard isatty(0) == 1, isatty(1) == 1 else {
            throw Failure(message: w.tr("browse needs a terminal on its input and output; for scripts, use 'pokectl list' or 'pokectl search'"),
                          code: .usage)
        }
        // A terminal that cannot move the cursor or clear the screen (Emacs' shell, a dumb
        // serial line) would show the escape codes as text.
        if let why = Self.cannotDraw(term: context.environment["TERM"], w) {
            throw Failure(message: w.trf("browse cannot draw on this terminal (%s); use 'pokectl list' or 'pokectl search' instead", why),
                          code: .usage)
        }
        let environment = context.environment
        let mode = color == .never ? ColorMode.none : color == .always ? ColorMode.depth(environment: environment) : ColorMode.detect(environment: environment)
        // Asked before the screen is taken over: the answers come on the same input.
        let pictures = mode == .none ? Pictures.choose(.blocks, environment: environment) : Pictures.choose(imageProtocol, environment: environment)
        let graphics = TileGraphics(protocolUsed: pictures.protocolUsed, tmuxPassthrough: pictures.tmuxPassthrough,
                                    fit: { path, columns, rows in
                                        Terminal.image(at: path).flatMap { pictures.fitted($0, maxColumns: columns, maxRows: rows) }
                                    },
                                    png: { LibPNGEncoder.encode($0) })
        // The terminal's answers all read before browse reads keys: a late one is no key.
        TerminalQuery.settle()
        let session = TerminalSession()
        session.begin()
        let inbox = Inbox()
        let names = BrowseNames(language: context.language)
        // The threads never take the loop's signals; their owner joins them when browse ends.
        let (lanes, signals) = TerminalSession.startingWorkers {
            (Lanes(inbox: inbox, names: names, words: w, environment: environment,
                   desktopSearch: desktopSearch ? query.joined(separator: " ") : nil, connect: context.connect), BrowseSignals(inbox, words: w))
        }
        var app = BrowseApp(query: query.joined(separator: " "), open: open, mode: mode, graphics: graphics, terminal: session,
                            lanes: lanes, names: names, words: w, environment: environment)
        let outcome = BrowseLoop(session: session, inbox: inbox).run(&app)
        session.write(app.graphics.end())
        session.restore()
        signals.stop(within: Self.joinWait)
        lanes.stop(within: Self.joinWait)
        session.end()
        switch outcome {
        case .quit: return
        case .signal(let sig): TerminalSession.die(of: sig)
        case .serviceGone(let why):
            throw Failure(message: w.trf("browse lost the session bus (%s); the terminal is restored", why), code: .unavailable)
        }
    }

    /// How long browse's end waits for its threads, at most: a lane inside a slow call is left
    /// to the process's exit rather than holding the shell's prompt.
    static let joinWait = 0.1

    /// Why a terminal of this `TERM` cannot show browse; nil when it can.
    static func cannotDraw(term: String?, _ w: Words) -> String? {
        guard let term, !term.isEmpty else { return w.tr("TERM is not set") }
        return term == "dumb" ? "TERM=dumb" : nil
    }
}
