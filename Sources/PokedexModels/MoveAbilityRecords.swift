// What the service keeps of the `move` and `ability` bodies a card's moves and abilities name.

/// A move as the games list it: its names, type, category, power, accuracy and PP (the
/// current games' values: PokeAPI's `past_values` are older ones), and its newest description
/// in each language.
public struct MoveRecord: Sendable, Codable, Equatable {
    public var id: UInt32
    public var name: String
    /// Language code → name, in the languages names are shown in.
    public var names: [String: String]
    /// Its type (`electric`).
    public var type: String
    /// Physical, special or status.
    public var damageClass: String
    /// nil where the games print "—" (status moves, moves whose power varies).
    public var power: UInt16?
    /// nil for a move that never misses (or a status move that does not check).
    public var accuracy: UInt8?
    public var pp: UInt8?
    /// Language code → the newest description in it.
    public var flavorTexts: [String: String]

    public init(id: UInt32, name: String, names: [String: String], type: String, damageClass: String, power: UInt16?,
                accuracy: UInt8?, pp: UInt8?, flavorTexts: [String: String]) {
        self.id = id
        self.name = name
        self.names = names
        self.type = type
        self.damageClass = damageClass
        self.power = power
        self.accuracy = accuracy
        self.pp = pp
        self.flavorTexts = flavorTexts
    }
}

/// An ability: its names, its short effect where PokeAPI writes one (English always, German
/// often, never Japanese), and its newest in-game description in each language.
public struct AbilityRecord: Sendable, Codable, Equatable {
    public var name: String
    public var names: [String: String]
    /// Language code → PokeAPI's short effect.
    public var shortEffects: [String: String]
    /// Language code → the newest description in the games.
    public var flavorTexts: [String: String]

    public init(name: String, names: [String: String], shortEffects: [String: String], flavorTexts: [String: String]) {
        self.name = name
        self.names = names
        self.shortEffects = shortEffects
        self.flavorTexts = flavorTexts
    }

    /// What the ability does, in `language`: PokeAPI's short effect in it, else the games' own
    /// description in it, else the English short effect; "" where there is none.
    public func effect(in language: String) -> String {
        shortEffects[language] ?? flavorTexts[language] ?? shortEffects["en"] ?? flavorTexts["en"] ?? ""
    }
}
