import PokedexBusClient
import PokedexModels
import PokedexTerminal

/// `pokectl show --random`: a sprite drawn at random among the cached ones, with its name
/// under it, as a fetch tool takes a logo: lines of coloured half blocks, even into a pipe
/// (`fastfetch --file-raw -`, neofetch's `--ascii`); real pixels where the terminal is
/// stdout and offers them, or where they are forced.
struct RandomSpriteOutput {
    let options: RandomOptions
    let imageProtocol: ImageChoice
    let verbose: Bool

    func run(in context: Context) throws {
        let json = context.json, w = context.words
        let chance = (options.shinyChance ?? .shinyDefault).value
        let (pick, names) = try context.withClient { c throws(BusError) in
            let pick = try c.call(Pokedex1.randomSprite, (options.favorite, chance))
            // Its name as the games write it, in the reader's language (from memory at the service).
            return (pick, options.hideName || json ? [:] : context.names([pick.id], c))
        }
        if json {
            return context.output.json(.object([("id", .int(pick.id)), ("name", .string(pick.name)), ("number", .int(PokedexNumber.shown(pick.id))), ("path", .string(pick.path)),
                                                ("shiny", .bool(pick.shiny))]))
        }
        guard let sprite = Terminal.image(at: pick.path), let cropped = PixelArt.cropped(sprite) else {
            throw Failure(message: w.trf("the sprite of %s at %s cannot be read; 'pokectl cache verify' repairs the cache", pick.name, pick.path),
                          code: .unavailable)
        }
        // The sprite's own size within the default budget, or what the options say.
        let columns = min(options.width ?? min(cropped.width, Self.defaultMaxColumns), PixelArt.maxCells)
        let rows = min(options.height ?? (options.width == nil ? Self.defaultMaxRows : 4 * columns), PixelArt.maxCells)
        // Without colour, the silhouette, unless pixels are forced.
        let colorMode = Self.colorMode(context)
        let pictures = Pictures.choose(colorMode == .none && !imageProtocol.forcesPixels ? .blocks : imageProtocol,
                                       environment: context.environment)
        if verbose {
            context.error("pokectl: \(PokedexNumber.label(pick.id)) \(pick.name)\(pick.shiny ? ", shiny" : ""), from \(pick.path)")
            context.error("pokectl: " + w.trf("sprite drawn with %s: %s", pictures.protocolUsed.rawValue, pictures.reason))
        }
        var lines: [String]
        let drawn: Int
        if let picture = pictures.drawing(sprite, maxColumns: columns, maxRows: rows) {
            // The picture does not move the cursor: blank lines make its room.
            lines = [picture.sequence] + Array(repeating: "", count: picture.rows - 1)
            drawn = picture.columns
        } else {
            lines = SpriteArt.lines(cropped, maxColumns: columns, maxRows: rows, mode: colorMode, silhouette: true)
            drawn = lines.first.map(TerminalText.width) ?? columns
        }
        if !options.hideName {
            let display = names[pick.id] ?? PokemonNames.display(pick.name)
            // Within the logo's budget (--width, else the default's 30 columns): a longer name
            // goes on a second line, broken between words, each centred under the sprite.
            let name = TerminalText.safe(pick.shiny ? w.trf("Shiny %s", display) : display)
            for part in TerminalText.wrap(name, to: max(drawn, options.width ?? Self.defaultMaxColumns)) {
                lines.append(String(repeating: " ", count: max(0, (drawn - TerminalText.width(part)) / 2)) + part)
            }
        }
        context.out.line(lines.joined(separator: "\n"))
    }

    /// The most a sprite takes without `--width` and `--height`: beside a fetch tool's lines
    /// (about 48 columns and 18 lines) in an 80×24 terminal, with the name under it.
    static let defaultMaxColumns = 30
    static let defaultMaxRows = 15

    /// Colour even into a pipe (a fetch tool reads one); none under NO_COLOR or `--color never`,
    /// which leaves the silhouette.
    private static func colorMode(_ context: Context) -> ColorMode {
        context.color == .never || context.environment["NO_COLOR"] != nil ? .none : ColorMode.depth(environment: context.environment)
    }
}
