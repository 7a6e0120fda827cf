import PokedexLocks
import PokedexModels

/// A card's family in words (`Evolutions.members`: the ways chosen for its form, each with the
/// games' names of its items and moves), made once for each chain, Pokémon and language and kept:
/// a warm card looks its family up instead of wording every way again.
final class FamilyWords: Sendable {
    struct Key: Hashable {
        var chain: UInt32
        var pokemon: UInt32
        /// The names' language, and whether the conditions' words are in it too (`LocalizedDetail`).
        var language: String
        var localized: Bool
    }

    /// Worded families kept at most; past it, all go (each is a few hundred bytes).
    static let capacity = 512

    private let made = Mutex<[Key: (family: EvolutionChainRecord, members: [EvolutionMember])]>([:])

    init() {}

    /// The family as worded for `key`, if it was from this very record (a family fetched again
    /// is worded again).
    func members(_ key: Key, of family: EvolutionChainRecord) -> [EvolutionMember]? {
        guard let kept = made.withLock({ $0[key] }), kept.family == family else { return nil }
        return kept.members
    }

    func keep(_ members: [EvolutionMember], _ key: Key, of family: EvolutionChainRecord) {
        made.withLock { all in
            if all.count >= Self.capacity { all.removeAll(keepingCapacity: true) }
            all[key] = (family, members)
        }
    }
}
