import PokedexNetwork

/// A Pokémon's evolution family for its card: PokeAPI's `evolution-chain`, read once per family
/// through the tiers (`evolution/{id}`), and put in words in the card's language.
final class Evolutions: Sendable {
    private let loader: ResourceLoader
    private let routes: APIRoutes
    private let log: Logger

    init(loader: ResourceLoader, routes: APIRoutes, log: @escaping Logger) {
        self.loader = loader
        self.routes = routes
        self.log = log
    }

    /// The chain of species `speciesID`: the bundled table knows every family of its day, so the
    /// chain can be asked for beside the species; a newer species says it in its record.
    static func chainID(speciesID: UInt32, species: SpeciesRecord?) -> UInt32? {
        let table = BundledNames.evolutionChain
        if speciesID >= 1, Int(speciesID) <= table.count, table[Int(speciesID) - 1] != 0 { return UInt32(table[Int(speciesID) - 1]) }
        return species?.evolutionChainID
    }

    /// The species id of a Pokémon: its species' URL says (a form's is its species').
    static func speciesID(of record: PokemonRecord) -> UInt32? {
        record.speciesURL.flatMap(APIDecoding.trailingID)
    }

    /// The family, fetching it if no tier has it; nil where the API cannot give it now (a card
    /// is still worth answering without).
    func family(_ chainID: UInt32) async -> EvolutionChainRecord? {
        do {
            return try await loader.load(APIRoutes.evolutionKey(chainID), url: routes.evolutionChain(chainID), .evolution)
        } catch {
            log(.debug, "no evolution chain \(chainID): \(error)")
            return nil
        }
    }

    /// For `Sync`: whether the family is on hand now, fetched if it was not; a family the API
    /// has no chain for (404) is not one to fail on.
    func keep(_ chainID: UInt32) async -> Bool {
        do {
            _ = try await loader.load(APIRoutes.evolutionKey(chainID), url: routes.evolutionChain(chainID), .evolution)
            return true
        } catch FetchError.notFound {
            return true
        } catch {
            log(.debug, "sync: no evolution chain \(chainID): \(error)")
            return false
        }
    }

    /// The family if memory has it; `.some(nil)` where the API said lately it has none (404);
    /// nil when neither is known. Never waits.
    func cachedFamily(_ chainID: UInt32) -> EvolutionChainRecord?? {
        let url = routes.evolutionChain(chainID)
        if let family = loader.cached(APIRoutes.evolutionKey(chainID), url: url, .evolution) { return .some(family) }
        return loader.fetcher.isKnownNotFound(url) ? .some(nil) : nil
    }

    /// The family as a card shows it: names in `language` (`species`: the card's own, whose
    /// record may know a newer name than the table), conditions in `words`.
    static func members(_ chain: EvolutionChainRecord, language: String, words: Words, species: SpeciesRecord?) -> [EvolutionMember] {
        func speciesName(_ id: UInt32, _ name: String) -> String {
            if let species, species.id == id, let n = LocalizedText.pick(species.names, language) { return n }
            if id < PokemonID.firstAlternateForm, let names = BundledNames.entries[id]?.names, let n = LocalizedText.pick(names, language) {
                return n
            }
            return PokemonNames.display(name)
        }
        let bySpeciesName = Dictionary(chain.members.map { ($0.name, $0.speciesID) }, uniquingKeysWith: { a, _ in a })
        let names = { (kind: EvolutionWords.Named, identifier: String) -> String in
            switch kind {
            case .species:
                return speciesName(bySpeciesName[identifier] ?? BundledNames.speciesID(named: identifier) ?? 0, identifier)
            case .type: return TypeChart.name(identifier, language: language)
            case .item, .move, .location: return PokemonNames.title(identifier)
            }
        }
        return chain.members.map { m in
            EvolutionMember(id: m.speciesID, name: m.name, displayName: speciesName(m.speciesID, m.name), from: m.from,
                            triggerKind: m.conditions.first?.trigger ?? "",
                            trigger: EvolutionWords.describe(m.conditions, words, names: names))
        }
    }
}
