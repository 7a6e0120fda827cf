import PokedexModels

/// What the games decide about an evolution that PokeAPI's chains do not say, kept here as the
/// games have it (Bulbapedia's evolution pages say the same):
/// - Cosmoem becomes Solgaleo in Sun, Ultra Sun, Sword and Scarlet, and Lunala in Moon, Ultra
///   Moon, Shield and Violet: PokeAPI lists both at level 53, as if the game chose at random.
/// - One step that gives one of several forms, each a Pokémon of PokeAPI's own, by what the one
///   evolving is: Toxel's nature (Amped or Low Key Toxtricity), the gender (Meowstic, Oinkologne,
///   Basculegion), chance (Maushold's family of three, Dudunsparce's three segments, both by the
///   personality value), Burmy's cloak (Wormadam). PokeAPI names only the species.
enum EvolutionFacts {
    /// An English name of PokeAPI's that the games write otherwise (its `up-grade` is "Upgrade";
    /// the games' item is "Up-Grade"): the games' spelling for PokeAPI's, by kind and identifier.
    static func gamesSpelling(_ kind: NamedKind, _ identifier: String, _ name: String) -> String {
        switch (kind, identifier, name) {
        case (.item, "up-grade", "Upgrade"): return "Up-Grade"
        default: return name
        }
    }

    /// The games a step into `pokemon` (an identifier) from `parent` (a species' identifier)
    /// happens in; nil where any game will do.
    static func games(parent: String, pokemon: String) -> [String]? {
        switch (parent, pokemon) {
        case ("cosmoem", "solgaleo"): return ["sun", "ultra-sun", "sword", "scarlet"]
        case ("cosmoem", "lunala"): return ["moon", "ultra-moon", "shield", "violet"]
        default: return nil
        }
    }

    /// One of the forms a step gives, and what decides it.
    struct Form {
        /// PokeAPI's identifier of the form's Pokémon ("toxtricity-low-key").
        var identifier: String
        /// The gender that gives it (1 female, 2 male), as an evolution condition says it.
        var gender: UInt32?
        /// Whether chance gives it (the personality value).
        var byChance = false
        var fact: EvolutionFact?
    }

    /// The forms a step from `parent` into the species `child` (identifiers) gives, each its own
    /// member; empty where it gives the species alone.
    static func forms(parent: String, child: String) -> [Form] {
        switch (parent, child) {
        case ("toxel", "toxtricity"):
            return [Form(identifier: "toxtricity-amped", fact: .formByNature), Form(identifier: "toxtricity-low-key", fact: .formByNature)]
        case ("espurr", "meowstic"):
            return [Form(identifier: "meowstic-male", gender: 2), Form(identifier: "meowstic-female", gender: 1)]
        case ("lechonk", "oinkologne"):
            return [Form(identifier: "oinkologne-male", gender: 2), Form(identifier: "oinkologne-female", gender: 1)]
        case ("basculin", "basculegion"):
            return [Form(identifier: "basculegion-male", gender: 2), Form(identifier: "basculegion-female", gender: 1)]
        case ("tandemaus", "maushold"):
            return [Form(identifier: "maushold-family-of-four", byChance: true), Form(identifier: "maushold-family-of-three", byChance: true)]
        case ("dunsparce", "dudunsparce"):
            return [Form(identifier: "dudunsparce-two-segment", byChance: true),
                    Form(identifier: "dudunsparce-three-segment", byChance: true)]
        case ("burmy", "wormadam"):
            return ["wormadam-plant", "wormadam-sandy", "wormadam-trash"].map { Form(identifier: $0, fact: .formByCloak) }
        default:
            return []
        }
    }
}
