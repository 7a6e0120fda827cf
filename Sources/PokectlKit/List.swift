import ArgumentParser
import PokedexBusClient
import PokedexModels
import PokedexTerminal

struct List: PokectlCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "list",
        abstract: tr("List Pokémon in the API's order, a page at a time."),
        discussion: tr("Names as the games write them, in the language of --language or the terminal's locale. JSON: {\"total\", \"page\", \"per_page\", \"entries\": [{\"id\", \"number\", \"name\", \"display_name\", \"sprite_path\", \"favorite\"}]}")) }

    @Option(help: ArgumentHelp(tr("Page number, from 1."))) var page = 1
    @Option(help: ArgumentHelp(tr("Entries per page, 1 to 100."))) var perPage = 20
    @Flag(help: ArgumentHelp(tr("Draw a small sprite on each row (on a terminal with colour)."))) var images = false
    @Option(help: ArgumentHelp(tr("With --images: auto (the best the terminal offers: kitty graphics, sixel, half blocks), kitty, sixel or blocks. Forced kitty or sixel is emitted even when stdout is not a terminal.")))
    var imageProtocol: ImageChoice = .auto
    @OptionGroup var common: Common

    var options: ContextOptions { common.options }

    func validate() throws {
        guard page >= 1 else { throw ValidationError(Language.words.tr("--page starts at 1")) }
        guard (1...100).contains(perPage) else { throw ValidationError(Language.words.tr("--per-page must be between 1 and 100")) }
    }

    /// One page, with its names as the games write them.
    struct Shown {
        var page: ListPage
        var names: [UInt32: String]
    }

    func run(in context: Context) throws {
        let drawing = images && !context.json && (context.colorMode != .none || imageProtocol.forcesPixels)
        let shown = try context.withClient { c throws(BusError) in try fetch(c, context, sprites: drawing) }
        guard Paging.exists(page: page, perPage: perPage, total: shown.page.total) else {
            throw Failure(message: Paging.pastTheEnd(page: page, perPage: perPage, total: shown.page.total, words: context.words), code: .notFound)
        }
        let output = context.output
        if drawing {
            let pictures = Pictures.choose(imageProtocol, environment: context.environment)
            for e in shown.page.entries { output.thumbnailRow(e, name: shown.names[e.id], pictures: pictures, width: context.width) }
            return output.line(output.dim(output.pageLine(page: page, perPage: perPage, total: shown.page.total)))
        }
        if context.json { return output.json(json(shown)) }
        output.table(output.entryHeader, output.entryRows(shown.page.entries, names: shown.names))
        output.line(output.dim(output.pageLine(page: page, perPage: perPage, total: shown.page.total)))
    }

    /// The page asked. One past anything the service can hold is asked as the last offset there
    /// is: the answer's total then says how many pages there are. With `sprites`, those not
    /// fetched yet are fetched now (the service does that in the background anyway).
    func fetch(_ c: any PokedexService, _ context: Context, sprites: Bool) throws(BusError) -> Shown {
        let offset = Paging.offset(page: page, perPage: perPage) ?? UInt32.max
        var page = try c.call(Pokedex1.listPage, (offset, UInt32(perPage)))
        if sprites {
            for i in page.entries.indices where page.entries[i].spritePath.isEmpty {
                page.entries[i].spritePath = (try? c.call(Pokedex1.spritePath, String(page.entries[i].id))) ?? ""
            }
        }
        return Shown(page: page, names: context.names(page.entries.map(\.id), c))
    }

    func json(_ shown: Shown) -> JSON {
        .object([("entries", .array(shown.page.entries.map { JSON($0, displayName: shown.names[$0.id]) })), ("page", .int(page)),
                 ("per_page", .int(perPage)), ("total", .int(shown.page.total))])
    }
}
