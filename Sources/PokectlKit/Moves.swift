import ArgumentParser
import PokedexBusClient
import PokedexModels
import PokedexTerminal

struct Moves: PokectlCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "moves",
        abstract: tr("The moves a Pokémon learns in one game: by level-up, from machines, by breeding and from tutors."),
        discussion: tr("""
            The newest game it has moves in, unless --game names another: a version (scarlet, \
            Karmesin, スカーレット), a version group (scarlet-violet) or a game's name in the reader's \
            language. Each move's type, category, power, accuracy and PP are as that game has \
            them; "—" where the game prints none. A level of "Evo." is learnt on evolving. With \
            MOVE, only that move (its name in the reader's language, or its identifier), by \
            whichever ways it is learnt.
            JSON: every key of the Moves method (id, pokemon, game, game_name, games, language, \
            moves: [{method, level, id, move, name, type, type_name, category, category_name, \
            power, accuracy, pp}]), the moves filtered by MOVE.
            """)) }

    @Argument(help: ArgumentHelp(tr("A name or number."))) var pokemon: String
    @Argument(help: ArgumentHelp(tr("Only this move."))) var move: String?
    @Option(help: ArgumentHelp(tr("The game (default: the newest it has moves in)."))) var game = ""
    @Option(help: ArgumentHelp(tr("level-up, machine, egg or tutor (default: all four)."))) var method: LearnMethodChoice?
    @OptionGroup var common: Common

    var options: ContextOptions { common.options }

    func run(in context: Context) throws {
        let table = try context.withClient { c throws(BusError) -> (MoveTable, String) in
            let t = try c.call(Pokedex1.moves, (pokemon, game, method?.method, context.language))
            return (t, context.names([t.id], c)[t.id] ?? PokemonNames.display(t.pokemon))
        }
        var t = table.0
        if let move {
            let wanted = Self.folded(move)
            t.rows = t.rows.filter { Self.folded($0.name) == wanted || Self.folded($0.move) == wanted }
            guard !t.rows.isEmpty else {
                throw Failure(message: context.words.trf("%s learns no move called %s in %s", table.1, quoted(move), t.gameName), code: .notFound)
            }
        }
        if context.json { return context.output.json(Self.json(t)) }
        MoveTableText(table: t, pokemonName: table.1, words: context.words, output: context.output, width: context.width).print()
    }

    /// Compared as typed: case, spaces, hyphens and full width aside ("Thunder Punch",
    /// "thunder-punch"; "10まんボルト" for "１０まんボルト").
    static func folded(_ s: String) -> String {
        let narrow = String(String.UnicodeScalarView(s.unicodeScalars.map { u in
            (0xFF01...0xFF5E).contains(u.value) ? Unicode.Scalar(u.value - 0xFEE0) ?? u : u
        }))
        return narrow.lowercased().filter { !$0.isWhitespace && $0 != "-" && $0 != "\u{3000}" }
    }

    static func json(_ t: MoveTable) -> JSON {
        func opt(_ v: (some BinaryInteger)?) -> JSON { v.map { JSON.int($0) } ?? .null }
        return .object([
            ("game", .string(t.game)), ("game_name", .string(t.gameName)), ("games", .array(t.games.map(JSON.string))),
            ("id", .int(Int(t.id))), ("language", .string(t.language)),
            ("moves", .array(t.rows.map { m in
                .object([("accuracy", opt(m.accuracy)), ("category", .string(m.category)), ("category_name", .string(m.categoryName)),
                         ("id", .int(Int(m.id))), ("level", .int(Int(m.level))), ("method", .string(m.method.rawValue)),
                         ("move", .string(m.move)), ("name", .string(m.name)), ("power", opt(m.power)), ("pp", opt(m.pp)),
                         ("type", .string(m.type)), ("type_name", .string(m.typeName))])
            })),
            ("pokemon", .string(t.pokemon)),
        ])
    }
}

/// `--method`'s values.
struct LearnMethodChoice: ExpressibleByArgument {
    let method: Learnset.Method
    init?(argument: String) {
        guard let m = Learnset.Method(rawValue: argument.lowercased()) else { return nil }
        method = m
    }
    static var allValueStrings: [String] { Learnset.Method.allCases.map(\.rawValue) }
}

/// A move table as text: a title, then each way's moves under its heading, in columns fitted
/// to the terminal (``MoveColumns``).
struct MoveTableText {
    let table: MoveTable
    let pokemonName: String
    let words: Words
    let output: Output
    let width: Int

    func print() {
        output.line(output.bold(Output.safe(pokemonName)) + "  " + output.dim(Output.safe(table.gameName)))
        for method in Learnset.Method.allCases {
            let rows = table.rows.filter { $0.method == method }
            guard !rows.isEmpty else { continue }
            output.line("")
            output.line(output.dim(MoveColumns.heading(method, words)))
            let lines = MoveColumns.lines(rows, words: words, width: width - 2)
            for (i, line) in lines.enumerated() { output.line("  " + (i == 0 ? output.bold(line) : line)) }
        }
    }
}
