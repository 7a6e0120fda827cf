/// The calls that answer in a caller's language.
extension PokedexService {
    /// The most ids one `DisplayNames` call may ask for: every Pokémon and form, with room.
    public static let maxDisplayNames = 4096

    /// A caller's language argument as a PokeAPI code: "" is the service's own.
    func language(_ argument: String) throws(PokedexError) -> String {
        guard argument.utf8.count <= NameLanguage.maxArgumentBytes,
              let code = NameLanguage.resolve(argument, fallback: configuration.language) else {
            throw .invalidArgument("PokeAPI has no names in \"\(UntrustedText.logLine(String(argument.prefix(40))))\": "
                                   + "give one of \(NameLanguage.available.joined(separator: ", ")), a locale such as de_DE.UTF-8, or \"\"")
        }
        return code
    }

    /// `LocalizedDetail(pokemon, language)`: ``detail(_:)`` with the name, genus, flavour text,
    /// and the names of the types, abilities and stats in `language` (English where the API
    /// has none in it). The names of types, abilities and stats are read once, for every
    /// Pokémon that has them.
    public func localizedDetail(_ query: String, language argument: String) throws(PokedexError) -> Answer<PokemonDetail> {
        let code = try language(argument)
        if let item = try resolveFromMemory(query, language: code), let d = details.fromMemory(item, language: code) { return .now(d) }
        return .later { [self] () throws(PokedexError) in try await details.load(try await resolve(query, language: code), language: code) }
    }

    /// `Moves(pokemon, game, method, language)`: the moves it learns in `game` ("" its newest),
    /// by `method` (nil: all four), named in `language`.
    public func moves(_ query: String, game: String, method: Learnset.Method?, language argument: String) throws(PokedexError)
        -> Answer<MoveTable> {
        let code = try language(argument)
        if let item = try resolveFromMemory(query, language: code),
           let t = try moveLists.fromMemory(item, game: game, method: method, language: code) { return .now(t) }
        return .later { [self] () throws(PokedexError) in
            try await moveLists.load(try await resolve(query, language: code), game: game, method: method, language: code)
        }
    }

    /// `DisplayNames(ids, language)`: each id's name as the games write it, in the order asked;
    /// ids that are no Pokémon are left out. Never waits on the network: records in memory,
    /// else the bundled table.
    public func displayNames(_ ids: [UInt32], language argument: String) throws(PokedexError) -> Answer<[DisplayName]> {
        let code = try language(argument)
        guard ids.count <= Self.maxDisplayNames else {
            throw .invalidArgument("at most \(Self.maxDisplayNames) ids in one call, not \(ids.count)")
        }
        if let index = catalog.cachedIndex { return .now(names(ids, index, code)) }
        // The list from the disk if it is there (off the bus thread), else the table alone.
        return .later { [self] () throws(PokedexError) in names(ids, loader.peek(APIRoutes.indexKey, .index), code) }
    }

    private func names(_ ids: [UInt32], _ index: PokemonIndex?, _ language: String) -> [DisplayName] {
        ids.compactMap { id in
            guard let apiName = index?.item(id: id)?.name ?? BundledNames.entries[id]?.identifier else { return nil }
            let record = records.cachedPokemon(id)
            let species = record.flatMap { records.cachedSpecies(for: $0) ?? nil }
            let name = DisplayNames.name(id: id, apiName: apiName, species: species, form: record.flatMap(terms.cachedForm),
                                         language: language)
            return DisplayName(id: id, name: apiName, displayName: name)
        }
    }
}
