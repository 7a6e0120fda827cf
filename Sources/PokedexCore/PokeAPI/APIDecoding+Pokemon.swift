/// A Pokémon and its species, the bodies a sync reads 1,351 and 1,025 of: only the fields the
/// records keep are built; `game_indices`, `past_types` and the rest are checked and stepped
/// over (``JSONReader``).
extension APIDecoding {
    private static let pokemonKeys = JSONReader.Keys("id", "name", "forms", "height", "weight", "types", "abilities",
                                                     "stats", "sprites", "species", "cries", "moves",
                                                     "held_items")
    private static let cryKeys = JSONReader.Keys("latest", "legacy")
    private static let typeSlotKeys = JSONReader.Keys("slot", "type")
    private static let speciesKeys = JSONReader.Keys("id", "name", "genera", "flavor_text_entries", "names", "evolution_chain",
                                                     "egg_groups", "gender_rate", "hatch_counter", "capture_rate",
                                                     "base_happiness", "growth_rate")
    private static let urlKeys = JSONReader.Keys("url")

    /// Decodes `GET /pokemon/{id}`, its moves (``Learnset``) and held items with it.
    public static func pokemon(_ body: [UInt8], dropped: Dropped = { _ in }) throws -> PokemonRecord {
        var learnset: Learnset?, drops = LearnsetDrops(), held: [HeldItemRead] = []
        var id: UInt32?, ownName: String?, forms: [NamedResource]?, height: UInt32?, weight: UInt32?
        var types: [(slot: Int, name: String)]?, abilities: [AbilitySlot]?, stats: [(name: String, value: UInt32, effort: UInt32)]?
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
                case 6: abilities = try r.abilitySlots()
                case 7: stats = try r.stats()
                case 8: sprites = try r.null() ? nil : r.sprites()
                case 9: species = try r.null() ? nil : r.namedResource()
                case 10:
                    if try r.null() { return }
                    try r.object(cryKeys) { (k, r) throws(JSONReader.Failure) in
                        if k == 0 { cries.latest = try r.optionalString() } else { cries.legacy = try r.optionalString() }
                    }
                case 11:
                    if try r.null() { return }
                    learnset = try Self.learnset(&r, drops: &drops)
                default:
                    if try r.null() { return }
                    held = try r.heldItems()
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
        let keptTypes = capped(types.sorted { $0.slot < $1.slot }.compactMap { checked($0.name, "a type of \(name)", dropped) },
                               maxTypes, "types of \(name)", dropped)
        let keptAbilities = capped(abilities.sorted { $0.slot < $1.slot }.compactMap { a in
            checked(a.name, "an ability of \(name)", dropped).map { ($0, a.hidden) }
        }, maxAbilities, "abilities of \(name)", dropped)
        let keptStats = capped(stats.compactMap { s in checked(s.name, "a stat of \(name)", dropped).map { ($0, s.value, s.effort) } },
                               maxStats, "stats of \(name)", dropped)
        var record = PokemonRecord(
            id: id, name: name, height: height ?? 0, weight: weight ?? 0,
            types: keptTypes,
            abilities: keptAbilities.map(\.0),
            stats: keptStats.map { .init(name: $0.0, value: $0.1) },
            spriteURL: sprites?.still,
            animatedSpriteURL: sprites?.animated,
            // "" where the API names none; nil is left to records kept before shiny sprites were.
            shinySpriteURL: sprites?.shiny ?? "",
            speciesURL: species?.url, formURL: forms?.first?.url,
            // "" where the API names none; nil is left to records kept before cries were.
            cryURL: cries.latest ?? cries.legacy ?? "")
        record.hiddenAbilities = keptAbilities.map(\.1)
        // The games give at most 3 of one stat.
        record.effortYield = keptStats.filter { $0.2 > 0 }.map { .init(name: $0.0, value: min($0.2, 3)) }
        record.heldItems = heldItems(held, of: name, dropped)
        record.learnset = learnset ?? Learnset()
        return record
    }

    /// Texts in one language, as the API lists them: `{"genus": …, "language": {…}}`.
    struct LanguageText { var text: String; var language: String }

    /// The languages texts are kept in (``byLanguage(_:_:_:_:_:_:)`` keeps no other).
    static let shown = Set(NameLanguage.available)

    /// Decodes `GET /pokemon-species/{id}`.
    public static func species(_ body: [UInt8], dropped: Dropped = { _ in }) throws -> SpeciesRecord {
        var id: UInt32?, ownName: String?
        var genera: NewestTexts?, flavors: NewestTexts?, names: [LanguageText]?, chainURL: String?
        var breeding = BreedingRead()
        try reading(body) { (r) throws(JSONReader.Failure) in
            try r.object(speciesKeys) { (k, r) throws(JSONReader.Failure) in
                switch k {
                case 0: id = try r.uint32()
                case 1: ownName = try r.string()
                case 2: genera = try r.null() ? nil : r.newestByLanguage("genus", only: shown, cap: maxGenusBytes)
                case 3: flavors = try r.null() ? nil : r.newestByLanguage("flavor_text", only: shown, cap: maxFlavorBytes)
                case 4: names = try r.null() ? nil : r.languageTexts("name")
                case 5:
                    if try r.null() { return }
                    try r.object(urlKeys) { (_, r) throws(JSONReader.Failure) in chainURL = try r.optionalString() }
                default: try breeding.read(k - 6, &r)
                }
            }
            if id == nil { throw r.missing("id") }
            if ownName == nil { throw r.missing("name") }
        }
        guard let id, let ownName else { throw PokedexError.unavailable("not PokeAPI's species") }
        let name = try self.ownName(ownName, "pokemon-species \(id)")
        // Each language's newest flavour text: the oldest games shout "POKéMON" in capitals.
        let generaByLanguage = (genera ?? NewestTexts()).kept("genus of \(name)", cap: maxGenusBytes, dropped)
        let flavorsByLanguage = (flavors ?? NewestTexts()).kept("flavour text of \(name)", cap: maxFlavorBytes, dropped)
            .mapValues(cleanFlavorText)
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
                             evolutionChainID: chainURL.flatMap(trailingID), breeding: breeding.record(of: name, dropped))
    }
}

/// The shapes PokeAPI's bodies share, read with ``JSONReader``.
extension JSONReader {
    private static let resourceKeys = Keys("name", "url")
    private static let statKeys = Keys("base_stat", "stat", "effort")
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

    /// `[{"base_stat": 35, "effort": 0, "stat": {…}}]`.
    mutating func stats() throws(Failure) -> [(name: String, value: UInt32, effort: UInt32)] {
        var out: [(name: String, value: UInt32, effort: UInt32)] = []
        try array { (r) throws(Failure) in
            var value: UInt32?, stat: APIDecoding.NamedResource?, effort: UInt32 = 0
            try r.object(Self.statKeys) { (k, r) throws(Failure) in
                switch k {
                case 0: value = try r.uint32()
                case 1: stat = try r.namedResource()
                default: effort = try r.null() ? 0 : r.uint32()
                }
            }
            guard let value else { throw r.missing("base_stat") }
            guard let stat else { throw r.missing("stat") }
            out.append((stat.name, value, effort))
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
}
