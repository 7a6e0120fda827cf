import ArgumentParser
import Glibc
import PokedexBusClient
import PokedexModels
import PokedexTerminal

struct List: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "list",
        abstract: tr("List Pokémon in the API's order, a page at a time."),
        discussion: tr("Names as the games write them, in the language of --language or the terminal's locale. JSON: {\"total\", \"page\", \"per_page\", \"entries\": [{\"id\", \"name\", \"display_name\", \"sprite_path\", \"favorite\"}]}")) }

    @Option(help: ArgumentHelp(tr("Page number, from 1."))) var page = 1
    @Option(help: ArgumentHelp(tr("Entries per page, 1 to 100."))) var perPage = 20
    @Flag(help: ArgumentHelp(tr("Draw a small sprite on each row (on a terminal with colour)."))) var images = false
    @Option(help: ArgumentHelp(tr("With --images: auto (the best the terminal offers: kitty graphics, sixel, half blocks), kitty, sixel or blocks. Forced kitty or sixel is emitted even when stdout is not a terminal.")))
    var imageProtocol: ImageChoice = .auto
    @OptionGroup var common: Common

    func validate() throws {
        guard page >= 1 else { throw ValidationError(Language.words.tr("--page starts at 1")) }
        guard (1...100).contains(perPage) else { throw ValidationError(Language.words.tr("--per-page must be between 1 and 100")) }
    }

    func run() throws {
        // A page past anything the service can hold is asked as the last offset there is: the
        // answer's total then says how many pages there are.
        let offset = Paging.offset(page: page, perPage: perPage) ?? UInt32.max
        let drawing = images && !common.json && (Terminal.colorMode != .none || imageProtocol.forcesPixels)
        let (result, names) = try withClient { c throws(BusError) in
            var page = try c.listPage(offset: offset, limit: UInt32(perPage))
            if drawing {
                // Sprites not fetched yet are fetched now (the service does that in the background anyway).
                for i in page.entries.indices where page.entries[i].spritePath.isEmpty {
                    page.entries[i].spritePath = (try? c.spritePath(String(page.entries[i].id))) ?? ""
                }
            }
            return (page, Language.names(page.entries.map(\.id), c))
        }
        guard Paging.exists(page: page, perPage: perPage, total: result.total) else {
            throw Failure(message: Paging.pastTheEnd(page: page, perPage: perPage, total: result.total, words: Language.words), code: .notFound)
        }
        if drawing {
            let pictures = Pictures.choose(imageProtocol, environment: Terminal.environment)
            for e in result.entries { Output.thumbnailRow(e, name: names[e.id], pictures: pictures) }
            return print(Output.dim(Output.pageLine(page: page, perPage: perPage, total: result.total)))
        }
        if common.json {
            JSON.object([("entries", .array(result.entries.map { JSON($0, displayName: names[$0.id]) })), ("page", .int(page)),
                         ("per_page", .int(perPage)), ("total", .int(result.total))]).print()
            return
        }
        Output.table(Output.entryHeader, Output.entryRows(result.entries, names: names))
        print(Output.dim(Output.pageLine(page: page, perPage: perPage, total: result.total)))
    }
}

struct Search: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "search",
        abstract: tr("Find Pokémon by name in any language, by number, with typos forgiven; filter by type and generation."),
        discussion: tr("Ranks exact names and numbers first, then prefixes, word prefixes (\"mega\" finds charizard-mega-x), substrings, then near misses (\"charzard\"). Names in ja, ko, zh, fr, de, es and it match too, for every species the service has seen; 'pokectl sync' indexes them all.\nJSON: {\"query\", \"coverage\": {\"localized\", \"species\"}, \"results\": [{\"id\", \"name\", \"sprite_path\", \"favorite\", \"match\", \"matched_name\", \"language\", \"distance\"}]}")) }

    @Argument(help: ArgumentHelp(tr("Part of a name, a number, or nothing with --type/--gen."))) var query: String = ""
    @Option(help: ArgumentHelp(tr("Most results, 1 to 100."))) var limit = 10
    @Option(name: .customLong("type"), help: ArgumentHelp(tr("Only Pokémon of this type (repeat for both types)."))) var types: [String] = []
    @Option(help: ArgumentHelp(tr("Only Pokémon introduced in this generation (1–9)."))) var gen: Int?
    @OptionGroup var common: Common

    func validate() throws {
        guard (1...100).contains(limit) else { throw ValidationError(Language.words.tr("--limit must be between 1 and 100")) }
        guard !query.isEmpty || !types.isEmpty || gen != nil else { throw ValidationError(Language.words.tr("give a query, --type or --gen")) }
        if let gen, !(1...Self.generations).contains(gen) {
            throw ValidationError(Language.words.trf("--gen must be between 1 and %s", String(Self.generations)))
        }
    }

    func run() throws {
        let full = ([query] + types.map { "type:\($0)" } + (gen.map { ["gen:\($0)"] } ?? [])).joined(separator: " ")
        let (reply, (localized, species), names) = try withClient { c throws(BusError) in
            let reply = try c.values(Pokedex1.searchDetailed, (full, UInt32(limit)))
            let ids = common.json ? [] : ((try? Pokedex1.searchDetailed.decodeReply(reply)) ?? []).map(\.entry.id)
            return (reply, try c.get(Pokedex1.searchCoverage), Language.names(ids, c))
        }
        if common.json {
            return JSON.object([
                ("coverage", .object([("localized", .int(localized)), ("species", .int(species))])),
                ("query", .string(full)),
                ("results", reply.first.map(JSON.init) ?? .array([])),
            ]).print()
        }
        let rows = try decoded { () throws(BusError) in try Pokedex1.searchDetailed.decodeReply(reply) }
        let w = Language.words
        if rows.isEmpty { throw Failure(message: Self.nothingFound(query: query, types: types, gen: gen), code: .notFound) }
        Output.table(["#", "★", w.tr("NAME"), w.tr("MATCH")], rows.map { r in
            var why = Self.matchWords[r.match].map(w.tr) ?? r.match
            if !r.language.isEmpty { why += " (\(r.language): \(r.matchedName))" }
            if r.distance > 0 { why += " (" + w.trn("%s typo", "%s typos", Int(r.distance)) + ")" }
            return [String(r.entry.id), Output.star(r.entry.favorite), Output.safe(names[r.entry.id] ?? r.entry.name), Output.safe(why)]
        })
        if localized < species {
            print(Output.dim(w.trf("other languages searched for %s of %s species; 'pokectl sync' indexes them all", String(localized), String(species))))
        }
    }

    /// Generations of Pokémon there are (`--gen`).
    static let generations = 9

    /// How each kind of match reads, for the MATCH column (the service's codes stay in `--json`).
    static let matchWords: [String: String] = [
        "exact": Words.english.tr("exact"), "prefix": Words.english.tr("start of a name"), "word": Words.english.tr("start of a word"),
        "substring": Words.english.tr("inside a name"), "fuzzy": Words.english.tr("near miss"),
        "localized": Words.english.tr("localized name"), "filter": Words.english.tr("filter"),
    ]

    /// `no Pokémon named "xyz" of type fire in generation 1`, in words, not the query's syntax.
    static func nothingFound(query: String, types: [String], gen: Int?) -> String {
        let w = Language.words
        var text = query.isEmpty ? w.tr("no Pokémon") : w.trf("no Pokémon matches \"%s\"", UntrustedText.terminal(query))
        if !types.isEmpty { text += " " + w.trf("of type %s", types.map(UntrustedText.terminal).joined(separator: " / ")) }
        if let gen { text += " " + w.trf("in generation %s", String(gen)) }
        return text
    }
}

/// Makes one favorites change in one call, and prints what it did, human or JSON.
func changeFavorite(_ pokemon: String, _ action: FavoriteAction, json: Bool) throws {
    let (u, names) = try withClient { c throws(BusError) in
        let u = try c.changeFavorite(pokemon, action)
        return (u, json ? [:] : Language.names([u.id], c))
    }
    if json {
        return JSON.object([("changed", .bool(u.changed)), ("favorite", .bool(u.favorite)), ("name", .string(u.name))]).print()
    }
    let name = Output.safe(names[u.id] ?? u.name), w = Language.words
    switch (u.favorite, u.changed) {
    case (true, true): print(Output.yellow("★") + " " + w.trf("%s added to favorites", name))
    case (false, true): print("☆ " + w.trf("%s removed from favorites", name))
    case (true, false): print(Output.yellow("★") + " " + w.trf("%s is already a favorite", name))
    case (false, false): print("☆ " + w.trf("%s was not a favorite", name))
    }
}

struct Fav: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "fav",
        abstract: tr("Keep a favorite (nothing changes if it is one already), and print what happened."),
        discussion: tr("Says the state to reach, not a flip: run twice, or again after a call that timed out (which the service may still have done), it leaves the same state. --toggle flips it instead.\nJSON: {\"name\", \"favorite\", \"changed\"}")) }

    @Argument(help: ArgumentHelp(tr("A name or number."))) var pokemon: String
    @Flag(help: ArgumentHelp(tr("Flip it: add it if it is not a favorite, remove it if it is."))) var toggle = false
    @OptionGroup var common: Common

    func run() throws { try changeFavorite(pokemon, toggle ? .toggle : .add, json: common.json) }
}

struct Unfav: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "unfav",
        abstract: tr("Remove a favorite (nothing happens if it was not one)."),
        discussion: tr("JSON: {\"name\", \"favorite\": false, \"changed\"}")) }

    @Argument(help: ArgumentHelp(tr("A name or number."))) var pokemon: String
    @OptionGroup var common: Common

    func run() throws { try changeFavorite(pokemon, .remove, json: common.json) }
}

struct Favs: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "favs",
        abstract: tr("List favorites in the order they were added."),
        discussion: tr("Names as the games write them, in the language of --language or the terminal's locale. When the favorites file is not sound (damaged, or not a file pokedexd may read), what the service did or why it cannot read it is said on stderr. JSON: {\"favorites\": [{\"id\", \"name\", \"display_name\", \"sprite_path\", \"favorite\"}], \"problem\": \"\" or that text}")) }

    @OptionGroup var common: Common

    func run() throws {
        let (favs, names, problem) = try withClient { c throws(BusError) in
            let favs = try c.listFavorites()
            return (favs, Language.names(favs.map(\.id), c), (try? c.status())?.favoritesProblem ?? "")
        }
        if common.json {
            return JSON.object([("favorites", .array(favs.map { JSON($0, displayName: names[$0.id]) })), ("problem", .string(problem))]).print()
        }
        if !problem.isEmpty { printError("pokectl: " + ServiceMessages.translate(problem, Language.words)) }
        if favs.isEmpty {
            // Nothing could be read: the message above says why; "none yet" would not be true.
            if problem.isEmpty { print(Language.words.tr("no favorites yet: add one with 'pokectl fav NAME'")) }
            return
        }
        Output.table(Output.entryHeader, Output.entryRows(favs, names: names))
    }
}

struct Sprite: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "sprite",
        abstract: tr("Print the path of a Pokémon's sprite, fetching it if needed."),
        discussion: tr("JSON: {\"pokemon\": the resolved API name, \"id\", \"query\": as given, \"sprite_path\"}")) }

    @Argument(help: ArgumentHelp(tr("A name or number."))) var pokemon: String
    @OptionGroup var common: Common

    func run() throws {
        let (path, resolved) = try withClient { c throws(BusError) in
            let path = try c.spritePath(pokemon)
            let named = common.json ? c.exactEntry(pokemon) : nil
            return (path, named)
        }
        if common.json {
            return JSON.object([("id", resolved.map { .int($0.id) } ?? .null), ("pokemon", .string(resolved?.name ?? pokemon)),
                                ("query", .string(pokemon)), ("sprite_path", .string(path))]).print()
        }
        print(Output.safe(path))
    }
}

extension PokedexClient {
    /// Which Pokémon "No. 25" or "Pikachu" named, for --json: the exact match, from memory by
    /// the time a command asks (its own call resolved it).
    func exactEntry(_ pokemon: String) -> ListEntry? {
        (try? searchDetailed(pokemon, limit: 1))?.first.flatMap { $0.match == "exact" ? $0.entry : nil }
    }
}

extension Failure {
    /// Exits with `code`, having already said what there was to say.
    static func silent(_ code: Exit) -> Failure { Failure(message: "", code: code) }
}

