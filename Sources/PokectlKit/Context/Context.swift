import Glibc
import PokedexBusClient
import PokedexModels
import PokedexTerminal

/// What a command runs in, built once its options are parsed: the reader's language, the
/// terminal, where its output goes, and how to reach the service. What pokectl kept in globals
/// (the colour choice, the names' language) is here, so that a test runs a command in process
/// with its own (``PokectlProgram``; Tests/unit/PokectlKitTests).
public struct Context {
    /// The environment (pokectl links no Foundation).
    let environment: [String: String]
    /// The language of names, genus and flavour text asked of the service: a PokeAPI code
    /// (`--language`, else the locale's).
    let language: String
    /// pokectl's own words, in the reader's language.
    let words: Words
    /// `--color`: auto (a terminal without NO_COLOR), always or never.
    let color: Output.When
    /// `--json`.
    let json: Bool
    /// Whether stdout is a terminal.
    let isTerminal: Bool
    let out: TextStream
    let err: TextStream
    /// A connection to the service: the session bus's, or a test's fake.
    let connect: @Sendable () throws(BusError) -> any PokedexService
    /// Following the service (`watch`, `widget --follow`): the session bus's, or a test's script.
    let follow: () throws(BusError) -> any ServiceEvents

    init(environment: [String: String], language: String, words: Words, color: Output.When, json: Bool, isTerminal: Bool,
         out: TextStream, err: TextStream, connect: @escaping @Sendable () throws(BusError) -> any PokedexService,
         follow: @escaping () throws(BusError) -> any ServiceEvents = { () throws(BusError) -> any ServiceEvents in try ServiceFollower() }) {
        self.environment = environment
        self.language = language
        self.words = words
        self.color = color
        self.json = json
        self.isTerminal = isTerminal
        self.out = out
        self.err = err
        self.connect = connect
        self.follow = follow
    }

    /// The process's: its environment, stdout and stderr, the session bus.
    static func process(_ options: ContextOptions) -> Context {
        let code = options.language.flatMap { NameLanguage.resolve($0, fallback: "en") } ?? NameLanguage.fromEnvironment(Terminal.environment)
        return Context(environment: Terminal.environment, language: code, words: Language.words, color: options.color, json: options.json,
                       isTerminal: Terminal.isTTY, out: TextStream(.standardOutput), err: TextStream(.standardError),
                       connect: { () throws(BusError) -> any PokedexService in try PokedexClient() })
    }

    /// The same, with another colour choice (browse's own `--color`).
    func with(color: Output.When) -> Context {
        Context(environment: environment, language: language, words: words, color: color, json: json, isTerminal: isTerminal,
                out: out, err: err, connect: connect, follow: follow)
    }

    /// Colour for pictures and badges: none off a terminal or with `--color never`.
    var colorMode: ColorMode {
        switch color {
        case .never: return .none
        case .always: return ColorMode.depth(environment: environment)
        case .auto: return isTerminal ? ColorMode.detect(environment: environment) : .none
        }
    }

    /// Columns to fit: `COLUMNS`, else the terminal's width, else 80.
    var width: Int {
        if let c = environment["COLUMNS"].flatMap(Int.init), c > 0 { return c }
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    /// How text is printed: colours as decided, in the reader's words, to ``out``.
    var output: Output { Output(mode: colorMode, words: words, out: out) }

    /// Writes a message to stderr, a line at a time as it was laid out. Messages carry the
    /// service's text (a host's error, a name), so each line goes through
    /// ``UntrustedText/terminal(_:)`` first: pokectl's own messages hold no controls.
    func error(_ message: String) {
        err.write(message.split(separator: "\n", omittingEmptySubsequences: false).map { UntrustedText.terminal(String($0)) + "\n" }.joined())
    }
}

/// The options that shape a ``Context``: every command's `--json`, `--color` and `--language`.
struct ContextOptions {
    var json = false
    var color: Output.When = .auto
    var language: String?
}
