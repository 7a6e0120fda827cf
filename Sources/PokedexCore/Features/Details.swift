import PokedexNetwork

/// `Detail`: a Pokémon's record, species, sprites, favorite state, family and matchups in one answer.
final class Details: Sendable {
    private let records: Records
    private let sprites: Sprites
    private let favorites: FavoritesBook
    private let terms: Terms
    private let evolutions: Evolutions
    /// The service's language: the display name of a `Detail` asked without one.
    private let language: String
    /// The service's own words in a language (the family's conditions).
    private let words: @Sendable (String) -> Words
    /// The families worded lately.
    private let familyWords = FamilyWords()
    private let training: Training

    init(records: Records, sprites: Sprites, favorites: FavoritesBook, terms: Terms, evolutions: Evolutions, language: String,
         words: @escaping @Sendable (String) -> Words) {
        self.records = records
        self.sprites = sprites
        self.favorites = favorites
        self.terms = terms
        self.evolutions = evolutions
        self.language = language
        self.words = words
        training = Training(terms: terms, words: words)
    }

    /// The detail if memory has every part of it, else nil. `language`: the display texts in
    /// it (nil: English texts, as `Detail` has always answered, and the display name in the
    /// service's language).
    func fromMemory(_ item: PokemonIndex.Item, language: String? = nil) -> PokemonDetail? {
        guard let record = records.cachedPokemon(item.id),
              let path = sprites.still.knownPath(item.id), !(path.isEmpty && record.spriteURL != nil),
              // A colour not yet worked out is, off this thread.
              sprites.still.colorIsInMemory(item.id)
        else { return nil }
        var animated = ""
        if record.animatedSpriteURL != nil {
            guard let known = sprites.animated.knownPath(item.id), !known.isEmpty else { return nil }
            animated = known
        }
        guard case .some(let species) = records.cachedSpecies(for: record) else { return nil }
        // A form PokeAPI lists no moves for holds its species' default form's game.
        if let base = MoveLists.baseID(of: record), records.cachedPokemon(base) == nil { return nil }
        var family: EvolutionChainRecord?
        if let chain = Self.chainID(record, species: species) {
            guard case .some(let cached) = evolutions.cachedFamily(chain) else { return nil }
            family = cached
        }
        var detail = make(record, species: species, spritePath: path, animatedPath: animated)
        if let language {
            guard let localized = terms.localizeFromMemory(record, language: language),
                  detail.training.map(training.hasNames) ?? true else { return nil }
            localize(&detail, record, species: species, localized, language)
        }
        // The names its family's conditions give (items, moves, games) are part of it.
        guard addFamilyAndMatchups(&detail, record, species: species, family: family, language: language, requireNames: true) else {
            return nil
        }
        return detail
    }

    /// The detail from whichever tier has each part, fetching what none has.
    func load(_ item: PokemonIndex.Item, language: String? = nil) async throws(PokedexError) -> PokemonDetail {
        let record = try await records.pokemon(item)
        async let species = records.species(for: record)
        // A form PokeAPI lists no moves for: its species' default form says which game it is in.
        async let base: PokemonRecord? = withPriority(.optional) { () async -> PokemonRecord? in
            guard let id = MoveLists.baseID(of: record) else { return nil }
            return try? await records.pokemon(PokemonIndex.Item(id: id, name: "#\(id)"))
        }
        // The bundled table names the family of every species of its day: asked beside the species.
        let knownChain = Self.chainID(record, species: nil)
        async let bundledFamily = withPriority(.optional) { () async -> EvolutionChainRecord? in
            guard let knownChain else { return nil }
            return await familyWithItsNames(knownChain)
        }
        // The sprites and the names of things are worth a try, not a wait on a host that is down.
        async let sprite = withPriority(.optional) { await sprites.stillPathIfAny(record) }
        async let animated = withPriority(.optional) { await sprites.animatedPathIfAny(record) }
        async let localized = withPriority(.optional) { () async -> LocalizedTerms? in
            guard let language else { return nil }
            return await terms.localize(record, language: language)
        }
        _ = await base
        var detail = await make(record, species: species, spritePath: sprite, animatedPath: animated)
        if let language, let localized = await localized {
            // The names of its egg groups, held items and game: known once the species is.
            if let facts = detail.training { await withPriority(.optional) { await training.keepNames(of: facts) } }
            localize(&detail, record, species: await species, localized, language)
        }
        // Whether the cry is on disk (it is fetched only when played): known from here on, so
        // the warm answer says it too.
        _ = sprites.cry.pathOnDisk(record.id)
        var family = await bundledFamily
        if knownChain == nil, let chain = Self.chainID(record, species: await species) {
            family = await withPriority(.optional) { await familyWithItsNames(chain) }
        }
        addFamilyAndMatchups(&detail, record, species: await species, family: family, language: language)
        // The parts above stand in "" for what failed; a cancelled call is not answered with that.
        if Task.isCancelled { throw .unavailable("the details of \(item.name) were cancelled before they were complete") }
        return detail
    }

    /// A family, and the names its conditions give (items, moves, games) in memory beside it.
    private func familyWithItsNames(_ chain: UInt32) async -> EvolutionChainRecord? {
        guard let family = await evolutions.family(chain) else { return nil }
        await terms.keepNames(of: family)
        return family
    }

    private func localize(_ d: inout PokemonDetail, _ r: PokemonRecord, species: SpeciesRecord?, _ t: LocalizedTerms, _ language: String) {
        d.language = language
        d.displayName = DisplayNames.name(id: r.id, apiName: r.name, species: species, form: t.form, language: language)
        d.genus = species?.genus(in: language) ?? ""
        d.flavorText = species?.flavorText(in: language) ?? ""
        d.typeNames = t.types
        d.abilityNames = t.abilities
        d.abilityEffects = t.abilityEffects
        d.statNames = t.stats
        if d.training != nil { training.localize(&d.training!, language: language) }
    }

    /// The family's chain of a Pokémon, from the bundled table or its species' record.
    static func chainID(_ r: PokemonRecord, species: SpeciesRecord?) -> UInt32? {
        Evolutions.speciesID(of: r).flatMap { Evolutions.chainID(speciesID: $0, species: species) }
    }

    /// The family (names in the answer's language, conditions in its words: English for
    /// `Detail`) and the matchups of the Pokémon's own types (a form's: Alolan Raichu's Psychic).
    /// False, and nothing added, where `requireNames` and memory lacks a name the family's words
    /// need.
    @discardableResult
    private func addFamilyAndMatchups(_ d: inout PokemonDetail, _ r: PokemonRecord, species: SpeciesRecord?,
                                      family: EvolutionChainRecord?, language: String?, requireNames: Bool = false) -> Bool {
        if let family {
            guard let members = familyMembers(family, r, species: species, language: language, requireNames: requireNames) else { return false }
            d.evolution = members
        }
        d.matchups = TypeChart.matchups(r.types, language: language ?? "en")
        // Its abilities that change them (Levitate, Wonder Guard), each with what it makes of them.
        d.abilityMatchups = r.abilities.filter(AbilityMatchups.changesMatchups).map {
            AbilityMatchup(ability: $0, matchups: AbilityMatchups.matchups($0, r.types, language: language ?? "en"))
        }
        // The cry where it is on disk; it is fetched only when played (`CryPath`).
        d.cryPath = sprites.cry.knownPath(r.id) ?? ""
        return true
    }

    /// The family as `r`'s card shows it, worded once for each chain, Pokémon and language
    /// (``FamilyWords``) where memory had every name its words need; nil where it lacked one
    /// and `requireNames`.
    private func familyMembers(_ family: EvolutionChainRecord, _ r: PokemonRecord, species: SpeciesRecord?, language: String?,
                               requireNames: Bool) -> [EvolutionMember]? {
        let key = FamilyWords.Key(chain: family.id, pokemon: r.id, language: language ?? self.language, localized: language != nil)
        if let known = familyWords.members(key, of: family) { return known }
        let complete = terms.hasNames(of: family)
        if requireNames, !complete { return nil }
        // The names inside the conditions are in the answer's language: English for `Detail`.
        let named = language ?? "en"
        let members = Evolutions.members(family, subject: PokemonRef(id: r.id, name: r.name), speciesID: Evolutions.speciesID(of: r),
                                         language: key.language, words: language.map(words) ?? .english, species: species,
                                         form: terms.cachedForm(r), terms: { [terms] in terms.memoryName($0, $1, language: named) })
        if complete { familyWords.keep(members, key, of: family) }
        return members
    }

    /// `Detail`'s answer: English texts, and the name in the service's language.
    private func make(_ r: PokemonRecord, species: SpeciesRecord?, spritePath: String, animatedPath: String) -> PokemonDetail {
        var d = PokemonDetail(
            id: r.id, name: r.name, height: r.height, weight: r.weight, types: r.types, abilities: r.abilities,
            stats: r.stats, spritePath: spritePath, favorite: favorites.contains(r.id),
            genus: species?.genus ?? "", flavorText: species?.flavorText ?? "",
            color: spritePath.isEmpty ? "" : sprites.still.knownColor(r.id), animatedSpritePath: animatedPath)
        // A form's number is its species': its record says which.
        d.number = Evolutions.speciesID(of: r) ?? PokedexNumber.shown(r.id)
        d.displayName = DisplayNames.name(id: r.id, apiName: r.name, species: species, form: terms.cachedForm(r), language: language)
        d.training = Training.facts(r, species: species, base: MoveLists.baseID(of: r).flatMap(records.cachedPokemon))
        return d
    }
}

/// List, search and favorites rows: a Pokémon with its sprite path and favorite state.
struct Rows: Sendable {
    let sprites: Sprites
    let favorites: FavoritesBook

    /// From memory only: "" for a sprite whose state is not known yet.
    func fromMemory(_ item: PokemonIndex.Item) -> ListEntry {
        ListEntry(id: item.id, name: item.name, spritePath: sprites.still.knownPath(item.id) ?? "", favorite: favorites.contains(item.id))
    }

    /// Checking the disk for a sprite memory does not know.
    func checkingDisk(_ item: PokemonIndex.Item) -> ListEntry {
        ListEntry(id: item.id, name: item.name, spritePath: sprites.pathCheckingDisk(item.id), favorite: favorites.contains(item.id))
    }

    /// A page from memory, or nil when any sprite's state needs the disk.
    func pageFromMemory(_ items: ArraySlice<PokemonIndex.Item>) -> [ListEntry]? {
        let paths = sprites.knownPaths(items.lazy.map(\.id))
        let favoriteIDs = favorites.idSet
        var entries: [ListEntry] = []
        entries.reserveCapacity(items.count)
        for (item, path) in zip(items, paths) {
            guard let path else { return nil }
            entries.append(ListEntry(id: item.id, name: item.name, spritePath: path, favorite: favoriteIDs.contains(item.id)))
        }
        return entries
    }
}
