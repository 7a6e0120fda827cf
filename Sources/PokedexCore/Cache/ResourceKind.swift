import FoundationEssentials
import PokedexNetwork

/// One kind of resource the loader knows how to keep: its URL, how to decode the API's
/// body into a compact record, and how that record sits in the memory tier.
struct ResourceKind<Record: Codable & Sendable>: Sendable {
    /// For messages: "the Pokémon list", "pokemon", "species".
    let noun: String
    /// Its size cap and budget on the network.
    var body: BodyKind = .json
    let decodeBody: @Sendable ([UInt8], Dropped) throws -> Record
    let wrap: @Sendable (Record) -> CachedResource
    let unwrap: @Sendable (CachedResource) -> Record?
    /// Whether a record read back from the disk has the shape decoding gives: anyone who can
    /// write the cache can put any bytes there, so a record that does not is treated as absent.
    var isWellFormed: @Sendable (Record) -> Bool = { _ in true }
    /// Whether a record kept by an older version lacks what this one reads (a species' texts in
    /// other languages, a form's URL): it is used, and fetched again whole in the background (no
    /// `If-None-Match`: a `304` would keep the old shape).
    var isOutdated: @Sendable (Record) -> Bool = { _ in false }

    /// A record from its disk payload, or nil when it does not decode or is not well formed.
    func fromDisk(_ payload: [UInt8]) -> Record? {
        guard let v = try? JSONDecoder().decode(Record.self, from: Data(payload)), isWellFormed(v) else { return nil }
        return v
    }
}

extension ResourceKind where Record == PokemonIndex {
    static let index = ResourceKind(noun: "the Pokémon list", decodeBody: APIDecoding.index, wrap: { .index($0) }, unwrap: {
        if case .index(let v) = $0 { return v } else { return nil }
    }, isWellFormed: { $0.items.allSatisfy { APIName.isValid($0.name) } })
}
extension ResourceKind where Record == PokemonRecord {
    static let pokemon = ResourceKind(noun: "pokemon", body: .pokemonJSON, decodeBody: APIDecoding.pokemon, wrap: { .pokemon($0) }, unwrap: {
        if case .pokemon(let v) = $0 { return v } else { return nil }
    }, isWellFormed: { p in
        ([p.name] + p.types + p.abilities + p.stats.map(\.name)).allSatisfy(APIName.isValid)
            && p.types.count <= APIDecoding.maxTypes && p.abilities.count <= APIDecoding.maxAbilities && p.stats.count <= APIDecoding.maxStats
            && APIDecoding.isWellFormedTraining(p)
    }, isOutdated: { p in (p.formURL == nil && !PokemonID.isDefaultForm(p.id)) || p.learnset == nil || p.hiddenAbilities == nil })
}
extension ResourceKind where Record == SpeciesRecord {
    static let species = ResourceKind(noun: "pokemon-species", decodeBody: APIDecoding.species, wrap: { .species($0) }, unwrap: {
        if case .species(let v) = $0 { return v } else { return nil }
    }, isWellFormed: { s in
        APIName.isValid(s.name) && s.genus.utf8.count <= APIDecoding.maxGenusBytes && s.flavorText.utf8.count <= APIDecoding.maxFlavorBytes
            && s.names.allSatisfy { APIName.isLanguageCode($0.key) && $0.value.utf8.count <= APIDecoding.maxLocalizedNameBytes }
            && APIDecoding.withinCaps(s.genera, APIDecoding.maxGenusBytes) && APIDecoding.withinCaps(s.flavorTexts, APIDecoding.maxFlavorBytes)
            && (s.breeding.map { $0.eggGroups.count <= APIDecoding.maxEggGroups && $0.eggGroups.allSatisfy(APIName.isValid)
                && ($0.growthRate.map(APIName.isValid) ?? true) && ($0.genderRate.map { (-1...8).contains($0) } ?? true) } ?? true)
    }, isOutdated: { s in s.genera == nil || s.flavorTexts == nil || s.breeding == nil })
}

extension ResourceKind where Record == NamesRecord {
    static let names = ResourceKind(noun: "names", decodeBody: APIDecoding.names, wrap: { .names($0) }, unwrap: {
        if case .names(let v) = $0 { return v } else { return nil }
    }, isWellFormed: { n in
        APIName.isValid(n.name) && [n.names, n.formNames].allSatisfy { texts in
            texts.count <= NameLanguage.available.count
                && texts.allSatisfy { APIName.isLanguageCode($0.key) && $0.value.utf8.count <= APIDecoding.maxLocalizedNameBytes }
        }
    })
}

extension ResourceKind where Record == NamesRecord {
    /// An ability's names and its effect in each language (``APIDecoding/ability(_:dropped:)``).
    static let abilityNames = ResourceKind(noun: "ability", decodeBody: APIDecoding.ability, wrap: { .names($0) }, unwrap: {
        if case .names(let v) = $0 { return v } else { return nil }
    }, isWellFormed: { n in
        names.isWellFormed(n) && (n.effects ?? [:]).allSatisfy {
            APIName.isLanguageCode($0.key) && $0.value.utf8.count <= APIDecoding.maxDescriptionBytes
        } && (n.effects?.count ?? 0) <= NameLanguage.available.count
    }, isOutdated: { $0.effects == nil })

    /// How the names of a `kind` are read: an ability's with its effect.
    static func names(of kind: NamedKind) -> ResourceKind { kind == .ability ? abilityNames : names }
}

extension ResourceKind where Record == MoveRecord {
    static let move = ResourceKind(noun: "move", decodeBody: APIDecoding.move, wrap: { .move($0) }, unwrap: {
        if case .move(let v) = $0 { return v } else { return nil }
    }, isWellFormed: { m in
        APIName.isValid(m.name) && APIName.isValid(m.type) && (m.damageClass.isEmpty || APIName.isValid(m.damageClass))
            && m.names.count <= NameLanguage.available.count
            && m.names.allSatisfy { APIName.isLanguageCode($0.key) && $0.value.utf8.count <= APIDecoding.maxLocalizedNameBytes }
            && (m.power ?? 0) <= APIDecoding.maxPower && (m.accuracy ?? 0) <= APIDecoding.maxAccuracy && (m.pp ?? 0) <= APIDecoding.maxPP
            && (m.pastValues ?? []).count <= APIDecoding.maxPastValues && (m.pastValues ?? []).allSatisfy {
                APIName.isValid($0.versionGroup) && ($0.type.map(APIName.isValid) ?? true)
                    && ($0.power ?? 0) <= APIDecoding.maxPower && ($0.accuracy ?? 0) <= APIDecoding.maxAccuracy && ($0.pp ?? 0) <= APIDecoding.maxPP
            }
    }, isOutdated: { $0.pastValues == nil })
}

extension ResourceKind where Record == EvolutionChainRecord {
    static let evolution = ResourceKind(noun: "evolution-chain", decodeBody: APIDecoding.evolutionChain, wrap: { .evolution($0) }, unwrap: {
        if case .evolution(let v) = $0 { return v } else { return nil }
    }, isWellFormed: { c in
        c.members.count <= APIDecoding.maxFamilyMembers && c.members.allSatisfy { m in
            APIName.isValid(m.name) && m.ways.count <= EvolutionWay.maxPerStep
                && m.ways.allSatisfy { APIName.isValid($0.condition.trigger) && $0.identifiers.allSatisfy(APIName.isValid) }
        }
    }, isOutdated: { c in c.members.contains(where: \.isFromOlderRecord) })
}
