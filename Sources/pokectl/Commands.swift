import ArgumentParser
import Glibc
import PokedexBusClient
import PokedexModels
import PokedexTerminal

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List Pokémon in the API's order, a page at a time.",
        discussion: "Names as the games write them, in the language of --language or the terminal's locale. JSON: {\"total\", \"page\", \"per_page\", \"entries\": [{\"id\", \"name\", \"display_name\", \"sprite_path\", \"favorite\"}]}")

    @Option(help: "Page number, from 1.") var page = 1
    @Option(help: "Entries per page, 1 to 100.") var perPage = 20
    @Flag(help: "Draw a small sprite on each row (on a terminal with colour).") var images = false
    @Option(help: "With --images: auto (the best the terminal offers: kitty graphics, sixel, half blocks), kitty, sixel or blocks. Forced kitty or sixel is emitted even when stdout is not a terminal.")
    var imageProtocol: ImageChoice = .auto
    @OptionGroup var common: Common

    func validate() throws {
        guard page >= 1 else { throw ValidationError("--page starts at 1") }
        guard (1...100).contains(perPage) else { throw ValidationError("--per-page must be between 1 and 100") }
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
            throw Failure(message: Paging.pastTheEnd(page: page, perPage: perPage, total: result.total), code: .notFound)
        }
        if drawing {
            let pictures = Pictures.choose(imageProtocol, environment: Terminal.environment)
            for e in result.entries { Output.thumbnailRow(e, name: names[e.id], pictures: pictures) }
            let pages = Paging.pages(total: result.total, perPage: perPage)
            return print(Output.dim("page \(page) of \(pages) · \(result.total) Pokémon"))
        }
        if common.json {
            JSON.object([("entries", .array(result.entries.map { JSON($0, displayName: names[$0.id]) })), ("page", .int(page)),
                         ("per_page", .int(perPage)), ("total", .int(result.total))]).print()
            return
        }
        Output.table(Output.entryHeader, Output.entryRows(result.entries, names: names))
        let pages = Paging.pages(total: result.total, perPage: perPage)
        print(Output.dim("page \(page) of \(pages) · \(result.total) Pokémon"))
    }
}

struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find Pokémon by name in any language, by number, with typos forgiven; filter by type and generation.",
        discussion: """
            Ranks exact names and numbers first, then prefixes, word prefixes (\"mega\" finds charizard-mega-x), \
            substrings, then near misses (\"charzard\"). Names in ja, ko, zh, fr, de, es and it match too, for every \
            species the service has seen; 'pokectl sync' indexes them all.
            JSON: {"query", "coverage": {"localized", "species"}, "results": [{"id", "name", "sprite_path", "favorite", \
            "match", "matched_name", "language", "distance"}]}
            """)

    @Argument(help: "Part of a name, a number, or nothing with --type/--gen.") var query: String = ""
    @Option(help: "Most results, 1 to 100.") var limit = 10
    @Option(name: .customLong("type"), help: "Only Pokémon of this type (repeat for both types).") var types: [String] = []
    @Option(help: "Only Pokémon introduced in this generation (1–9).") var gen: Int?
    @OptionGroup var common: Common

    func validate() throws {
        guard (1...100).contains(limit) else { throw ValidationError("--limit must be between 1 and 100") }
        guard !query.isEmpty || !types.isEmpty || gen != nil else { throw ValidationError("give a query, --type or --gen") }
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
        if rows.isEmpty { throw Failure(message: "nothing matches \"\(full)\"", code: .notFound) }
        Output.table(["#", "★", "NAME", "MATCH"], rows.map { r in
            var why = r.match
            if !r.language.isEmpty { why += " (\(r.language): \(r.matchedName))" }
            if r.distance > 0 { why += " (\(r.distance) typo\(r.distance == 1 ? "" : "s"))" }
            return [String(r.entry.id), Output.star(r.entry.favorite), Output.safe(names[r.entry.id] ?? r.entry.name), Output.safe(why)]
        })
        if localized < species {
            print(Output.dim("other languages searched for \(localized) of \(species) species; 'pokectl sync' indexes them all"))
        }
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
    let name = Output.safe(names[u.id] ?? u.name)
    switch (u.favorite, u.changed) {
    case (true, true): print(Output.yellow("★") + " \(name) added to favorites")
    case (false, true): print("☆ \(name) removed from favorites")
    case (true, false): print(Output.yellow("★") + " \(name) is already a favorite")
    case (false, false): print("☆ \(name) was not a favorite")
    }
}

struct Fav: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Toggle a favorite and print the new state.",
        discussion: "JSON: {\"name\", \"favorite\", \"changed\"}")

    @Argument(help: "A name or number.") var pokemon: String
    @OptionGroup var common: Common

    func run() throws { try changeFavorite(pokemon, .toggle, json: common.json) }
}

struct Unfav: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove a favorite (nothing happens if it was not one).",
        discussion: "JSON: {\"name\", \"favorite\": false, \"changed\"}")

    @Argument(help: "A name or number.") var pokemon: String
    @OptionGroup var common: Common

    func run() throws { try changeFavorite(pokemon, .remove, json: common.json) }
}

struct Favs: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List favorites in the order they were added.",
        discussion: "Names as the games write them, in the language of --language or the terminal's locale. JSON: {\"favorites\": [{\"id\", \"name\", \"display_name\", \"sprite_path\", \"favorite\"}]}")

    @OptionGroup var common: Common

    func run() throws {
        let (favs, names) = try withClient { c throws(BusError) in
            let favs = try c.listFavorites()
            return (favs, Language.names(favs.map(\.id), c))
        }
        if common.json { return JSON.object([("favorites", .array(favs.map { JSON($0, displayName: names[$0.id]) }))]).print() }
        if favs.isEmpty { return print("no favorites yet: add one with 'pokectl fav NAME'") }
        Output.table(Output.entryHeader, Output.entryRows(favs, names: names))
    }
}

struct Sprite: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the path of a Pokémon's sprite, fetching it if needed.",
        discussion: "JSON: {\"pokemon\": the resolved API name, \"id\", \"query\": as given, \"sprite_path\"}")

    @Argument(help: "A name or number.") var pokemon: String
    @OptionGroup var common: Common

    func run() throws {
        let (path, resolved) = try withClient { c throws(BusError) in
            let path = try c.spritePath(pokemon)
            // Which Pokémon "No. 25" or "Pikachu" named: the exact match, from memory by now.
            let named = common.json ? (try? c.searchDetailed(pokemon, limit: 1))?.first.flatMap { $0.match == "exact" ? $0.entry : nil } : nil
            return (path, named)
        }
        if common.json {
            return JSON.object([("id", resolved.map { .int($0.id) } ?? .null), ("pokemon", .string(resolved?.name ?? pokemon)),
                                ("query", .string(pokemon)), ("sprite_path", .string(path))]).print()
        }
        print(Output.safe(path))
    }
}

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Is the service running; its version, API, cache tiers and favorites. Does not start it.",
        discussion: "JSON: {\"running\"} and, when not running, \"reason\"; when running, every key of the Status method (version, api_url, cache_dir, data_dir, memory_entries, memory_bytes, memory_cap_bytes, disk_entries, disk_bytes, disk_cap_bytes, favorites, online, requests_in_flight, requests_max_in_flight, sandbox (one line), landlock_abi, landlock (what it restricts: files, tcp, scopes), landlock_missing, namespaces, and hosts: one object per host with host, api, up, and when down down_since, reason and next_attempt in seconds since the epoch; multiplexed once known). Exits 3 when not running.")

    @OptionGroup var common: Common

    func run() throws {
        let raw: BusValue?
        do {
            raw = try withClient(starting: false) { c throws(BusError) -> BusValue? in
                let owned = try c.call(destination: FreedesktopBus.daemonName, path: FreedesktopBus.daemonPath,
                                       interface: FreedesktopBus.daemonName, "NameHasOwner") { w throws(BusError) in
                    try w.append(Pokedex1.busName)
                }
                guard owned.first?.bool == true else { return nil }
                return try c.values(Pokedex1.status, ()).first
            }
        } catch let failure as Failure where common.json {
            // Nothing answers (no session bus, or the service does not reply): still one object.
            JSON.object([("reason", .string(failure.message)), ("running", .bool(false))]).print()
            throw Failure.silent(failure.code)
        }
        guard let raw else {
            // A unit that failed says why (the first call would fail the same way).
            let unit = PokedexClient.settledUnitState()
            let why = unit?.explanation(unit: PokedexClient.unitName)
            if common.json { JSON.object([("reason", .string(why ?? "the service is not running")), ("running", .bool(false))]).print() } else {
                print(why ?? "pokedexd is not running; the first call starts it (or: systemctl --user start pokedex)")
            }
            throw Failure.silent(.unavailable)
        }
        if common.json {
            guard case .object(let fields) = JSON(raw) else { return }
            return JSON.object(([("running", .bool(true))] + fields).sorted { $0.0 < $1.0 }).print()
        }
        let s = try decoded { () throws(BusError) in try Pokedex1.status.decodeReply([raw]) }
        let rows = [
            ["status", Output.paint("running", "32") + (s.online ? "" : ", " + Output.paint("offline", "31"))],
            ["version", Output.safe(s.version)], ["api", Output.safe(s.apiURL)],
            ["memory tier", "\(s.memoryEntries) entries, \(mib(s.memoryBytes)) of \(mib(s.memoryCapBytes))"],
            ["disk tier", "\(s.diskEntries) files, \(mib(s.diskBytes)) of \(mib(s.diskCapBytes))"],
            ["favorites", String(s.favorites)], ["cache", Output.safe(s.cacheDirectory)], ["data", Output.safe(s.dataDirectory)],
            ["requests", "\(s.requestsInFlight) in flight, at most \(s.maxRequestsInFlight) at once so far"],
            ["sandbox", Output.safe(s.sandbox.summary)],
        ] + s.hosts.map { [$0.isAPI ? "api host" : "host", Self.describe($0)] }
        Output.fields(rows)
    }

    /// `raw.githubusercontent.com  down since 13:45:02 (Could not resolve host…), next try in 8 s`.
    static func describe(_ h: HostStatus) -> String {
        let name = Output.safe(h.host)
        let proto = h.multiplexed.map { $0 ? ", HTTP/2" : ", HTTP/1.1" } ?? ""
        guard !h.up else { return name + "  " + Output.paint("up", "32") + proto }
        var text = name + "  " + Output.paint("down", "31")
        if let since = h.downSince { text += " since " + clock(since) }
        if !h.reason.isEmpty { text += " (" + Output.safe(h.reason) + ")" }
        if let next = h.nextAttempt {
            let wait = Int((next - Double(time(nil))).rounded(.up))
            text += wait > 0 ? ", next try in \(wait) s" : ", being tried"
        }
        return text
    }

    /// Local time of day, `13:45:02`.
    static func clock(_ epoch: Double) -> String {
        var t = time_t(epoch)
        var parts = tm()
        localtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }

    func mib(_ bytes: Int) -> String {
        if bytes < 1 << 20 { return "\(bytes / 1024) KiB" }
        let tenths = bytes * 10 / (1 << 20)
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
}

extension Failure {
    /// Exits with `code`, having already said what there was to say.
    static func silent(_ code: Exit) -> Failure { Failure(message: "", code: code) }
}

