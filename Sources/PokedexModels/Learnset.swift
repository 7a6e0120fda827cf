/// A Pokémon's moves as the games teach them, by version group: by level-up (at a level, 0 on
/// evolution), from a machine (TM, TR, HM), by breeding and from a tutor. PokeAPI's other ways
/// (a form change, Colosseum's purification, Champions' roster, …) are not kept: no game's
/// move list shows them.
///
/// Kept inside the Pokémon's record, so it is compact: a group is four arrays of move ids
/// (level-up ones with their level), written `{"l":[move,level,…],"m":[…],"e":[…],"t":[…]}`.
public struct Learnset: Sendable, Codable, Equatable {
    public enum Method: String, Sendable, Codable, CaseIterable {
        case levelUp = "level-up", machine, egg, tutor
    }

    /// One move as a game's list shows it.
    public struct Entry: Sendable, Equatable {
        /// The move's PokeAPI id (`move/{id}`).
        public var move: UInt32
        public var method: Method
        /// The level it is learnt at by level-up (0: on evolution; 1: at the start or from the
        /// reminder); 0 for the other methods.
        public var level: UInt8

        public init(move: UInt32, method: Method, level: UInt8 = 0) {
            self.move = move
            self.method = method
            self.level = level
        }
    }

    /// One version group's moves: level-up ones by level, then in the API's order at a level;
    /// the others in the API's order.
    public struct Group: Sendable, Equatable {
        public var levelUp: [(move: UInt32, level: UInt8)] = []
        public var machine: [UInt32] = []
        public var egg: [UInt32] = []
        public var tutor: [UInt32] = []

        public init() {}

        public var count: Int { levelUp.count + machine.count + egg.count + tutor.count }

        public func entries(_ method: Method) -> [Entry] {
            switch method {
            case .levelUp: return levelUp.map { Entry(move: $0.move, method: .levelUp, level: $0.level) }
            case .machine: return machine.map { Entry(move: $0, method: .machine) }
            case .egg: return egg.map { Entry(move: $0, method: .egg) }
            case .tutor: return tutor.map { Entry(move: $0, method: .tutor) }
            }
        }

        public static func == (a: Group, b: Group) -> Bool {
            a.levelUp.elementsEqual(b.levelUp) { $0 == $1 } && a.machine == b.machine && a.egg == b.egg && a.tutor == b.tutor
        }
    }

    /// Version group (PokeAPI's name, "scarlet-violet") → its moves. A group is here only if it
    /// teaches at least one move by the four ways.
    public var versionGroups: [String: Group] { didSet { newestGroup = Self.newest(versionGroups) } }

    /// The newest game's group it has moves in (``Games``' order); nil where it has none. Kept,
    /// not worked out a call: every card reads it.
    public private(set) var newestGroup: String?

    public init(versionGroups: [String: Group] = [:]) {
        self.versionGroups = versionGroups
        newestGroup = Self.newest(versionGroups)
    }

    private enum CodingKeys: String, CodingKey { case versionGroups }

    public init(from decoder: any Decoder) throws {
        self.init(versionGroups: try decoder.container(keyedBy: CodingKeys.self).decode([String: Group].self, forKey: .versionGroups))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(versionGroups, forKey: .versionGroups)
    }

    private static func newest(_ groups: [String: Group]) -> String? { Games.newestFirst(groups.keys).first }

    /// Every entry kept, in all version groups.
    public var count: Int { versionGroups.values.reduce(0) { $0 + $1.count } }

    /// The entries of `group` by `method`.
    public func entries(_ group: String, _ method: Method) -> [Entry] { versionGroups[group]?.entries(method) ?? [] }

}

extension Learnset.Group: Codable {
    private enum Key: String, CodingKey { case l, m, e, t }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let pairs = try c.decodeIfPresent([UInt32].self, forKey: .l) ?? []
        guard pairs.count % 2 == 0 else {
            throw DecodingError.dataCorruptedError(forKey: .l, in: c, debugDescription: "level-up moves come in pairs")
        }
        levelUp = stride(from: 0, to: pairs.count, by: 2).map { (pairs[$0], UInt8(clamping: pairs[$0 + 1])) }
        machine = try c.decodeIfPresent([UInt32].self, forKey: .m) ?? []
        egg = try c.decodeIfPresent([UInt32].self, forKey: .e) ?? []
        tutor = try c.decodeIfPresent([UInt32].self, forKey: .t) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        if !levelUp.isEmpty { try c.encode(levelUp.flatMap { [$0.move, UInt32($0.level)] }, forKey: .l) }
        if !machine.isEmpty { try c.encode(machine, forKey: .m) }
        if !egg.isEmpty { try c.encode(egg, forKey: .e) }
        if !tutor.isEmpty { try c.encode(tutor, forKey: .t) }
    }
}
