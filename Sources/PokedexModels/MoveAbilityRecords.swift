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
    /// What it was before a game changed it (Charm was Normal before X and Y); nil in a record
    /// kept before they were read.
    public var pastValues: [PastValue]?

    /// The values a move had before the games of ``versionGroup``: the fields that changed there.
    public struct PastValue: Sendable, Codable, Equatable {
        public var versionGroup: String
        public var type: String?
        public var power: UInt16?
        public var accuracy: UInt8?
        public var pp: UInt8?
        public init(versionGroup: String, type: String? = nil, power: UInt16? = nil, accuracy: UInt8? = nil, pp: UInt8? = nil) {
            self.versionGroup = versionGroup
            self.type = type
            self.power = power
            self.accuracy = accuracy
            self.pp = pp
        }
    }

    /// The move as the games of version group `group` have it: each value the one in force
    /// there (the first change after `group` says what it was before).
    public func asIn(_ group: String) -> MoveRecord {
        guard let g = Games.group(group) else { return self }
        if (pastValues ?? []).isEmpty, g.generation >= 4 { return self }  // most moves: as they are
        let order = g.order
        let later = (pastValues ?? []).filter { (Games.order(of: $0.versionGroup) ?? 0) > order }
            .sorted { (Games.order(of: $0.versionGroup) ?? 0) < (Games.order(of: $1.versionGroup) ?? 0) }
        var m = self
        if let v = later.first(where: { $0.type != nil })?.type { m.type = v }
        if let v = later.first(where: { $0.power != nil })?.power { m.power = v }
        if let v = later.first(where: { $0.accuracy != nil })?.accuracy { m.accuracy = v }
        if let v = later.first(where: { $0.pp != nil })?.pp { m.pp = v }
        // Before Diamond and Pearl a move's type decided whether it hit as physical or special.
        if let g = Games.group(group), g.generation < 4, !m.damageClass.isEmpty, m.damageClass != "status" {
            m.damageClass = Self.physicalTypes.contains(m.type) ? "physical" : "special"
        }
        return m
    }

    /// The types that hit physically before generation 4 (the rest, but status moves, specially).
    static let physicalTypes: Set<String> = ["normal", "fighting", "flying", "poison", "ground", "rock", "bug", "ghost", "steel"]

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
