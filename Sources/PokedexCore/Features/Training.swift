import PokedexNetwork

/// A card's breeding and training facts (``TrainingFacts``): the numbers and identifiers from
/// the Pokémon's and its species' records as its newest game has them (``CurrentGameFacts``),
/// and, for `LocalizedDetail`, the names of its egg groups, held items and games through the
/// tiers (``Terms``), its growth rate in the service's words.
struct Training: Sendable {
    let terms: Terms
    let words: @Sendable (String) -> Words

    /// The facts of `r`, in the newest game it has moves in (`base`: the record its moves come
    /// from, ``MoveLists/baseID(of:)``).
    static func facts(_ r: PokemonRecord, species: SpeciesRecord?, base: PokemonRecord? = nil) -> TrainingFacts {
        var f = TrainingFacts()
        f.game = (base ?? r).learnset?.newestGroup ?? ""
        if let i = r.hiddenAbilities?.firstIndex(of: true), i < r.abilities.count { f.hiddenAbility = r.abilities[i] }
        if let b = species?.breeding {
            f.eggGroups = b.eggGroups
            f.genderRate = b.genderRate
            f.eggCycles = b.hatchCounter
            f.captureRate = b.captureRate
            f.baseFriendship = b.baseHappiness
            f.growthRate = b.growthRate ?? ""
        }
        f.evYield = r.effortYield ?? []
        // The newest version PokeAPI lists held items for: what the wild holds there.
        let held = r.heldItems ?? []
        if let newest = held.map(\.version).max(by: { versionOrder($0) < versionOrder($1) }) {
            f.heldItemsVersion = newest
            f.heldItems = held.filter { $0.version == newest }.map { .init(item: $0.item, rarity: $0.rarity) }
        }
        CurrentGameFacts.apply(&f, pokemon: r.name, game: f.game)
        return f
    }

    /// A version's place: its group's order, then its place in the group.
    private static func versionOrder(_ version: String) -> (Int, Int) {
        guard let group = Games.group(ofVersion: version) else { return (0, 0) }
        return (Games.order(of: group) ?? 0, Games.versions(of: group).firstIndex(of: version) ?? 0)
    }

    /// The names the localized facts take from the API.
    static func namedTerms(_ f: TrainingFacts) -> [(kind: NamedKind, name: String)] {
        var out = f.eggGroups.map { (NamedKind.eggGroup, $0) } + f.heldItems.map { (NamedKind.item, $0.item) }
        if !f.heldItemsVersion.isEmpty { out.append((.version, f.heldItemsVersion)) }
        out += Games.versions(of: f.game).filter { !f.game.isEmpty && APIName.isValid($0) }.map { (.version, $0) }
        return out
    }

    /// Fetches the names no tier has (one the API cannot give now is made from its identifier).
    func keepNames(of f: TrainingFacts) async { await terms.keepNames(Self.namedTerms(f)) }

    /// Whether memory has every name ``localize(_:language:)`` needs; never waits.
    func hasNames(of f: TrainingFacts) -> Bool {
        Self.namedTerms(f).allSatisfy { terms.isInMemory($0.kind, $0.name) }
    }

    /// The facts' names in `language`, from memory (made from the identifier where memory has none).
    func localize(_ f: inout TrainingFacts, language: String) {
        let w = words(language)
        f.eggGroupNames = f.eggGroups.map { terms.cachedName(.eggGroup, $0, language: language) }
        f.heldItemNames = f.heldItems.map { terms.cachedName(.item, $0.item, language: language) }
        f.heldItemsVersionName = f.heldItemsVersion.isEmpty ? "" : terms.cachedName(.version, f.heldItemsVersion, language: language)
        f.gameName = terms.gameName(f.game, language: language)
        f.growthRateName = GrowthRates.name(f.growthRate, w)
    }
}
