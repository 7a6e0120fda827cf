import ArgumentParser
import Glibc
import PokedexBusClient
import PokedexModels

/// pokectl's exit codes, as documented in `--help` and the README.
enum Exit: Int32 {
    case ok = 0, notFound = 1, usage = 2, unavailable = 3, storage = 4
}

/// `pokectl`: the command line of the Pokédex service.
@main
struct Pokectl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pokectl",
        abstract: "Browse the Pokédex, keep favorites: the command line of pokedexd.",
        discussion: """
            Talks to io.github.pokedexd.Pokedex1 on the session bus; the first call starts the service \
            (D-Bus activation). Every command takes --json for scripts.

            EXIT STATUS
              0  ok
              1  not found (no Pokémon by that name or number)
              2  usage (a bad option or argument)
              3  service unavailable (not running and could not be activated, or the network failed with nothing cached)
              4  the service could not save (disk full, permissions)

            ENVIRONMENT
              NO_COLOR   no colour and no pictures, even on a terminal
              COLORTERM  truecolor or 24bit: pictures in 24-bit colour (else the 256-colour palette)
              COLUMNS    the width to fit (else the terminal's)
              LANGUAGE, LC_ALL, LC_MESSAGES, LANG
                         the language of names and of pokectl's words (--language overrides it for names)
            """,
        version: PokedexVersion.current,
        subcommands: [Browse.self, List.self, Show.self, Search.self, Fav.self, Unfav.self, Favs.self, Sprite.self, Status.self, Sync.self, Cache.self, Watch.self])

    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as Failure {
            failure.report()
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Glibc.exit(0)
            }
            let message = fullMessage(for: error)
            if !message.isEmpty { printError(message) }
            Glibc.exit(code == .validationFailure ? Exit.usage.rawValue : code.rawValue)
        }
    }
}

/// Options every command takes.
struct Common: ParsableArguments {
    @Flag(help: "Print stable JSON on stdout (see the README for each command's shape).")
    var json = false

    @Option(help: "Colour and pictures: auto (on a terminal, unless NO_COLOR is set), always or never.")
    var color: Output.When = .auto

    @Option(help: ArgumentHelp("Names, genus and flavour text in this language: a PokeAPI code (en, de, fr, es, it, ja, ja-hrkt, ja-roma, ko, zh-hans, zh-hant, es-419) or a locale (de_DE.UTF-8). Default: the terminal's locale.", valueName: "code"))
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

    func report() -> Never {
        if !message.isEmpty { printError("pokectl: \(message)") }
        exit(code.rawValue)
    }

    /// How this pokectl was installed, as the fix to name: the package's lives in /usr/bin.
    static var installHint: String {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count)
        let exe = n > 0 ? String(decoding: buf[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return exe.hasPrefix("/usr/bin/") ? "reinstall the package ('sudo apt install --reinstall pokedexd')" : "run 'make install'"
    }

    /// Maps a bus error (the service's own, or the bus's) to a line that says what to do.
    init(_ e: BusError) {
        switch e.name {
        case PokedexError.namePrefix + "NotFound":
            message = e.message.contains("did you mean") ? e.message : e.message + "; try 'pokectl search' to find the name"
            code = .notFound
        case PokedexError.namePrefix + "InvalidArgument":
            message = e.message
            code = .usage
        case PokedexError.namePrefix + "Unavailable":
            message = e.message + "; check the network, or 'journalctl --user -u pokedex'"
            code = .unavailable
        case PokedexError.namePrefix + "Storage":
            message = e.message + "; free some disk space and try again"
            code = .storage
        case BusError.Name.noServer:
            message = "no session bus (\(e.message)); pokectl reaches pokedexd through a desktop session's bus: "
                + "run it inside a session, or as 'dbus-run-session -- pokectl …'"
            code = .unavailable
        case BusError.Name.noReply:
            message = "pokedexd stopped before it answered (\(e.message)); see 'journalctl --user -u pokedex'"
            code = .unavailable
        case _ where e.isServiceGone:
            message = "pokedexd is not running and could not be started (\(e.message)); \(Self.installHint), or 'systemctl --user start pokedex'"
            code = .unavailable
        case _ where e.isTimeout:
            message = "pokedexd did not answer in time; see 'journalctl --user -u pokedex'"
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
/// Unless `starting` is false, a service that does not answer is reported within seconds, with
/// systemd's reason (``PokedexClient/serviceProblem(activation:)``), instead of after a call's timeout.
func withClient<T>(starting: Bool = true, _ body: (PokedexClient) throws(BusError) -> T) throws -> T {
    let client: PokedexClient
    do { client = try PokedexClient() } catch { throw Failure(error) }
    if starting, let why = client.serviceProblem() { throw Failure(message: why, code: .unavailable) }
    do {
        return try body(client)
    } catch {
        throw Failure(error)
    }
}

/// Decodes a reply already received; a shape this pokectl does not know is reported as such.
func decoded<T>(_ body: () throws(BusError) -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw Failure(message: "the service's reply was not what this pokectl expects (\(error.message)); are pokectl and pokedexd the same version?", code: .unavailable)
    }
}

/// Writes one line to stderr. Messages carry the service's text (a host's error, a name), so the
/// line goes through ``UntrustedText/terminal(_:)`` first: pokectl's own messages hold no controls.
func printError(_ line: String) {
    let text = UntrustedText.terminal(line) + "\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
}
