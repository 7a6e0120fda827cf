// A family member as one card shows it, chosen for the card's Pokémon (`FormFamily`, in the
// core) from every way PokeAPI lists, before it is put in words (`EvolutionWords`).

/// A member of the family on one card: a Pokémon (a species' default, or a form with a line of
/// its own), what it evolves from and how.
public struct FamilyStep: Sendable, Equatable {
    /// The member: "slowbro" (80), "slowbro-galar" (10165).
    public var pokemon: PokemonRef
    /// The member it evolves from (its id); 0 for the family's first.
    public var from: UInt32
    /// The ways it does, the current games' first; empty for the family's first.
    public var ways: [ShownWay]
    /// What the games decide beyond the ways: the game, the nature.
    public var facts: [EvolutionFact]

    public init(pokemon: PokemonRef, from: UInt32, ways: [ShownWay] = [], facts: [EvolutionFact] = []) {
        self.pokemon = pokemon
        self.from = from
        self.ways = ways
        self.facts = facts
    }
}

/// One way a member evolves, as a card says it.
public struct ShownWay: Sendable, Equatable {
    public var condition: EvolutionCondition
    /// Only in this region ("alola": Pikachu into Alolan Raichu).
    public var region: String?
    /// Only from this form of the one before ("rockruff-own-tempo": Dusk Lycanroc).
    public var fromForm: PokemonRef?

    public init(condition: EvolutionCondition, region: String? = nil, fromForm: PokemonRef? = nil) {
        self.condition = condition
        self.region = region
        self.fromForm = fromForm
    }
}

/// What decides an evolution where PokeAPI does not say: facts of the games, kept by the core's
/// `EvolutionFacts`.
public enum EvolutionFact: Sendable, Equatable {
    /// Only in these games (PokeAPI's `version` identifiers): Cosmoem becomes Solgaleo in Sun,
    /// Ultra Sun, Sword and Scarlet.
    case games([String])
    /// The form follows the Pokémon's nature (Toxel: Amped or Low Key).
    case formByNature
    /// The form follows the cloak the Pokémon wore (Burmy into Wormadam).
    case formByCloak
}

/// Where an older game's way happens, by what the place is: every place PokeAPI names in an
/// evolution condition is one of these (Mt. Coronet and five others: a magnetic field; Eterna
/// Forest and four others: a Moss Rock; Route 217 and four others: an Ice Rock).
public enum EvolutionPlace: Sendable, Equatable {
    case magneticField, mossRock, iceRock, snowyMountain, specialRock, special

    /// The place a condition names (`location`), and whether it says "near a special rock".
    public init(location: String, nearRock: Bool) {
        switch location {
        case "mt-coronet", "chargestone-cave", "kalos-route-13", "blush-mountain", "vast-poni-canyon", "new-mauville":
            self = .magneticField
        case "eterna-forest", "pinwheel-forest", "kalos-route-20", "petalburg-woods", "lush-jungle":
            self = nearRock ? .mossRock : .special
        case "sinnoh-route-217", "twist-mountain", "frost-cavern", "shoal-cave", "mount-lanakila":
            self = nearRock ? .iceRock : .snowyMountain
        default:
            self = nearRock ? .specialRock : .special
        }
    }
}
