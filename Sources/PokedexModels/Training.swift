/// How a Pokémon breeds and trains, as the card shows it: the values of the newest game it is in
/// (``game``), identifiers as PokeAPI names them and, in `LocalizedDetail`, their names in the
/// reader's language.
public struct TrainingFacts: Equatable, Sendable {
    /// The version group the facts hold for (`scarlet-violet`); "" where none is known.
    public var game = ""
    /// Its hidden ability's identifier; "" where it has none.
    public var hiddenAbility = ""
    /// `egg-group` names (`field`, `no-eggs`).
    public var eggGroups: [String] = []
    /// Females in eighths (0…8), -1 genderless; nil where not known.
    public var genderRate: Int8?
    public var eggCycles: UInt8?
    public var captureRate: UInt8?
    public var baseFriendship: UInt8?
    /// `growth-rate` name (`medium-slow`); "" where not known.
    public var growthRate = ""
    /// Effort values given when defeated: the stats it gives any for.
    public var evYield: [PokemonRecord.Stat] = []
    /// Items it may hold in the wild and how often (percent), in ``heldItemsVersion``: the newest
    /// version PokeAPI lists any for (it lists none after Ultra Sun/Ultra Moon).
    public var heldItems: [HeldItem] = []
    public var heldItemsVersion = ""

    // In `LocalizedDetail`: the names, in the answer's language.
    public var gameName = ""
    public var eggGroupNames: [String] = []
    public var growthRateName = ""
    public var heldItemNames: [String] = []
    public var heldItemsVersionName = ""

    public struct HeldItem: Equatable, Sendable {
        public var item: String
        public var rarity: UInt8
        public init(item: String, rarity: UInt8) {
            self.item = item
            self.rarity = rarity
        }
    }

    public init() {}

    /// The share of females in percent (12.5 for 1 in 8); nil genderless or not known.
    public var femalePercent: Double? {
        guard let genderRate, genderRate >= 0 else { return nil }
        return Double(genderRate) * 12.5
    }
}

/// The growth rates' names where PokeAPI has none: the experience each needs for level 100 is
/// how players tell them apart ("1,000,000"), and what the Japanese names say (100万タイプ).
public enum GrowthRates {
    /// PokeAPI's `growth-rate` names, fastest first, with the experience at level 100.
    public static let all: [(name: String, experience: Int)] = [
        ("slow-then-very-fast", 600_000), ("fast", 800_000), ("medium", 1_000_000),
        ("medium-slow", 1_059_860), ("slow", 1_250_000), ("fast-then-very-slow", 1_640_000),
    ]

    public static func experience(_ name: String) -> Int? { all.first { $0.name == name }?.experience }
}

extension GrowthRates {
    /// A growth rate's name as players know it, in `w`'s language; "" for one not known.
    public static func name(_ id: String, _ w: Words) -> String {
        switch id {
        // TRANSLATORS: growth rates, as players name them: German "Unregelmäßig", Japanese "60万タイプ" (experience at level 100).
        case "slow-then-very-fast": return w.tr("Erratic")
        case "fast": return w.tr("Fast")
        case "medium": return w.tr("Medium Fast")
        case "medium-slow": return w.tr("Medium Slow")
        case "slow": return w.tr("Slow")
        case "fast-then-very-slow": return w.tr("Fluctuating")
        default: return ""
        }
    }
}
