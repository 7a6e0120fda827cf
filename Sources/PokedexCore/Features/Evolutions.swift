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

    /// For `Sync`: whether the family is on hand now, fetched if it was not, and the family; a
    /// family the API has no chain for (404) is not one to fail on.
    func keep(_ chainID: UInt32) async -> (kept: Bool, family: EvolutionChainRecord?) {
        do {
            return (true, try await loader.load(APIRoutes.evolutionKey(chainID), url: routes.evolutionChain(chainID), .evolution))
        } catch FetchError.notFound {
            return (true, nil)
        } catch {
            log(.debug, "sync: no evolution chain \(chainID): \(error)")
            return (false, nil)
        }
    }

    /// The family if memory has it; `.some(nil)` where the API said lately it has none (404);
    /// nil when neither is known. Never waits.
    func cachedFamily(_ chainID: UInt32) -> EvolutionChainRecord?? {
        let url = routes.evolutionChain(chainID)
        if let family = loader.cached(APIRoutes.evolutionKey(chainID), url: url, .evolution) { return .some(family) }
        return loader.fetcher.isKnownNotFound(url) ? .some(nil) : nil
    }

    /// The family on the card of `subject` (of species `speciesID`; nil: the chain's first
    /// species') as it shows it (`FormFamily`): names in `language` (`species`: the card's own,
    /// whose record may know a newer name than the table; `form`: its form's record), conditions
    /// in `words` with the games' names of items, moves and games from `terms` (kind, identifier →
    /// the name in `language`, nil where not known: then made from the identifier).
    static func members(_ chain: EvolutionChainRecord, subject: PokemonRef? = nil, speciesID: UInt32? = nil, language: String,
                        words: Words, species: SpeciesRecord?, form: NamesRecord? = nil,
                        terms: (NamedKind, String) -> String? = { _, _ in nil }) -> [EvolutionMember] {
        func speciesName(_ id: UInt32, _ name: String) -> String {
            if let species, species.id == id, let n = LocalizedText.pick(species.names, language) { return n }
            if id < PokemonID.firstAlternateForm, let names = BundledNames.entries[id]?.names, let n = LocalizedText.pick(names, language) {
                return n
            }
            return PokemonNames.display(name)
        }
        func pokemonName(_ p: PokemonRef) -> String {
            guard !PokemonID.isDefaultForm(p.id) else { return speciesName(p.id, p.name) }
            return DisplayNames.name(id: p.id, apiName: p.name, species: nil, form: form?.name == p.name ? form : nil, language: language)
        }
        let bySpeciesName = Dictionary(chain.members.map { ($0.name, $0.speciesID) }, uniquingKeysWith: { a, _ in a })
        func names(_ kind: EvolutionWords.Named, _ identifier: String) -> String {
            switch kind {
            case .species:
                return speciesName(bySpeciesName[identifier] ?? BundledNames.speciesID(named: identifier) ?? 0, identifier)
            case .pokemon:
                return BundledNames.pokemonID(named: identifier).map { pokemonName(PokemonRef(id: $0, name: identifier)) }
                    ?? PokemonNames.display(identifier)
            case .type: return TypeChart.name(identifier, language: language)
            case .item: return terms(.item, identifier).map { EvolutionFacts.gamesSpelling(.item, identifier, $0) } ?? PokemonNames.title(identifier)
            case .move: return terms(.move, identifier) ?? PokemonNames.title(identifier)
            case .version: return terms(.version, identifier) ?? PokemonNames.title(identifier)
            case .trigger: return terms(.evolutionTrigger, identifier) ?? ""
            }
        }
        let steps = FormFamily.steps(chain, subject: subject, speciesID: speciesID, formID: BundledNames.pokemonID(named:))
        let byID = Dictionary(steps.map { ($0.pokemon.id, $0.pokemon) }, uniquingKeysWith: { a, _ in a })
        return steps.map { step in
            let parent = byID[step.from].map(pokemonName) ?? ""
            return EvolutionMember(id: step.pokemon.id, name: step.pokemon.name, displayName: pokemonName(step.pokemon), from: step.from,
                                   triggerKind: step.ways.first?.condition.trigger ?? "",
                                   trigger: step.from == 0 ? "" : EvolutionWords.describe(step, parent: parent, words, names: names))
        }
    }

    /// The names the words of `chain` take from the API: its items and moves, the games a step
    /// happens in, and a trigger newer than the words the service has.
    static func namedTerms(_ chain: EvolutionChainRecord) -> [(kind: NamedKind, name: String)] {
        var out: [(kind: NamedKind, name: String)] = []
        func add(_ kind: NamedKind, _ name: String?) {
            if let name, !out.contains(where: { $0.kind == kind && $0.name == name }) { out.append((kind, name)) }
        }
        let species = Dictionary(chain.members.map { ($0.speciesID, $0.name) }, uniquingKeysWith: { a, _ in a })
        for m in chain.members {
            for way in m.ways {
                let c = way.condition
                add(.item, c.item)
                add(.item, c.heldItem)
                add(.move, c.knownMove)
                add(.move, c.usedMove)
                if !EvolutionWords.triggers.contains(c.trigger) { add(.evolutionTrigger, c.trigger) }
            }
            for version in EvolutionFacts.games(parent: species[m.from] ?? "", pokemon: m.name) ?? [] { add(.version, version) }
        }
        return out
    }
}
