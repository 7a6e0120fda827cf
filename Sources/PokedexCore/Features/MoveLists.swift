import PokedexLocks
import PokedexNetwork

/// `Moves`: the moves one Pokémon learns in one game, as the games' lists show them, from its
/// record's learnset and each move's record (`move/{id}`, read once for every Pokémon), named
/// in a language. Answered from memory when every part is there; else loaded, each missing
/// move fetched beside the others.
final class MoveLists: Sendable {
    private let records: Records
    private let loader: ResourceLoader
    private let routes: APIRoutes
    private let terms: Terms

    init(records: Records, loader: ResourceLoader, routes: APIRoutes, terms: Terms) {
        self.records = records
        self.loader = loader
        self.routes = routes
        self.terms = terms
    }

    /// The Pokémon whose learnset a form's list is: none for a form with moves of its own; its
    /// species' default form for one PokeAPI lists no moves for (Gigantamax forms, Battle Bond
    /// Greninja, Cramorant's catches, the newest Megas), which the games teach as that form.
    static func baseID(of r: PokemonRecord) -> UInt32? {
        guard r.learnset?.versionGroups.isEmpty == true, let sid = Evolutions.speciesID(of: r), sid != r.id else { return nil }
        return sid
    }

    /// The table if memory has every part of it; nil where it lacks one. Throws where the
    /// game asked for is not one of the Pokémon's.
    func fromMemory(_ item: PokemonIndex.Item, game: String, method: Learnset.Method?, language: String) throws(PokedexError) -> MoveTable? {
        guard var record = records.cachedPokemon(item.id), record.learnset != nil else { return nil }
        if let base = Self.baseID(of: record) {
            guard let b = records.cachedPokemon(base), b.learnset != nil else { return nil }
            record.learnset = b.learnset
        }
        guard let learnset = record.learnset else { return nil }
        guard let group = try resolveGame(game, learnset, record, fromMemory: true) else { return nil }
        let entries = Self.entries(learnset, group, method)
        var moves: [UInt32: MoveRecord] = [:]
        for id in Set(entries.map(\.move)) {
            guard let m = loader.cached(APIRoutes.moveKey(id), url: routes.move(id), .move) else { return nil }
            moves[id] = m
        }
        let categories = Set(moves.values.map(\.damageClass)).filter { !$0.isEmpty }
        guard categories.allSatisfy({ terms.isInMemory(.damageClass, $0) }),
              Games.versions(of: group).allSatisfy({ terms.isInMemory(.version, $0) }) else { return nil }
        return table(record, learnset, group, entries, moves, language)
    }

    /// The table, fetching what no tier has.
    func load(_ item: PokemonIndex.Item, game: String, method: Learnset.Method?, language: String) async throws(PokedexError) -> MoveTable {
        var record = try await records.pokemon(item)
        // A record kept before moves were read is fetched again whole.
        if record.learnset == nil { record = try await records.refetchPokemon(item) }
        if let base = Self.baseID(of: record) {
            var b = try await records.pokemon(PokemonIndex.Item(id: base, name: "#\(base)"))
            if b.learnset == nil { b = try await records.refetchPokemon(PokemonIndex.Item(id: base, name: "#\(base)")) }
            record.learnset = b.learnset
        }
        guard let learnset = record.learnset else {
            throw .unavailable("the record of \(item.name) has no moves yet: try again once the service is online")
        }
        if try resolveGame(game, learnset, record, fromMemory: true) == nil { await keepGameNames() }
        guard let group = try resolveGame(game, learnset, record, fromMemory: false) else {
            throw .notFound("no game is called \(quoted(game)): give one of \(Self.games(learnset).joined(separator: ", "))")
        }
        let entries = Self.entries(learnset, group, method)
        let ids = Array(Set(entries.map(\.move)))
        let found = await withTaskGroup(of: (UInt32, MoveRecord?).self) { tasks in
            for id in ids {
                tasks.addTask { [self] in (id, try? await loader.load(APIRoutes.moveKey(id), url: routes.move(id), .move)) }
            }
            var out: [UInt32: MoveRecord] = [:]
            for await (id, m) in tasks { if let m { out[id] = m } }
            return out
        }
        if Task.isCancelled { throw .unavailable("the moves of \(item.name) were cancelled before they were complete") }
        guard found.count == ids.count else {
            throw .unavailable("\(ids.count - found.count) of the \(ids.count) moves of \(item.name) could not be fetched: try again when PokeAPI answers")
        }
        await terms.keepNames(Set(found.values.map(\.damageClass)).filter { !$0.isEmpty }.map { (.damageClass, $0) })
        await keepVersionNames(Games.versions(of: group))
        return table(record, learnset, group, entries, found, language)
    }

    /// Every move `record` learns, in any game.
    static func moves(of record: PokemonRecord) -> Set<UInt32> {
        var moves = Set<UInt32>()
        forEachMove(of: record) { moves.insert($0) }
        return moves
    }

    /// Each move of each of `record`'s entries, in every game (a move once an entry: a
    /// thousand in all for most Pokémon), with no collection made of them.
    static func forEachMove(of record: PokemonRecord, _ body: (UInt32) -> Void) {
        guard let groups = record.learnset?.versionGroups else { return }
        for g in groups.values {
            for e in g.levelUp { body(e.move) }
            for id in g.machine { body(id) }
            for id in g.egg { body(id) }
            for id in g.tutor { body(id) }
        }
    }

    /// For `Sync`: move `id`'s record, and its category's names, fetched where no tier has them
    /// (revalidated where stale); false where it could not be had.
    func keep(_ id: UInt32) async -> Bool {
        guard let m = try? await loader.loadFresh(APIRoutes.moveKey(id), url: routes.move(id), .move) else { return false }
        if !m.damageClass.isEmpty { await terms.keepNames([(.damageClass, m.damageClass)]) }
        return true
    }

    /// For `Sync`: the names of every version, so `Moves` finds a game by its name offline.
    func keepGameNames() async { await keepVersionNames(Games.groups.flatMap(\.versions)) }

    private func keepVersionNames(_ versions: [String]) async {
        await terms.keepNames(versions.filter(APIName.isValid).map { (.version, $0) })
    }

    /// The version group `game` names among the Pokémon's: "" its newest; a group or a version
    /// by identifier; a version by its name in any language (from memory: nil where a name
    /// memory lacks might be it, when `fromMemory`). Throws where it names a game the
    /// Pokémon has no moves in, or none it has.
    private func resolveGame(_ game: String, _ learnset: Learnset, _ r: PokemonRecord, fromMemory: Bool) throws(PokedexError) -> String? {
        let games = Self.games(learnset)
        guard let newest = games.first else {
            throw .notFound("PokeAPI lists no moves for \(r.name) in any game")
        }
        let wanted = String(game.trimmingWhitespace())
        if wanted.isEmpty { return newest }
        let folded = TextFolding.fold(wanted), id = wanted.lowercased()
        var group: String?
        if Games.group(id) != nil || learnset.versionGroups[id] != nil {
            group = id
        } else if let g = Games.group(ofVersion: id) {
            group = g
        } else {
            for g in Games.groups {
                for v in g.versions {
                    guard let names = terms.cachedNames(.version, v) else {
                        if fromMemory { return nil }
                        continue
                    }
                    if names.names.values.contains(where: { TextFolding.fold($0) == folded }) { group = g.name }
                }
                if group != nil { break }
            }
        }
        guard let group else {
            if fromMemory { return nil }
            throw .notFound("no game is called \(quoted(wanted)): give one of \(games.joined(separator: ", "))")
        }
        guard learnset.versionGroups[group] != nil else {
            throw .notFound("\(r.name) learns no moves in \(group) by PokeAPI: it has moves in \(games.joined(separator: ", "))")
        }
        return group
    }

    /// Its version groups with moves, newest first.
    static func games(_ learnset: Learnset) -> [String] { Games.newestFirst(learnset.versionGroups.keys) }

    /// One way's entries, or all four's: level-up, machine, egg, tutor.
    static func entries(_ learnset: Learnset, _ group: String, _ method: Learnset.Method?) -> [Learnset.Entry] {
        (method.map { [$0] } ?? Learnset.Method.allCases).flatMap { learnset.entries(group, $0) }
    }

    private func table(_ r: PokemonRecord, _ learnset: Learnset, _ group: String, _ entries: [Learnset.Entry],
                       _ moves: [UInt32: MoveRecord], _ language: String) -> MoveTable {
        // Each type's and category's name looked up once, not once a move (Mew lists 240).
        var typeNames: [String: String] = [:], categoryNames: [String: String] = ["": ""]
        let rows = entries.compactMap { e -> MoveRow? in
            guard let m = moves[e.move]?.asIn(group) else { return nil }
            let typeName = typeNames[m.type] ?? terms.typeName(m.type, language: language)
            typeNames[m.type] = typeName
            let category = categoryNames[m.damageClass] ?? Self.capitalized(terms.cachedName(.damageClass, m.damageClass, language: language))
            categoryNames[m.damageClass] = category
            return MoveRow(method: e.method, level: e.level, id: m.id, move: m.name,
                           name: LocalizedText.pick(m.names, language) ?? PokemonNames.display(m.name),
                           type: m.type, typeName: typeName, category: m.damageClass, categoryName: category,
                           power: m.power, accuracy: m.accuracy, pp: m.pp)
        }
        return MoveTable(id: r.id, pokemon: r.name, game: group, gameName: terms.gameName(group, language: language), games: Self.games(learnset), language: language, rows: rows)
    }

    /// PokeAPI writes categories in lower case ("physisch"); the games begin them with a capital.
    static func capitalized(_ s: String) -> String {
        guard let first = s.first else { return s }
        return first.uppercased() + s.dropFirst()
    }
}
