import ArgumentParser
import PokedexBusClient
import PokedexModels

struct Sprite: PokectlCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "sprite",
        abstract: tr("Print the path of a Pokémon's sprite, fetching it if needed."),
        discussion: tr("JSON: {\"pokemon\": the resolved API name, \"id\", \"number\", \"query\": as given, \"sprite_path\"}")) }

    @Argument(help: ArgumentHelp(tr("A name or number."))) var pokemon: String
    @OptionGroup var common: Common

    var options: ContextOptions { common.options }

    func run(in context: Context) throws {
        let (path, resolved) = try context.withClient { c throws(BusError) in
            let path = try c.call(Pokedex1.spritePath, pokemon)
            return (path, context.json ? Context.exactEntry(pokemon, c) : nil)
        }
        if context.json {
            return context.output.json(.object([("id", resolved.map { .int($0.id) } ?? .null), ("number", resolved.map { .int(PokedexNumber.shown($0.id)) } ?? .null), ("pokemon", .string(resolved?.name ?? pokemon)),
                                                ("query", .string(pokemon)), ("sprite_path", .string(path))]))
        }
        context.output.line(Output.safe(path))
    }
}
