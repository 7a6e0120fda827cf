import PokedexNetwork

/// The kinds of resource read for their names alone.
enum NamedKind: String, CaseIterable, Sendable {
    case type, ability, stat
    /// What a family's conditions name: an item, a move, a game; a trigger newer than the words.
    case item, move, version
    case evolutionTrigger = "evolution-trigger"
    /// What a card's breeding lines and move table name.
    case eggGroup = "egg-group", damageClass = "move-damage-class"
}

/// What a Pokémon's types, abilities and stats are called in one language, and its form.
struct LocalizedTerms: Sendable {
    var types: [String]
    var abilities: [String]
    /// Each ability's effect, in the same order; "" where not known.
    var abilityEffects: [String]
    var stats: [String]
    /// The form's record, for a Pokémon that is not its species' default.
    var form: NamesRecord?
}

/// The names of types, abilities and stats as the games print them ("Elektro", "Blitzfänger",
/// "Initiative"), and of forms, through the tiers. They never change, so each is read once
/// for every Pokémon that has it, not once a Pokémon; a name the API cannot give now is
/// made from the identifier ("Lightning Rod").
final class Terms: Sendable {
    private let loader: ResourceLoader
    private let routes: APIRoutes
    private let log: Logger

    init(loader: ResourceLoader, routes: APIRoutes, log: @escaping Logger) {
        self.loader = loader
        self.routes = routes
        self.log = log
    }

    /// Every term of `record` in `language`, fetching what no tier has.
    func localize(_ record: PokemonRecord, language: String) async -> LocalizedTerms {
        let wanted = Self.wanted(record)
        // What memory has is taken at once; a task each only for the rest (a sync asked for a
        // Pokémon's ten names in ten tasks, when after its first few Pokémon memory had them all).
        var found: [Int: NamesRecord] = [:]
        var missing: [Int] = []
        for (i, w) in wanted.enumerated() {
            if let r = loader.cached(APIRoutes.namesKey(w.kind, w.name), url: routes.named(w.kind, w.name), .names(of: w.kind)) {
                found[i] = r
            } else {
                missing.append(i)
            }
        }
        let formURL = Self.formURL(record)
        if formURL != nil, let f = cachedForm(record) { found[-1] = f }
        let formMissing = formURL != nil && found[-1] == nil
        if !missing.isEmpty || formMissing {
            let fetched = await withTaskGroup(of: (Int, NamesRecord?).self) { group in
                for i in missing {
                    let w = wanted[i]
                    group.addTask { [self] in (i, await names(w.kind, w.name)) }
                }
                if formMissing, let url = formURL {
                    group.addTask { [self] in (-1, await form(record.id, url: url)) }
                }
                var out: [Int: NamesRecord] = [:]
                for await (i, r) in group { if let r { out[i] = r } }
                return out
            }
            found.merge(fetched) { _, new in new }
        }
        return assemble(record, wanted, language) { found[$0] } form: { found[-1] }
    }

    /// Every term of `record` in `language` if memory has them all, else nil; never waits.
    func localizeFromMemory(_ record: PokemonRecord, language: String) -> LocalizedTerms? {
        let wanted = Self.wanted(record)
        var found: [NamesRecord] = []
        for w in wanted {
            guard let r = loader.cached(APIRoutes.namesKey(w.kind, w.name), url: routes.named(w.kind, w.name), .names(of: w.kind)) else { return nil }
            found.append(r)
        }
        var form: NamesRecord?
        if Self.formURL(record) != nil {
            guard let f = cachedForm(record) else { return nil }
            form = f
        }
        return assemble(record, wanted, language) { found[$0] } form: { form }
    }

    /// Brings every term of `record` (and its form's names) into memory from the disk, without
    /// fetching any: what ``localizeFromMemory(_:language:)`` then finds.
    func bringFromDisk(_ record: PokemonRecord) {
        for w in Self.wanted(record) { _ = loader.peek(APIRoutes.namesKey(w.kind, w.name), .names(of: w.kind)) }
        if Self.formURL(record) != nil { _ = loader.peek(APIRoutes.formKey(record.id), .names) }
    }

    /// The names of one type, ability or stat; nil when no tier has them and the API does
    /// not give them now.
    func names(_ kind: NamedKind, _ name: String) async -> NamesRecord? {
        do {
            return try await loader.load(APIRoutes.namesKey(kind, name), url: routes.named(kind, name), .names(of: kind))
        } catch {
            log(.debug, "no names for \(kind.rawValue) \(name): \(error)")
            return nil
        }
    }

    /// The form record of Pokémon `id`, from its `pokemon-form` URL.
    func form(_ id: UInt32, url: String) async -> NamesRecord? {
        do {
            return try await loader.load(APIRoutes.formKey(id), url: url, .names)
        } catch {
            log(.debug, "no form names for #\(id): \(error)")
            return nil
        }
    }

    /// The form record of a Pokémon that is not its species' default, fetched if no tier has
    /// it; nil for a default form, or where it cannot be had now.
    func form(of record: PokemonRecord) async -> NamesRecord? {
        guard let url = Self.formURL(record) else { return nil }
        return await form(record.id, url: url)
    }

    /// Whether a name of `record` in another language needs its form record that memory does
    /// not have: a form the bundled table does not name (``DisplayNames``).
    func lacksFormNames(_ record: PokemonRecord) -> Bool {
        Self.formURL(record) != nil && BundledNames.names(record.id, apiName: record.name) == nil && cachedForm(record) == nil
    }

    /// A type's name in `language`: memory's, else the bundled chart's (``TypeChart``), so a
    /// row never waits for it nor shows an English one.
    func typeName(_ type: String, language: String) -> String {
        memoryName(.type, type, language: language) ?? TypeChart.name(type, language: language)
    }

    /// A type's, an ability's or a stat's name in `language` from memory, else made from its
    /// identifier; never waits.
    func cachedName(_ kind: NamedKind, _ name: String, language: String) -> String {
        memoryName(kind, name, language: language) ?? PokemonNames.display(name)
    }

    /// The names a family's words take from the API (``Evolutions/namedTerms(_:)``), fetched
    /// where no tier has them (one the API cannot give now is made from its identifier, as today).
    func keepNames(of chain: EvolutionChainRecord) async { await keepNames(Evolutions.namedTerms(chain)) }

    /// Brings `wanted`'s names into memory, fetching what no tier has: a task each for those
    /// memory lacks (or does not know the API lacks), none for the rest.
    func keepNames(_ wanted: [(kind: NamedKind, name: String)]) async {
        let missing = wanted.filter { !isInMemory($0.kind, $0.name) }
        guard !missing.isEmpty else { return }
        await withTaskGroup(of: Void.self) { group in
            for t in missing { group.addTask { [self] in _ = await names(t.kind, t.name) } }
        }
    }

    /// Whether memory has every name of ``keepNames(of:)``, or knows the API has none of one
    /// (a 404 remembered); never waits.
    func hasNames(of chain: EvolutionChainRecord) -> Bool {
        Evolutions.namedTerms(chain).allSatisfy { isInMemory($0.kind, $0.name) }
    }

    /// The name of a type, ability, stat, item, move, game or trigger in `language` if memory
    /// has it (English where the API has none in it); nil where it does not.
    func memoryName(_ kind: NamedKind, _ name: String, language: String) -> String? {
        loader.cached(APIRoutes.namesKey(kind, name), url: routes.named(kind, name), .names(of: kind)).flatMap { LocalizedText.pick($0.names, language) }
    }

    /// Whether memory has the names of `name`, or knows the API has none (a 404 remembered); never waits.
    func isInMemory(_ kind: NamedKind, _ name: String) -> Bool {
        let url = routes.named(kind, name)
        return loader.cached(APIRoutes.namesKey(kind, name), url: url, .names(of: kind)) != nil || loader.fetcher.isKnownNotFound(url)
    }

    /// The names record of `name` if memory has it.
    func cachedNames(_ kind: NamedKind, _ name: String) -> NamesRecord? {
        loader.cached(APIRoutes.namesKey(kind, name), url: routes.named(kind, name), .names(of: kind))
    }

    /// A version group's name as its games' names ("Scarlet/Violet", "Karmesin/Purpur"), from
    /// memory (each made from its identifier where memory has none); "" for none.
    func gameName(_ group: String, language: String) -> String {
        guard !group.isEmpty else { return "" }
        return Games.versions(of: group).map { cachedName(.version, $0, language: language) }.joined(separator: "/")
    }

    /// The form record of Pokémon `id` if memory has it.
    func cachedForm(_ record: PokemonRecord) -> NamesRecord? {
        Self.formURL(record).flatMap { loader.cached(APIRoutes.formKey(record.id), url: $0, .names) }
    }

    /// The form record's URL of a Pokémon that is not its species' default (whose name is its
    /// species'), else nil.
    private static func formURL(_ r: PokemonRecord) -> String? {
        PokemonID.isDefaultForm(r.id) ? nil : r.formURL
    }

    private static func wanted(_ r: PokemonRecord) -> [(kind: NamedKind, name: String)] {
        r.types.map { (NamedKind.type, $0) } + r.abilities.map { (.ability, $0) } + r.stats.map { (.stat, $0.name) }
    }

    private func assemble(_ r: PokemonRecord, _ wanted: [(kind: NamedKind, name: String)], _ language: String,
                          _ found: (Int) -> NamesRecord?, form: () -> NamesRecord?) -> LocalizedTerms {
        let names = wanted.indices.map { i in
            found(i).flatMap { LocalizedText.pick($0.names, language) } ?? PokemonNames.display(wanted[i].name)
        }
        let t = r.types.count, a = r.abilities.count
        let effects = (t..<(t + a)).map { found($0)?.effect(in: language) ?? "" }
        return LocalizedTerms(types: Array(names[0..<t]), abilities: Array(names[t..<(t + a)]), abilityEffects: effects,
                              stats: Array(names[(t + a)...]), form: form())
    }
}
