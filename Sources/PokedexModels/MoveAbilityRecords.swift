// What the service keeps of the `move` bodies a card's moves name (an ability's effect is kept
// with its names: ``NamesRecord/effects``).

/// A move as the games list it: its names, type, category, power, accuracy and PP (the
/// current games' values: PokeAPI's `past_values` are older ones).
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

    public init(id: UInt32, name: String, names: [String: String], type: String, damageClass: String, power: UInt16?,
                accuracy: UInt8?, pp: UInt8?) {
        self.id = id
        self.name = name
        self.names = names
        self.type = type
        self.damageClass = damageClass
        self.power = power
        self.accuracy = accuracy
        self.pp = pp
    }
}
