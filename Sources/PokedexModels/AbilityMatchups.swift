/// The abilities that change what a type's hit does, as the current games have them: a card
/// names the ones its Pokémon may have, with what each changes ("Levitate: Ground ×0"), and
/// Wonder Guard's says what lands at all. Type-based effects only: an ability that changes a
/// move's power by its kind (Bulletproof, Ice Scales) or the weather (Delta Stream) is not here.
public enum AbilityMatchups {
    /// What an ability does to the hits that reach it.
    enum Effect {
        /// These types do nothing (and heal, charge or boost instead).
        case immune([String])
        /// These types' hits are multiplied by `factor` (Thick Fat: fire and ice ×½).
        case scaled([String], Double)
        /// Super-effective hits are multiplied by `factor` (Filter: ×¾).
        case superEffective(Double)
        /// Only super-effective hits land (Wonder Guard).
        case onlySuperEffective
        /// Several of the above (Dry Skin: water heals, fire ×1.25).
        case all([Effect])
    }

    /// Every such ability, by PokeAPI's identifier.
    static let effects: [String: Effect] = [
        "levitate": .immune(["ground"]),
        "earth-eater": .immune(["ground"]),
        "flash-fire": .immune(["fire"]),
        "well-baked-body": .immune(["fire"]),
        "water-absorb": .immune(["water"]),
        "storm-drain": .immune(["water"]),
        "dry-skin": .all([.immune(["water"]), .scaled(["fire"], 1.25)]),
        "volt-absorb": .immune(["electric"]),
        "lightning-rod": .immune(["electric"]),
        "motor-drive": .immune(["electric"]),
        "sap-sipper": .immune(["grass"]),
        "thick-fat": .scaled(["fire", "ice"], 0.5),
        "heatproof": .scaled(["fire"], 0.5),
        "water-bubble": .scaled(["fire"], 0.5),
        "purifying-salt": .scaled(["ghost"], 0.5),
        "fluffy": .scaled(["fire"], 2),
        "filter": .superEffective(0.75),
        "solid-rock": .superEffective(0.75),
        "prism-armor": .superEffective(0.75),
        "wonder-guard": .onlySuperEffective,
    ]

    /// Whether `ability` changes any type's hit.
    public static func changesMatchups(_ ability: String) -> Bool { effects[ability] != nil }

    /// What `ability` makes of each attacking type against `defenders`, for the types whose
    /// multiplier it changes, in the chart's order of the result (strongest first); empty for an
    /// ability that changes none.
    public static func matchups(_ ability: String, _ defenders: [String], language: String) -> [TypeMatchup] {
        guard let effect = effects[ability] else { return [] }
        let all = TypeChart.types.enumerated().compactMap { i, type -> (Int, TypeMatchup)? in
            let base = TypeChart.multiplier(type, against: defenders)
            let with = apply(effect, type, base)
            return with == base ? nil : (i, TypeMatchup(type: type, typeName: TypeChart.name(type, language: language), multiplier: with))
        }
        return all.sorted { a, b in
            a.1.multiplier != b.1.multiplier ? a.1.multiplier > b.1.multiplier : a.0 < b.0
        }.map(\.1)
    }

    /// The multiplier `type` deals with `effect`, from `base`.
    static func apply(_ effect: Effect, _ type: String, _ base: Double) -> Double {
        switch effect {
        case .immune(let types): return types.contains(type) ? 0 : base
        case .scaled(let types, let factor): return types.contains(type) ? base * factor : base
        case .superEffective(let factor): return base > 1 ? base * factor : base
        case .onlySuperEffective: return base > 1 ? base : 0
        case .all(let effects): return effects.reduce(base) { apply($1, type, $0) }
        }
    }
}

/// One of a Pokémon's abilities that changes its matchups, and what it makes of them.
public struct AbilityMatchup: Sendable, Equatable {
    /// The ability's identifier ("levitate").
    public var ability: String
    /// The attacking types it changes, each with the multiplier it deals with the ability
    /// (Levitate: ground ×0), strongest first.
    public var matchups: [TypeMatchup]

    public init(ability: String, matchups: [TypeMatchup]) {
        self.ability = ability
        self.matchups = matchups
    }

    /// Wonder Guard: only the super-effective hits land.
    public var onlySuperEffectiveLands: Bool { ability == "wonder-guard" }
}
