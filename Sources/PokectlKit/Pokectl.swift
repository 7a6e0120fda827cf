import ArgumentParser
import Glibc
import PokedexBusClient
import PokedexModels

/// `pokectl`: the command line of the Pokédex service.
///
/// Every command names itself (`commandName:`): without it the parser derives the name from
/// `String(describing: Self.self)`, a runtime type-name lookup per subcommand that cost a third
/// of `pokectl --version`'s 15 ms (issue 38).
struct Pokectl: ParsableCommand {
    static var configuration: CommandConfiguration { CompletionCheck.applied(to: CommandConfiguration(
        commandName: "pokectl",
        abstract: tr("Browse the Pokédex, keep favorites: the command line of pokedexd."),
        discussion: tr("""
            Talks to io.github.pokedexd.Pokedex1 on the session bus; the first call starts the \
            service (D-Bus activation). Every command takes --json for scripts.

            EXIT STATUS
              0  ok
              1  not found (no Pokémon by that name or number)
              2  usage (a bad option or argument)
              3  service unavailable (not running and could not be activated,
                 or the network failed with nothing cached)
              4  the service could not save (disk full, permissions)

            ENVIRONMENT
              NO_COLOR   no colour and no pictures, even on a terminal
              COLORTERM  truecolor or 24bit: pictures in 24-bit colour
                         (else the 256-colour palette)
              COLUMNS    the width to fit (else the terminal's)
              LANGUAGE, LC_ALL, LC_MESSAGES, LANG
                         the language of names and of pokectl's words
                         (--language overrides it for names)
            """),
        version: PokedexVersion.current,
        subcommands: [Browse.self, List.self, Show.self, Moves.self, Search.self, Fav.self, Unfav.self, Favs.self, Sprite.self, Cry.self, Status.self, Sync.self, Cache.self, Watch.self, Widget.self])) }
}

/// A pokectl command: run in a ``Context`` built from its options once they are parsed.
protocol PokectlCommand: ParsableCommand {
    /// What shapes the context: `--json`, `--color`, `--language`.
    var options: ContextOptions { get }
    func run(in context: Context) throws
}

extension PokectlCommand {
    /// The parser's entry, unused: ``PokectlProgram`` runs ``run(in:)``.
    func run() throws { try run(in: .process(options)) }
}

/// pokectl as its main runs it: the arguments parsed, a context built, the command run, the
/// exit code returned. Help and usage errors are written here, in the reader's words, as the
/// parser laid them out.
public enum PokectlProgram {
    /// What parsing gives: a command to run, or an exit code (help written, or a usage error).
    public enum Parsed {
        case run(ParsedCommand)
        case exit(Int32)
    }

    /// A command as the parser made it, options and all.
    public struct ParsedCommand {
        var command: any ParsableCommand
    }

    /// pokectl's main: parses `arguments` (without the program's name), builds the context the
    /// command runs in (the terminal, the reader's language, stdout and stderr, the session bus),
    /// runs it and exits with its code. Both mains call it: pokectl's own, and the installed
    /// pokedexd's when it is started as pokectl (one binary, `MultiCall` in pokedexd).
    public static func main(_ arguments: [String]) -> Never {
        switch parse(arguments) {
        case .exit(let code):
            exit(code)
        case .run(let command):
            let code = run(command, in: context(for: command))
            fflush(nil)
            exit(code)
        }
    }

    public static func parse(_ arguments: [String]) -> Parsed {
        switch parsing(arguments) {
        case .success(let command): return .run(command)
        case .failure(let ended):
            if ended.code == Exit.ok.rawValue { print(ended.text) } else if !ended.text.isEmpty { printError(ended.text) }
            return .exit(ended.code)
        }
    }

    /// The context a command runs in, in this process (stdout, stderr, the session bus).
    public static func context(for parsed: ParsedCommand) -> Context {
        .process((parsed.command as? any PokectlCommand)?.options ?? ContextOptions())
    }

    /// Runs the command and returns its exit code; a failure is said on the context's stderr.
    public static func run(_ parsed: ParsedCommand, in context: Context) -> Int32 {
        do {
            if let command = parsed.command as? any PokectlCommand {
                try command.run(in: context)
            } else {
                var command = parsed.command
                try command.run()
            }
            // The terminal's late answers to the graphics queries, read before the shell can.
            TerminalQuery.settle()
            return Exit.ok.rawValue
        } catch let failure as Failure {
            TerminalQuery.settle()
            if !failure.message.isEmpty { context.error("pokectl: \(failure.message)") }
            return failure.code.rawValue
        } catch {
            // A command's own validation refused, or a help page asked for: as the parser would.
            // Help asked for (exit 0) goes to stdout, as a parse's does; a refusal to stderr.
            let ended = ended(error)
            if ended.code == Exit.ok.rawValue {
                context.out.line(ended.text)
            } else if !ended.text.isEmpty {
                context.error(ended.text)
            }
            return ended.code
        }
    }

    /// The end of a parse that runs nothing: its text (help on stdout when the code is 0,
    /// else a usage error for stderr) and the exit code.
    struct Ended: Error {
        let code: Int32
        let text: String
    }

    static func parsing(_ arguments: [String]) -> Result<ParsedCommand, Ended> {
        do {
            return .success(ParsedCommand(command: try CompletionCheck.parse(arguments) { try Pokectl.parseAsRoot(arguments) }))
        } catch {
            return .failure(ended(error))
        }
    }

    static func ended(_ error: any Error) -> Ended {
        // The parser writes a help page or a usage error: its texts in the reader's words.
        HelpWords.reading.store(true, ordering: .relaxed)
        let code = Pokectl.exitCode(for: error)
        let text = ParserWords.translate(Pokectl.fullMessage(for: error), Language.words)
        if code == .success { return Ended(code: Exit.ok.rawValue, text: text) }
        return Ended(code: code == .validationFailure ? Exit.usage.rawValue : code.rawValue, text: text)
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
        try Language.choose(language)
    }

    var options: ContextOptions { ContextOptions(json: json, color: color, language: language) }
}

/// Writes a message to stderr, a line at a time as it was laid out (the argument parser's usage
/// errors keep their lines), each line through ``UntrustedText/terminal(_:)``: pokectl's own
/// messages hold no controls. Before a context exists (parsing); a command has ``Context/error(_:)``.
func printError(_ message: String) {
    let text = message.split(separator: "\n", omittingEmptySubsequences: false).map { UntrustedText.terminal(String($0)) + "\n" }.joined()
    _ = text.withCString { write(2, $0, strlen($0)) }
}
