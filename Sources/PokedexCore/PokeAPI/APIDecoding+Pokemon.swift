/// A Pokémon and its species, the bodies a sync reads 1,351 and 1,025 of: only the fields the
/// records keep are built; `moves`, `game_indices`, `held_items` and the rest are checked and
/// stepped over (``JSONReader``).
extension APIDecoding {
    private static let pokemonKeys = JSONReader.Keys("id", "name", "forms", "height", "weight", "types", "abilities",
                                                     "stats", "sprites", "species", "cries", "moves")
    private static let cryKeys = JSONReader.Keys("latest", "legacy")
    private static let typeSlotKeys = JSONReader.Keys("slot", "type")
    private static let abilitySlotKeys = JSONReader.Keys("slot", "ability")
    private static let speciesKeys = JSONReader.Keys("id", "name", "genera", "flavor_text_entries", "names", "evolution_chain")
    private static let urlKeys = JSONReader.Keys("url")

    /// Decodes `GET /pokemon/{id}`; its `moves` are checked and stepped over.
    public static func pokemon(_ body: [UInt8], dropped: Dropped = { _ in }) throws -> PokemonRecord {
        try pokemon(body, keepingMoves: false, dropped: dropped).record
    }

    /// ``pokemon(_:dropped:)`` and the moves it learns (``Learnset``), in one reading of the body.
    public static func pokemonWithLearnset(_ body: [UInt8], dropped: Dropped = { _ in }) throws -> (record: PokemonRecord, learnset: Learnset) {
        let read = try pokemon(body, keepingMoves: true, dropped: dropped)
        return (read.record, read.learnset ?? Learnset())
    }

    private static func pokemon(_ body: [UInt8], keepingMoves: Bool, dropped: Dropped) throws -> (record: PokemonRecord, learnset: Learnset?) {
        var learnset: Learnset?, drops = LearnsetDrops()
        var id: UInt32?, ownName: String?, forms: [NamedResource]?, height: UInt32?, weight: UInt32?
        var types: [(slot: Int, name: String)]?, abilities: [(slot: Int, name: String)]?, stats: [(name: String, value: UInt32)]?
        var sprites: (still: String?, shiny: String?, animated: String?)?, species: NamedResource?
        var cries: (latest: String?, legacy: String?) = (nil, nil)
        try reading(body) { (r) throws(JSONReader.Failure) in
            try r.object(pokemonKeys) { (k, r) throws(JSONReader.Failure) in
                switch k {
                case 0: id = try r.uint32()
                case 1: ownName = try r.string()
                case 2: forms = try r.null() ? nil : r.namedResources()
                case 3: height = try r.null() ? nil : r.uint32()
                case 4: weight = try r.null() ? nil : r.uint32()
                case 5: types = try r.slots(typeSlotKeys)
                case 6: abilities = try r.slots(abilitySlotKeys)
                case 7: stats = try r.stats()
                case 8: sprites = try r.null() ? nil : r.sprites()
                case 9: species = try r.null() ? nil : r.namedResource()
                case 10:
                    if try r.null() { return }
                    try r.object(cryKeys) { (k, r) throws(JSONReader.Failure) in
                        if k == 0 { cries.latest = try r.optionalString() } else { cries.legacy = try r.optionalString() }
                    }
                default:
                    guard keepingMoves else { return try r.skip() }
                    if try r.null() { return }
                    learnset = try Self.learnset(&r, drops: &drops)
                }
            }
            for (key, present) in [("id", id != nil), ("name", ownName != nil), ("types", types != nil),
                                   ("abilities", abilities != nil), ("stats", stats != nil)] where !present {
                throw r.missing(key)
            }
        }
        guard let id, let ownName, let types, let abilities, let stats else { throw PokedexError.unavailable("not PokeAPI's pokemon") }
        let name = try self.ownName(ownName, "pokemon \(id)")
        drops.say(of: name, to: dropped)
        let record = PokemonRecord(
            id: id, name: name, height: height ?? 0, weight: weight ?? 0,
            types: capped(types.sorted { $0.slot < $1.slot }.compactMap { checked($0.name, "a type of \(name)", dropped) },
                          maxTypes, "types of \(name)", dropped),
            abilities: capped(abilities.sorted { $0.slot < $1.slot }.compactMap { checked($0.name, "an ability of \(name)", dropped) },
                              maxAbilities, "abilities of \(name)", dropped),
            stats: capped(stats.compactMap { s in checked(s.name, "a stat of \(name)", dropped).map { .init(name: $0, value: s.value) } },
                          maxStats, "stats of \(name)", dropped),
            spriteURL: sprites?.still,
            animatedSpriteURL: sprites?.animated,
            // "" where the API names none; nil is left to records kept before shiny sprites were.
            shinySpriteURL: sprites?.shiny ?? "",
            speciesURL: species?.url, formURL: forms?.first?.url,
            // "" where the API names none; nil is left to records kept before cries were.
            cryURL: cries.latest ?? cries.legacy ?? "")
        return (record, learnset)
    }

    /// Texts in one language, as the API lists them: `{"genus": …, "language": {…}}`.
    struct LanguageText { var text: String; var language: String }

    /// The languages texts are kept in (``byLanguage(_:_:_:_:_:_:)`` keeps no other).
    static let shown = Set(NameLanguage.available)

    /// Decodes `GET /pokemon-species/{id}`.
    public static func species(_ body: [UInt8], dropped: Dropped = { _ in }) throws -> SpeciesRecord {
        var id: UInt32?, ownName: String?
        var genera: [LanguageText]?, flavors: [LanguageText]?, names: [LanguageText]?, chainURL: String?
        try reading(body) { (r) throws(JSONReader.Failure) in
            try r.object(speciesKeys) { (k, r) throws(JSONReader.Failure) in
                switch k {
                case 0: id = try r.uint32()
                case 1: ownName = try r.string()
                case 2: genera = try r.null() ? nil : r.languageTexts("genus", only: shown)
                case 3: flavors = try r.null() ? nil : r.languageTexts("flavor_text", only: shown)
                case 4: names = try r.null() ? nil : r.languageTexts("name")
                default:
                    if try r.null() { return }
                    try r.object(urlKeys) { (_, r) throws(JSONReader.Failure) in chainURL = try r.optionalString() }
                }
            }
            if id == nil { throw r.missing("id") }
            if ownName == nil { throw r.missing("name") }
        }
        guard let id, let ownName else { throw PokedexError.unavailable("not PokeAPI's species") }
        let name = try self.ownName(ownName, "pokemon-species \(id)")
        // Each language's newest flavour text: the oldest games shout "POKéMON" in capitals.
        let generaByLanguage = byLanguage(genera ?? [], \.text, \.language, maxGenusBytes, "genus of \(name)", dropped)
        let flavorsByLanguage = byLanguage(flavors ?? [], \.text, \.language, maxFlavorBytes,
                                           "flavour text of \(name)", dropped).mapValues(cleanFlavorText)
        var localized: [String: String] = [:]
        for n in names ?? [] {
            guard APIName.isLanguageCode(n.language) else {
                dropped("dropped a name of \(name) in language \"\(n.language.prefix(40))\": not a language code")
                continue
            }
            let text = capped(n.text, maxLocalizedNameBytes, "the \(n.language) name of \(name)", dropped)
            if !text.isEmpty { localized[n.language] = text }
        }
        return SpeciesRecord(id: id, name: name, genus: generaByLanguage["en"] ?? "", flavorText: flavorsByLanguage["en"] ?? "",
                             names: localized, genera: generaByLanguage, flavorTexts: flavorsByLanguage,
                             evolutionChainID: chainURL.flatMap(trailingID))
    }
}

/// The shapes PokeAPI's bodies share, read with ``JSONReader``.
extension JSONReader {
    private static let resourceKeys = Keys("name", "url")
    private static let languageTextKeys = ["genus": Keys("genus", "language"), "flavor_text": Keys("flavor_text", "language"),
                                           "name": Keys("name", "language")]
    private static let statKeys = Keys("base_stat", "stat")
    private static let spriteKeys = Keys("front_default", "front_shiny", "versions")
    private static let versionsKeys = Keys("generation-v")
    private static let genVKeys = Keys("black-white")
    private static let blackWhiteKeys = Keys("animated")
    private static let animatedKeys = Keys("front_default")

    /// `{"name": …, "url": …}`: the name required, the url a string or null.
    mutating func namedResource() throws(Failure) -> APIDecoding.NamedResource {
        var name: String?, url: String?
        try object(Self.resourceKeys) { (k, r) throws(Failure) in
            if k == 0 { name = try r.string() } else { url = try r.optionalString() }
        }
        guard let name else { throw missing("name") }
        return APIDecoding.NamedResource(name: name, url: url)
    }

    mutating func namedResources() throws(Failure) -> [APIDecoding.NamedResource] {
        var out: [APIDecoding.NamedResource] = []
        try array { (r) throws(Failure) in out.append(try r.namedResource()) }
        return out
    }

    /// `[{"slot": 1, "type": {…}}]` (or `ability`): each slot's resource name.
    mutating func slots(_ keys: Keys) throws(Failure) -> [(slot: Int, name: String)] {
        var out: [(slot: Int, name: String)] = []
        try array { (r) throws(Failure) in
            var slot: Int?, resource: APIDecoding.NamedResource?
            try r.object(keys) { (k, r) throws(Failure) in
                if k == 0 { slot = try r.integer() } else { resource = try r.namedResource() }
            }
            guard let slot else { throw r.missing("slot") }
            guard let resource else { throw r.missing("a slot's resource") }
            out.append((slot, resource.name))
        }
        return out
    }

    /// `[{"base_stat": 35, "stat": {…}}]`.
    mutating func stats() throws(Failure) -> [(name: String, value: UInt32)] {
        var out: [(name: String, value: UInt32)] = []
        try array { (r) throws(Failure) in
            var value: UInt32?, stat: APIDecoding.NamedResource?
            try r.object(Self.statKeys) { (k, r) throws(Failure) in
                if k == 0 { value = try r.uint32() } else { stat = try r.namedResource() }
            }
            guard let value else { throw r.missing("base_stat") }
            guard let stat else { throw r.missing("stat") }
            out.append((stat.name, value))
        }
        return out
    }

    /// A pokemon's `sprites`: the default and shiny still, and generation V's animated one.
    mutating func sprites() throws(Failure) -> (still: String?, shiny: String?, animated: String?) {
        var still: String?, shiny: String?, animated: String?
        try object(Self.spriteKeys) { (k, r) throws(Failure) in
            switch k {
            case 0: still = try r.optionalString()
            case 1: shiny = try r.optionalString()
            default:
                // versions → generation-v → black-white → animated → front_default, each optional.
                if try r.null() { return }
                try r.object(Self.versionsKeys) { (_, r) throws(Failure) in
                    if try r.null() { return }
                    try r.object(Self.genVKeys) { (_, r) throws(Failure) in
                        if try r.null() { return }
                        try r.object(Self.blackWhiteKeys) { (_, r) throws(Failure) in
                            if try r.null() { return }
                            try r.object(Self.animatedKeys) { (_, r) throws(Failure) in animated = try r.optionalString() }
                        }
                    }
                }
            }
        }
        return (still, shiny, animated)
    }

    /// `[{"<field>": "…", "language": {"name": "en", …}}]`. With `only`, a text in another
    /// language is checked but not built (a species has about a hundred flavour texts, in every
    /// language and game; the service keeps one a language it shows).
    mutating func languageTexts(_ field: String, only: Set<String>? = nil) throws(Failure) -> [APIDecoding.LanguageText] {
        let keys = Self.languageTextKeys[field] ?? Keys(field, "language")
        var out: [APIDecoding.LanguageText] = []
        try array { (r) throws(Failure) in
            var text: StringToken?, language: APIDecoding.NamedResource?
            try r.object(keys) { (k, r) throws(Failure) in
                if k == 0 { text = try r.stringToken() } else { language = try r.namedResource() }
            }
            guard let text else { throw r.missing(field) }
            guard let language else { throw r.missing("language") }
            if let only, !only.contains(language.name.lowercased()) {
                try r.check(text)
            } else {
                out.append(.init(text: try r.string(text), language: language.name))
            }
        }
        return out
    }
}
