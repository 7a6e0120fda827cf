import ArgumentParser
import Glibc
import PokedexBusClient
import PokedexModels

/// pokectl's exit codes, as documented in `--help` and the README.
enum Exit: Int32 {
    case ok = 0, notFound = 1, usage = 2, unavailable = 3, storage = 4
}

/// `pokectl`: the command line of the Pokédex service.
///
/// Every command names itself (`commandName:`): without it the parser derives the name from
/// `String(describing: Self.self)`, a runtime type-name lookup per subcommand that cost a third
/// of `pokectl --version`'s 15 ms (issue 38).
struct Pokectl: ParsableCommand {
    static var configuration: CommandConfiguration { CompletionCheck.applied(to: CommandConfiguration(
        commandName: "pokectl",
        abstract: tr("Browse the Pokédex, keep favorites: the command line of pokedexd."),
        discussion: tr("Talks to io.github.pokedexd.Pokedex1 on the session bus; the first call starts the service (D-Bus activation). Every command takes --json for scripts.\n\nEXIT STATUS\n  0  ok\n  1  not found (no Pokémon by that name or number)\n  2  usage (a bad option or argument)\n  3  service unavailable (not running and could not be activated,\n     or the network failed with nothing cached)\n  4  the service could not save (disk full, permissions)\n\nENVIRONMENT\n  NO_COLOR   no colour and no pictures, even on a terminal\n  COLORTERM  truecolor or 24bit: pictures in 24-bit colour\n             (else the 256-colour palette)\n  COLUMNS    the width to fit (else the terminal's)\n  LANGUAGE, LC_ALL, LC_MESSAGES, LANG\n             the language of names and of pokectl's words\n             (--language overrides it for names)"),
        version: PokedexVersion.current,
        subcommands: [Browse.self, List.self, Show.self, Search.self, Fav.self, Unfav.self, Favs.self, Sprite.self, Cry.self, Status.self, Sync.self, Cache.self, Watch.self, Widget.self])) }
}

/// pokectl as its main runs it: the arguments parsed, the command run, the exit code returned.
public enum PokectlProgram {
    /// Runs `arguments` (without the program's name) and returns the exit code; help and
    /// usage errors are written here, in the reader's words, as the parser laid them out.
    public static func run(_ arguments: [String]) -> Int32 {
        do {
            var command = try CompletionCheck.parse(arguments) { try Pokectl.parseAsRoot(arguments) }
            try command.run()
            // The terminal's late answers to the graphics queries, read before the shell can.
            TerminalQuery.settle()
            return Exit.ok.rawValue
        } catch let failure as Failure {
            return failure.report()
        } catch {
            // The parser writes a help page or a usage error: its texts in the reader's words.
            HelpWords.reading.store(true, ordering: .relaxed)
            let code = Pokectl.exitCode(for: error)
            if code == .success {
                print(ParserWords.translate(Pokectl.fullMessage(for: error), Language.words))
                return Exit.ok.rawValue
            }
            let message = ParserWords.translate(Pokectl.fullMessage(for: error), Language.words)
            if !message.isEmpty { printError(message) }
            return code == .validationFailure ? Exit.usage.rawValue : code.rawValue
        }
    }
}

/// Options every command takes.
struct Common: ParsableArguments {
    @Flag(help: ArgumentHelp(tr("Print stable JSON on stdout (see the README for each command's shape).")))
    var json = false

    @Option(help: ArgumentHelp(tr("Colour and pictures: auto (on a terminal, unless NO_COLOR is set), always or never.")))
    var color: Output.When = .auto

    @Option(help: ArgumentHelp(tr("Names, genus and flavour text in this language: a PokeAPI code (en, de, fr, es, it, ja, ja-hrkt, ja-roma, ko, zh-hans, zh-hant, es-419) or a locale (de_DE.UTF-8). Default: the terminal's locale. In a C or English locale, pokectl's own words follow it too."), valueName: "code"))
    var language: String?

    mutating func validate() throws {
        Output.when = color
        try Language.choose(language)
    }
}

/// A failure to report in one line on stderr, with its exit code.
struct Failure: Error {
    let message: String
    let code: Exit

    /// Says it on stderr (once the terminal's late answers are read) and gives the exit code.
    func report() -> Int32 {
        TerminalQuery.settle()
        if !message.isEmpty { printError("pokectl: \(message)") }
        return code.rawValue
    }

    /// How this pokectl was installed, as the fix to name: the package's lives in /usr/bin.
    static var installHint: String {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count)
        let exe = n > 0 ? String(decoding: buf[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return exe.hasPrefix("/usr/bin/") ? Language.words.tr("reinstall the package ('sudo apt install --reinstall pokedexd')")
            : Language.words.tr("run 'make install'")
    }

    /// Maps a bus error (the service's own, or the bus's) to a line that says what to do.
    /// The service's own words come back in the reader's (``ServiceMessages``).
    init(_ e: BusError) {
        let w = Language.words
        let said = ServiceMessages.translate(e.message, w)
        switch e.name {
        case PokedexError.namePrefix + "NotFound":
            message = e.message.contains("did you mean") ? said : said + "; " + w.tr("try 'pokectl search' to find the name")
            code = .notFound
        case PokedexError.namePrefix + "InvalidArgument":
            message = said
            code = .usage
        case PokedexError.namePrefix + "Unavailable":
            message = said + "; " + w.tr("check the network, or 'journalctl --user -u pokedex'")
            code = .unavailable
        case PokedexError.namePrefix + "Storage":
            message = said + "; " + w.tr("free some disk space and try again")
            code = .storage
        case BusError.Name.noServer:
            message = w.trf("no session bus (%s); pokectl reaches pokedexd through a desktop session's bus: run it inside a session, or as 'dbus-run-session -- pokectl …'", e.message)
            code = .unavailable
        case BusError.Name.noReply:
            message = w.trf("pokedexd stopped before it answered (%s); see 'journalctl --user -u pokedex'", e.message)
            code = .unavailable
        case _ where e.isServiceGone:
            message = w.trf("pokedexd is not running and could not be started (%s); %s, or 'systemctl --user start pokedex'", e.message, Self.installHint)
            code = .unavailable
        case _ where e.isTimeout:
            message = w.tr("pokedexd did not answer in time; see 'journalctl --user -u pokedex'")
            code = .unavailable
        default:
            message = e.description
            code = .unavailable
        }
    }

    init(message: String, code: Exit) {
        self.message = message
        self.code = code
    }
}

/// Runs a bus conversation, turning any bus error into a ``Failure``.
/// Unless `starting` is false, a service that cannot answer is reported at once, before
/// anything is asked of it, with why: stopped (`SIGSTOP`), not starting (systemd's reason,
/// ``PokedexClient/serviceProblem(activation:)``), rather than after a call's timeout. A call
/// waits as long as the service's own deadline and a margin (``ServiceDefaults/clientWait``).
func withClient<T>(starting: Bool = true, _ body: (PokedexClient) throws(BusError) -> T) throws -> T {
    let client: PokedexClient
    do { client = try PokedexClient() } catch { throw Failure(error) }
    if starting, let why = client.readiness(words: Language.words) {
        throw Failure(message: why, code: .unavailable)
    }
    do {
        return try body(client)
    } catch where error.isTimeout {
        // It stopped while it answered (or the bus did): say which, and that the call may still land.
        let w = Language.words
        let why = client.stoppedService(words: w) ?? w.trf("pokedexd did not answer within %s s; see 'journalctl --user -u pokedex'", String(Int(client.timeout)))
        throw Failure(message: why + "; " + w.tr("what was asked may still be done when it answers again"), code: .unavailable)
    } catch {
        throw Failure(error)
    }
}

/// Decodes a reply already received; a shape this pokectl does not know is reported as such.
func decoded<T>(_ body: () throws(BusError) -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw Failure(message: Language.words.trf("the service's reply was not what this pokectl expects (%s); are pokectl and pokedexd the same version?", error.message), code: .unavailable)
    }
}

/// Writes a message to stderr, a line at a time as it was laid out (the argument parser's usage
/// errors keep their lines). Messages carry the service's text (a host's error, a name), so each
/// line goes through ``UntrustedText/terminal(_:)`` first: pokectl's own messages hold no controls.
func printError(_ message: String) {
    let text = message.split(separator: "\n", omittingEmptySubsequences: false).map { UntrustedText.terminal(String($0)) + "\n" }.joined()
    _ = text.withCString { write(2, $0, strlen($0)) }
}
