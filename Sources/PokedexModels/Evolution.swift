// A Pokémon's evolution family as the service keeps it (PokeAPI's `evolution-chain`, cut
// down to what a card shows) and as `Detail` answers it.

/// What the service keeps of an `evolution-chain/{id}` body: every member once, a parent
/// before its children, each with the condition it evolves on.
public struct EvolutionChainRecord: Sendable, Codable, Equatable {
    public var id: UInt32
    public var members: [EvolutionStep]

    public init(id: UInt32, members: [EvolutionStep]) {
        self.id = id
        self.members = members
    }
}

/// One member of a family.
public struct EvolutionStep: Sendable, Codable, Equatable {
    /// The species' id and identifier ("charmeleon").
    public var speciesID: UInt32
    public var name: String
    /// The species it evolves from; 0 for the family's first.
    public var from: UInt32
    /// How it evolves from `from` in the newest games that say (Urshifu: either of two
    /// towers); empty for the family's first.
    public var conditions: [EvolutionCondition]

    public init(speciesID: UInt32, name: String, from: UInt32, conditions: [EvolutionCondition]) {
        self.speciesID = speciesID
        self.name = name
        self.from = from
        self.conditions = conditions
    }
}

/// How one member evolves, as the current games have it: PokeAPI's trigger and the
/// conditions set on it (identifiers as the API writes them: "fire-stone", "day").
public struct EvolutionCondition: Sendable, Codable, Equatable {
    /// `level-up`, `use-item`, `trade`, `shed`, `spin`, … (any other the API adds is "special").
    public var trigger: String
    public var minLevel: UInt32?
    public var item: String?
    public var heldItem: String?
    public var knownMove: String?
    public var knownMoveType: String?
    public var usedMove: String?
    public var location: String?
    public var minHappiness: UInt32?
    public var minAffection: UInt32?
    public var minBeauty: UInt32?
    public var minMoveCount: UInt32?
    public var minSteps: UInt32?
    public var minDamageTaken: UInt32?
    /// `day`, `night`, `dusk`, `full-moon`.
    public var timeOfDay: String?
    /// 1 female, 2 male.
    public var gender: UInt32?
    /// 1: Attack > Defense, -1: Attack < Defense, 0: equal.
    public var relativePhysicalStats: Int?
    public var partySpecies: String?
    public var partyType: String?
    public var tradeSpecies: String?
    public var needsRain = false
    public var upsideDown = false
    public var needsMultiplayer = false
    public var nearSpecialRock = false
    /// Set where a sibling evolves on the very same condition: the game decides by a hidden
    /// value (Wurmple's personality).
    public var byChance = false

    public init(trigger: String) { self.trigger = trigger }

    /// Every identifier in it, for the check of a record read back from the disk.
    public var identifiers: [String] {
        [item, heldItem, knownMove, knownMoveType, usedMove, location, timeOfDay, partySpecies, partyType, tradeSpecies].compactMap { $0 }
    }

    /// The same condition but for ``byChance``.
    public func sameAs(_ other: EvolutionCondition) -> Bool {
        var a = self, b = other
        a.byChance = false
        b.byChance = false
        return a == b
    }
}

/// A member of the family in a `Detail` answer.
public struct EvolutionMember: Sendable, Equatable {
    public var id: UInt32
    /// The species' identifier ("charmeleon").
    public var name: String
    /// As the games write it, in the answer's language.
    public var displayName: String
    /// The member it evolves from; 0 for the family's first.
    public var from: UInt32
    /// PokeAPI's trigger ("level-up"); "" for the family's first.
    public var triggerKind: String
    /// The condition in words, in the answer's language ("Level 16"); "" for the family's first.
    public var trigger: String

    public init(id: UInt32, name: String, displayName: String, from: UInt32, triggerKind: String, trigger: String) {
        self.id = id
        self.name = name
        self.displayName = displayName
        self.from = from
        self.triggerKind = triggerKind
        self.trigger = trigger
    }
}

/// How much one attacking type hurts a Pokémon of its type or types.
public struct TypeMatchup: Sendable, Equatable {
    /// The attacking type's identifier ("rock").
    public var type: String
    /// Its name in the answer's language ("Gestein").
    public var typeName: String
    /// ×4, ×2, ×½, ×¼ or ×0, as 4, 2, 0.5, 0.25, 0.
    public var multiplier: Double

    public init(type: String, typeName: String, multiplier: Double) {
        self.type = type
        self.typeName = typeName
        self.multiplier = multiplier
    }

    /// "×4", "×½", "×¼", "×0".
    public static func label(_ multiplier: Double) -> String {
        switch multiplier {
        case 0: return "×0"
        case 0.25: return "×¼"
        case 0.5: return "×½"
        case 1: return "×1"
        case 2: return "×2"
        case 4: return "×4"
        default: return "×" + String(multiplier)
        }
    }
}

extension PokemonDetail {
    /// Where this Pokémon is in its own family: its species, or the species of its form
    /// ("raichu-alola" is Raichu's); nil where the family does not hold it.
    public var ownFamilyIndex: Int? {
        evolution.firstIndex { $0.id == id } ?? (PokemonID.isDefaultForm(id) ? nil : evolution.firstIndex { name.hasPrefix($0.name + "-") })
    }
}
