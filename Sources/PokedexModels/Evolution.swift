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

/// One member of a family: a species, with every way it evolves from the one before.
public struct EvolutionStep: Sendable, Codable, Equatable {
    /// The species' id and identifier ("charmeleon").
    public var speciesID: UInt32
    public var name: String
    /// The species it evolves from; 0 for the family's first.
    public var from: UInt32
    /// Every way PokeAPI lists for it (each form's, each region's, each game's, at most
    /// ``EvolutionWay/maxPerStep``), in its order; empty for the family's first. Which of them a
    /// card shows depends on the Pokémon the card is about (`FormFamily`, in the core).
    public var ways: [EvolutionWay]
    /// Read from a record an older version wrote (newest games' conditions only, no forms):
    /// used until the family is fetched again. Never written.
    public var isFromOlderRecord = false

    public init(speciesID: UInt32, name: String, from: UInt32, ways: [EvolutionWay]) {
        self.speciesID = speciesID
        self.name = name
        self.from = from
        self.ways = ways
    }

    enum CodingKeys: String, CodingKey {
        case speciesID, name, from, ways, conditions
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        speciesID = try c.decode(UInt32.self, forKey: .speciesID)
        name = try c.decode(String.self, forKey: .name)
        from = try c.decode(UInt32.self, forKey: .from)
        if let ways = try c.decodeIfPresent([EvolutionWay].self, forKey: .ways) {
            self.ways = ways
        } else {
            // An older record: the newest games' conditions of every form alike.
            ways = try c.decode([EvolutionCondition].self, forKey: .conditions).map { EvolutionWay(condition: $0) }
            isFromOlderRecord = true
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(speciesID, forKey: .speciesID)
        try c.encode(name, forKey: .name)
        try c.encode(from, forKey: .from)
        try c.encode(ways, forKey: .ways)
    }
}

/// A Pokémon named by PokeAPI's id and identifier (a species' default, or a form: 10164,
/// "slowpoke-galar").
public struct PokemonRef: Sendable, Codable, Hashable {
    public var id: UInt32
    public var name: String

    public init(id: UInt32, name: String) {
        self.id = id
        self.name = name
    }
}

/// One way a member evolves, as PokeAPI lists it: the condition, and which Pokémon, where and
/// since which games it holds for.
public struct EvolutionWay: Sendable, Codable, Equatable {
    /// The most ways a step keeps (Magnezone has 7: a place in each of six games, and a stone).
    public static let maxPerStep = 12

    public var condition: EvolutionCondition
    /// The form that evolves this way, where PokeAPI names one ("slowpoke-galar"; "pikachu").
    public var baseForm: PokemonRef?
    /// The form it becomes, where PokeAPI names one ("slowbro-galar"; "raichu-alola").
    public var evolvedForm: PokemonRef?
    /// The region it holds in, where only there ("alola": Pikachu into Alolan Raichu).
    public var region: String?
    /// False for a way of older games that the newest no longer take (Magnezone's magnetic
    /// field, where a Thunder Stone now serves).
    public var isDefault: Bool
    /// PokeAPI's version group that first had it (its id; 0 where not said).
    public var versionGroup: UInt32

    public init(condition: EvolutionCondition, baseForm: PokemonRef? = nil, evolvedForm: PokemonRef? = nil, region: String? = nil,
                isDefault: Bool = true, versionGroup: UInt32 = 0) {
        self.condition = condition
        self.baseForm = baseForm
        self.evolvedForm = evolvedForm
        self.region = region
        self.isDefault = isDefault
        self.versionGroup = versionGroup
    }

    /// Every identifier in it, for the check of a record read back from the disk.
    public var identifiers: [String] {
        condition.identifiers + [baseForm?.name, evolvedForm?.name, region].compactMap { $0 }
    }
}

/// A condition a member evolves on: PokeAPI's trigger and the conditions set on it
/// (identifiers as the API writes them: "fire-stone", "day").
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

    /// "×4", "×2", "×½", "×¼", "×0", and what abilities make ("×⅛", "×¾", "×1.5", "×2.5"), with
    /// the reader's decimal separator.
    public static func label(_ multiplier: Double, decimalSeparator: String = ".") -> String {
        switch multiplier {
        case 0: return "×0"
        case 0.125: return "×⅛"
        case 0.25: return "×¼"
        case 0.5: return "×½"
        case 0.75: return "×¾"
        default:
            guard multiplier.isFinite, multiplier > 0, multiplier < 1000 else { return "×?" }
            // Whole, else to two places at most: 1.5, 1.25, 2.5.
            let hundredths = Int((multiplier * 100).rounded())
            var text = String(hundredths / 100)
            let fraction = hundredths % 100
            if fraction != 0 {
                text += decimalSeparator + (fraction % 10 == 0 ? String(fraction / 10) : (fraction < 10 ? "0" : "") + String(fraction))
            }
            return "×" + text
        }
    }
}

extension PokemonDetail {
    /// Where this Pokémon is in its own family: itself (a species, or a form with a line of its
    /// own: "raichu-alola"), else the member its name shares the most leading words with (Mega
    /// Charizard X is Charizard's, Zen Galarian Darmanitan Galarian Darmanitan's); nil where the
    /// family holds neither.
    public var ownFamilyIndex: Int? {
        if let own = evolution.firstIndex(where: { $0.id == id }) { return own }
        guard !PokemonID.isDefaultForm(id) else { return nil }
        let words = name.split(separator: "-")
        var best: (index: Int, shared: Int)?
        for (i, m) in evolution.enumerated() {
            let shared = zip(words, m.name.split(separator: "-")).prefix { $0 == $1 }.count
            if shared > 0, shared > (best?.shared ?? 0) { best = (i, shared) }
        }
        return best?.index
    }
}
