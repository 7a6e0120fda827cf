import PokedexNetwork

/// The compact `pokemon` and `pokemon-species` records, through the tiers.
final class Records: Sendable {
    private let loader: ResourceLoader
    private let routes: APIRoutes
    private let pattern: SpriteURLPattern
    private let log: Logger
    /// Told of every species record read, so search learns its localized names.
    private let speciesSeen: @Sendable (SpeciesRecord) -> Void

    init(loader: ResourceLoader, routes: APIRoutes, pattern: SpriteURLPattern, log: @escaping Logger,
         speciesSeen: @escaping @Sendable (SpeciesRecord) -> Void) {
        self.loader = loader
        self.routes = routes
        self.pattern = pattern
        self.log = log
        self.speciesSeen = speciesSeen
    }

    /// The `pokemon` record, fetching it if no tier has it; `fresh`: revalidated first if stale.
    func pokemon(_ item: PokemonIndex.Item, fresh: Bool = false) async throws(PokedexError) -> PokemonRecord {
        do {
            let key = APIRoutes.pokemonKey(item.id), url = routes.pokemon(item.id)
            let record = try await fresh ? loader.loadFresh(key, url: url, .pokemon) : loader.load(key, url: url, .pokemon)
            pattern.learn(from: record)
            return record
        } catch {
            throw PokedexError.wrap(error, context: ServiceMessages.format(ServiceMessages.noDetails, item.name, String(item.id)))
        }
    }

    /// The `pokemon` record fetched again whole (a record kept before a field was read).
    func refetchPokemon(_ item: PokemonIndex.Item) async throws(PokedexError) -> PokemonRecord {
        do {
            let record = try await loader.refetch(APIRoutes.pokemonKey(item.id), url: routes.pokemon(item.id), .pokemon)
            pattern.learn(from: record)
            return record
        } catch {
            throw PokedexError.wrap(error, context: ServiceMessages.format(ServiceMessages.noDetails, item.name, String(item.id)))
        }
    }

    /// The `pokemon` record if memory has it; never waits.
    func cachedPokemon(_ id: UInt32) -> PokemonRecord? {
        loader.cached(APIRoutes.pokemonKey(id), url: routes.pokemon(id), .pokemon)
    }

    /// The `pokemon` record from memory or disk, without fetching it.
    func pokemonOnHand(_ id: UInt32) -> PokemonRecord? { loader.peek(APIRoutes.pokemonKey(id), .pokemon) }

    /// The species record, or nil where the API has none or it cannot be had now:
    /// a detail is still worth answering without its genus and flavour text.
    func species(for record: PokemonRecord) async -> SpeciesRecord? {
        do {
            return try await loadSpecies(for: record)
        } catch {
            log(.debug, "no species for \(record.name): \(error)")
            return nil
        }
    }

    /// The species record of number `id`, asked before its Pokémon's record names it (the
    /// bundled table knows it); nil where it cannot be had now. The same record the Pokémon's
    /// `species.url` later finds.
    func species(_ id: UInt32) async -> SpeciesRecord? {
        do {
            return try await loadSpecies(id, url: routes.species(id), fresh: false)
        } catch {
            log(.debug, "no species #\(id): \(error)")
            return nil
        }
    }

    /// The species record; nil only where the API names none. `fresh`: revalidated first if stale.
    func loadSpecies(for record: PokemonRecord, fresh: Bool = false) async throws -> SpeciesRecord? {
        guard let url = record.speciesURL, let sid = APIDecoding.trailingID(url) else { return nil }
        return try await loadSpecies(sid, url: url, fresh: fresh)
    }

    /// Species `sid` from `url` through the tiers, and search told of its names.
    private func loadSpecies(_ sid: UInt32, url: String, fresh: Bool) async throws -> SpeciesRecord {
        let key = APIRoutes.speciesKey(sid)
        let species = try await fresh ? loader.loadFresh(key, url: url, .species) : loader.load(key, url: url, .species)
        speciesSeen(species)
        return species
    }

    /// The species record from memory or disk, without fetching it.
    func speciesOnHand(for record: PokemonRecord) -> SpeciesRecord? {
        guard let url = record.speciesURL, let sid = APIDecoding.trailingID(url) else { return nil }
        return loader.peek(APIRoutes.speciesKey(sid), .species)
    }

    /// The species record if memory has it: `.some(nil)` where the API names none, nil
    /// when it is not in memory.
    func cachedSpecies(for record: PokemonRecord) -> SpeciesRecord?? {
        guard let url = record.speciesURL, let sid = APIDecoding.trailingID(url) else { return .some(nil) }
        guard let species = loader.cached(APIRoutes.speciesKey(sid), url: url, .species) else { return nil }
        return .some(species)
    }
}
