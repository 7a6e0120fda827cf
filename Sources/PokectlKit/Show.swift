import ArgumentParser
import PokedexBusClient
import PokedexModels
import PokedexTerminal

struct Show: PokectlCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "show",
        abstract: tr("Show one Pokémon: its sprite, types, sizes, stats, genus, flavour text, evolution family and type matchups; or a random sprite for a fetch tool."),
        discussion: tr("""
            The sprite is drawn with the best the terminal offers: kitty graphics, sixel, else \
            half blocks (24-bit colour where COLORTERM says truecolor, else 256 colours). The \
            terminal is asked for at most 100 ms; not when stdout is not a terminal, TERM is \
            dumb or NO_COLOR is set. Inside tmux, pictures go through its passthrough when \
            allow-passthrough is on, else half blocks. The card fits the terminal's width \
            (COLUMNS overrides it); under 60 columns the family is names without their \
            conditions. The matchups follow the current games' chart, each ability that changes \
            them named with what it makes of them (Levitate: Ground ×0; with Wonder Guard only \
            the super-effective hits land). The family is the one of this Pokémon's form (a \
            regional form's own line), every way a step happens said, the current games' first, \
            in the games' words. Under it, what each ability does (the hidden one marked), and a \
            line each for breeding (egg groups, gender, egg cycles), training (EV yield, catch \
            rate, base friendship, growth rate) and the items it holds in the wild, as the \
            newest game it is in has them; `pokectl moves` lists its moves.

            --random prints a sprite drawn at random among the cached ones (and its name) as \
            coloured half blocks, even into a pipe, for fastfetch (--file-raw -) or neofetch \
            (--ascii); it never waits on the network while the cache holds one. NO_COLOR or \
            --color never gives the silhouette.
            Names, genus, flavour text, types, abilities and stats are in the language of \
            --language, else of the terminal's locale, each in English where PokeAPI has none in \
            it.
            JSON: every key of the LocalizedDetail method (id, number, name, height, weight, \
            types, abilities, stats, sprite_path, favorite, genus, flavor_text, color, \
            animated_sprite_path, display_name, language, type_names, ability_names, \
            ability_effects, stat_names, evolution, matchups, ability_matchups, cry_path, game, \
            game_name, hidden_ability, egg_groups, egg_group_names, gender_rate, egg_cycles, \
            capture_rate, base_friendship, growth_rate, growth_rate_name, ev_yield, held_items, \
            held_item_names, held_items_version, held_items_version_name); with --random: {"id", \
            "number", "name", "path", "shiny"}.
            """)) }

    @Argument(help: ArgumentHelp(tr("A name or number (not with --random)."))) var pokemon: String?
    @Flag(help: ArgumentHelp(tr("Do not draw the sprite."))) var noImage = false
    @Option(help: ArgumentHelp(tr("How to draw the sprite: auto (the best the terminal offers: kitty graphics, sixel, half blocks), kitty, sixel or blocks. Forced kitty or sixel is emitted even when stdout is not a terminal.")))
    var imageProtocol: ImageChoice = .auto
    @Flag(help: ArgumentHelp(tr("Say on stderr which way the sprite is drawn, and why."))) var verbose = false
    @OptionGroup var random: RandomOptions
    @OptionGroup var common: Common

    var options: ContextOptions { common.options }

    func validate() throws {
        if random.random {
            guard pokemon == nil else { throw ValidationError(Language.words.tr("give a Pokémon or --random, not both")) }
            guard !noImage else { throw ValidationError(Language.words.tr("--random prints a sprite: --no-image does not go with it")) }
            if let w = random.width, !(1...200).contains(w) { throw ValidationError(Language.words.tr("--width must be between 1 and 200")) }
            if let h = random.height, !(1...200).contains(h) { throw ValidationError(Language.words.tr("--height must be between 1 and 200")) }
        } else {
            guard pokemon != nil else { throw ValidationError(Language.words.tr("give a name or number, or --random")) }
            guard !random.favorite, random.shinyChance == nil, !random.hideName, random.width == nil, random.height == nil else {
                throw ValidationError(Language.words.tr("--favorite, --shiny-chance, --hide-name, --width and --height go with --random"))
            }
        }
    }

    func run(in context: Context) throws {
        if random.random { return try RandomSpriteOutput(options: random, imageProtocol: imageProtocol, verbose: verbose).run(in: context) }
        let reply = try context.withClient { c throws(BusError) in try context.detail(pokemon ?? "", c) }
        if context.json, let raw = reply.first { return context.output.json(JSON(Coding.namingEvolutionFields(raw))) }
        let d = try context.decoded { () throws(BusError) in try Pokedex1.detail.decodeReply(reply) }
        card(d, context)
    }

    /// The detail card, its sprite drawn with the best the terminal offers (or forced), else in
    /// half blocks inside the card.
    private func card(_ d: PokemonDetail, _ context: Context) {
        let forced = imageProtocol.forcesPixels
        let mode = forced && context.colorMode == .none ? ColorMode.truecolor : context.colorMode
        let sprite = noImage || (mode == .none && !forced) ? nil : Terminal.image(at: d.spritePath)
        let pictures = Pictures.choose(noImage ? .blocks : imageProtocol, environment: context.environment)
        if verbose { context.error("pokectl: " + context.words.trf("sprite drawn with %s: %s", pictures.protocolUsed.rawValue, pictures.reason)) }
        let width = context.width
        if let sprite,
           let picture = pictures.drawing(sprite, maxColumns: min(DetailCard.imageColumns, width), maxRows: DetailCard.imageColumns / 2) {
            let card = DetailCard(detail: d, image: nil, width: width, mode: mode, graphic: (picture.columns, picture.rows),
                                  words: context.words)
                .renderLeavingRoom()
            for (i, line) in card.lines.enumerated() {
                if i == card.pictureLine { context.out.write(picture.sequence) }
                context.out.line(line)
            }
            return
        }
        for line in DetailCard(detail: d, image: sprite, width: width, mode: mode, words: context.words).render() { context.out.line(line) }
    }
}

/// `show --random`'s options.
struct RandomOptions: ParsableArguments {
    @Flag(help: ArgumentHelp(tr("A sprite drawn at random among the cached ones, for a fetch tool's logo."))) var random = false
    @Flag(help: ArgumentHelp(tr("With --random: only among the favorites."))) var favorite = false
    @Option(help: ArgumentHelp(tr("With --random: how often the shiny sprite is drawn, as 1/128 or 0.0078 (default 1/128, as in the games since generation 6).")))
    var shinyChance: Probability?
    @Flag(help: ArgumentHelp(tr("With --random: the sprite alone, without the name under it."))) var hideName = false
    @Option(help: ArgumentHelp(tr("With --random: the sprite's width in columns (default: one column per pixel, at most 30 columns and 15 lines, room for a fetch tool's lines beside it in 80×24).")))
    var width: Int?
    @Option(help: ArgumentHelp(tr("With --random: the sprite's height in lines at most (default 15; with --width alone, as tall as that width makes it)."))) var height: Int?
}

/// A probability given as `1/128`, `0.0078`, `0` or `1`.
struct Probability: ExpressibleByArgument {
    /// The default shiny odds since generation 6.
    static let shinyDefault = Probability(value: 1.0 / 128)
    let value: Double

    init(value: Double) { self.value = value }

    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        let v: Double?
        if parts.count == 2, let n = Double(parts[0]), let d = Double(parts[1]), d > 0 { v = n / d } else { v = Double(argument) }
        guard let v, v.isFinite, (0...1).contains(v) else { return nil }
        value = v
    }

    static var defaultValueDescription: String { "1/128" }
}
