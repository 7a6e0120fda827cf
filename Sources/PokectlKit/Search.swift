import ArgumentParser
import PokedexBusClient
import PokedexModels
import PokedexTerminal

struct Search: PokectlCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "search",
        abstract: tr("Find Pokémon by name in any language, by number, with typos forgiven; filter by type and generation."),
        discussion: tr("Ranks exact names and numbers first, then prefixes, word prefixes (\"mega\" finds charizard-mega-x), substrings, then near misses (\"charzard\"). Names in ja, ko, zh, fr, de, es and it match too, for every species the service has seen; 'pokectl sync' indexes them all.\nJSON: {\"query\", \"coverage\": {\"localized\", \"species\"}, \"results\": [{\"id\", \"number\", \"name\", \"sprite_path\", \"favorite\", \"match\", \"matched_name\", \"language\", \"distance\"}]}")) }

    @Argument(help: ArgumentHelp(tr("Part of a name, a number, or nothing with --type/--gen."))) var query: String = ""
    @Option(help: ArgumentHelp(tr("Most results, 1 to 100."))) var limit = 10
    @Option(name: .customLong("type"), help: ArgumentHelp(tr("Only Pokémon of this type (repeat for both types)."))) var types: [String] = []
    @Option(help: ArgumentHelp(tr("Only Pokémon introduced in this generation (1–9)."))) var gen: Int?
    @OptionGroup var common: Common

    var options: ContextOptions { common.options }

    func validate() throws {
        guard (1...100).contains(limit) else { throw ValidationError(Language.words.tr("--limit must be between 1 and 100")) }
        guard !query.isEmpty || !types.isEmpty || gen != nil else { throw ValidationError(Language.words.tr("give a query, --type or --gen")) }
        if let gen, !(1...Self.generations).contains(gen) {
            throw ValidationError(Language.words.trf("--gen must be between 1 and %s", String(Self.generations)))
        }
    }

    /// The service's answer as read (every key, for JSON), how far its other languages reach,
    /// and the names as the games write them (for text).
    struct Found {
        var reply: [BusValue]
        var localized: UInt32
        var species: UInt32
        var names: [UInt32: String]
    }

    /// The query as the service reads it: `pika type:electric gen:1`.
    var full: String { ([query] + types.map { "type:\($0)" } + (gen.map { ["gen:\($0)"] } ?? [])).joined(separator: " ") }

    func run(in context: Context) throws {
        let found = try context.withClient { c throws(BusError) in try fetch(c, context) }
        let output = context.output
        if context.json { return output.json(json(found)) }
        let rows = try context.decoded { () throws(BusError) in try Pokedex1.searchDetailed.decodeReply(found.reply) }
        if rows.isEmpty { throw Failure(message: Self.nothingFound(query: query, types: types, gen: gen, context.words), code: .notFound) }
        text(rows, found, output)
    }

    func fetch(_ c: any PokedexService, _ context: Context) throws(BusError) -> Found {
        let reply = try c.values(Pokedex1.searchDetailed, (full, UInt32(limit)))
        let ids = context.json ? [] : ((try? Pokedex1.searchDetailed.decodeReply(reply)) ?? []).map(\.entry.id)
        let (localized, species) = try c.get(Pokedex1.searchCoverage)
        return Found(reply: reply, localized: localized, species: species, names: context.names(ids, c))
    }

    func json(_ found: Found) -> JSON {
        .object([
            ("coverage", .object([("localized", .int(found.localized)), ("species", .int(found.species))])),
            ("query", .string(full)),
            ("results", found.reply.first.map(JSON.init) ?? .array([])),
        ])
    }

    func text(_ rows: [SearchMatch], _ found: Found, _ output: Output) {
        let w = output.words
        output.table(["#", "★", w.tr("NAME"), w.tr("MATCH")], rows.map { r in
            var why = Self.matchWords[r.match].map(w.tr) ?? r.match
            if !r.language.isEmpty { why += " (\(r.language): \(r.matchedName))" }
            if r.distance > 0 { why += " (" + w.trn("%s typo", "%s typos", Int(r.distance)) + ")" }
            return [String(PokedexNumber.shown(r.entry.id)), output.star(r.entry.favorite), Output.safe(found.names[r.entry.id] ?? r.entry.name), Output.safe(why)]
        })
        if found.localized < found.species {
            output.line(output.dim(w.trf("other languages searched for %s of %s species; 'pokectl sync' indexes them all",
                                         String(found.localized), String(found.species))))
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
    static func nothingFound(query: String, types: [String], gen: Int?, _ w: Words) -> String {
        var text = query.isEmpty ? w.tr("no Pokémon") : w.trf("no Pokémon matches \"%s\"", UntrustedText.terminal(query))
        if !types.isEmpty { text += " " + w.trf("of type %s", types.map(UntrustedText.terminal).joined(separator: " / ")) }
        if let gen { text += " " + w.trf("in generation %s", String(gen)) }
        return text
    }
}
