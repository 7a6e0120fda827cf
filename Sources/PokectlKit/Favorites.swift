import ArgumentParser
import PokedexBusClient
import PokedexModels

/// Makes one favorites change in one call, and prints what it did, human or JSON.
struct FavoriteChange {
    let pokemon: String
    let action: FavoriteAction

    func run(in context: Context) throws {
        let (u, names) = try context.withClient { c throws(BusError) in
            let u = try c.call(Pokedex1.changeFavorite, (pokemon, action))
            return (u, context.json ? [:] : context.names([u.id], c))
        }
        let output = context.output
        if context.json { return output.json(Self.json(u)) }
        output.line(Self.text(u, name: Output.safe(names[u.id] ?? u.name), output))
    }

    static func json(_ u: FavoriteUpdate) -> JSON {
        .object([("changed", .bool(u.changed)), ("favorite", .bool(u.favorite)), ("name", .string(u.name))])
    }

    static func text(_ u: FavoriteUpdate, name: String, _ output: Output) -> String {
        let w = output.words
        switch (u.favorite, u.changed) {
        case (true, true): return output.yellow("★") + " " + w.trf("%s added to favorites", name)
        case (false, true): return "☆ " + w.trf("%s removed from favorites", name)
        case (true, false): return output.yellow("★") + " " + w.trf("%s is already a favorite", name)
        case (false, false): return "☆ " + w.trf("%s was not a favorite", name)
        }
    }
}

struct Fav: PokectlCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "fav",
        abstract: tr("Keep a favorite (nothing changes if it is one already), and print what happened."),
        discussion: tr("Says the state to reach, not a flip: run twice, or again after a call that timed out (which the service may still have done), it leaves the same state. --toggle flips it instead.\nJSON: {\"name\", \"favorite\", \"changed\"}")) }

    @Argument(help: ArgumentHelp(tr("A name or number."))) var pokemon: String
    @Flag(help: ArgumentHelp(tr("Flip it: add it if it is not a favorite, remove it if it is."))) var toggle = false
    @OptionGroup var common: Common

    var options: ContextOptions { common.options }
    func run(in context: Context) throws { try FavoriteChange(pokemon: pokemon, action: toggle ? .toggle : .add).run(in: context) }
}

struct Unfav: PokectlCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "unfav",
        abstract: tr("Remove a favorite (nothing happens if it was not one)."),
        discussion: tr("JSON: {\"name\", \"favorite\": false, \"changed\"}")) }

    @Argument(help: ArgumentHelp(tr("A name or number."))) var pokemon: String
    @OptionGroup var common: Common

    var options: ContextOptions { common.options }
    func run(in context: Context) throws { try FavoriteChange(pokemon: pokemon, action: .remove).run(in: context) }
}

struct Favs: PokectlCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "favs",
        abstract: tr("List favorites in the order they were added."),
        discussion: tr("Names as the games write them, in the language of --language or the terminal's locale. When the favorites file is not sound (damaged, or not a file pokedexd may read), what the service did or why it cannot read it is said on stderr; when it cannot be read, favs exits 4. JSON: {\"favorites\": [{\"id\", \"number\", \"name\", \"display_name\", \"sprite_path\", \"favorite\"}], \"problem\": \"\" or that text}")) }

    @OptionGroup var common: Common

    var options: ContextOptions { common.options }

    /// The favorites, their names as the games write them, and what is wrong with their file ("" when nothing).
    struct Shown {
        var favorites: [ListEntry]
        var names: [UInt32: String]
        var problem: String
        /// False while the file can be neither read nor changed: the list shown is not the list.
        var readable: Bool
    }

    func run(in context: Context) throws {
        let shown = try context.withClient { c throws(BusError) in
            let favs = try c.call(Pokedex1.listFavorites)
            let status = try? c.call(Pokedex1.status)
            return Shown(favorites: favs, names: context.names(favs.map(\.id), c), problem: status?.favoritesProblem ?? "",
                         readable: status?.favoritesReadable ?? true)
        }
        let output = context.output
        if context.json {
            output.json(.object([("favorites", .array(shown.favorites.map { JSON($0, displayName: shown.names[$0.id]) })),
                                 ("problem", .string(shown.problem))]))
            if !shown.readable { throw Failure.silent(.storage) }
            return
        }
        if !shown.problem.isEmpty { context.error("pokectl: " + ServiceMessages.translate(shown.problem, context.words)) }
        if !shown.readable { throw Failure.silent(.storage) }
        if shown.favorites.isEmpty {
            // Nothing could be read: the message above says why; "none yet" would not be true.
            if shown.problem.isEmpty { output.line(context.words.tr("no favorites yet: add one with 'pokectl fav NAME'")) }
            return
        }
        output.table(output.entryHeader, output.entryRows(shown.favorites, names: shown.names))
    }
}
