import ArgumentParser
import PokedexBusClient
import PokedexModels

/// `pokectl cry POKEMON`: the cry, through the desktop's sound server, without waiting for it.
struct Cry: PokectlCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "cry",
        abstract: tr("Play a Pokémon's cry through the desktop's sound server."),
        discussion: tr("The service fetches the cry once (PokeAPI's latest, Ogg Vorbis) and keeps it with the sprites. It plays through PipeWire (pw-play) or PulseAudio (paplay), else libcanberra (canberra-gtk-play), in the background: the command returns at once. With no sound server it says so and exits 3.\nJSON: {\"id\", \"number\", \"pokemon\", \"cry_path\", \"played\": the player, or null, \"why\": why not, or null}")) }

    @Argument(help: ArgumentHelp(tr("A name or number."))) var pokemon: String
    @Flag(help: ArgumentHelp(tr("Only print the cry's path; play nothing."))) var pathOnly = false
    @OptionGroup var common: Common

    var options: ContextOptions { common.options }

    func run(in context: Context) throws {
        let (path, resolved) = try context.withClient { c throws(BusError) in
            let path = try c.call(Pokedex1.cryPath, pokemon)
            return (path, context.json ? Context.exactEntry(pokemon, c) : nil)
        }
        let outcome: CryPlayer.Outcome? = pathOnly ? nil : CryPlayer.play(path, environment: context.environment)
        if context.json {
            var played: JSON = .null, why: JSON = .null
            if case .playing(let player)? = outcome { played = .string(player) }
            if case .silent(let reason)? = outcome { why = .string(reason) }
            // Keys sorted, as every command's JSON has them.
            context.output.json(.object([("cry_path", .string(path)), ("id", resolved.map { .int($0.id) } ?? .null), ("number", resolved.map { .int(PokedexNumber.shown($0.id)) } ?? .null),
                                         ("played", played), ("pokemon", .string(resolved?.name ?? pokemon)), ("why", why)]))
        } else if pathOnly {
            context.output.line(Output.safe(path))
        }
        if case .silent(let reason)? = outcome {
            if !context.json { context.error("pokectl: " + reason) }
            throw Failure.silent(.unavailable)
        }
    }
}
