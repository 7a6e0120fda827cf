/// A Pokémon's moves as the games teach them, by version group: by level-up (at a level, 0 on
/// evolution), from a machine (TM, TR, HM), by breeding and from a tutor. PokeAPI's other ways
/// (a form change, Colosseum's purification, Champions' roster, …) are not kept: no game's
/// move list shows them.
public struct Learnset: Sendable, Codable, Equatable {
    public enum Method: String, Sendable, Codable, CaseIterable {
        case levelUp = "level-up", machine, egg, tutor
    }

    public struct Entry: Sendable, Codable, Equatable {
        /// The move's PokeAPI id (`move/{id}`).
        public var move: UInt32
        public var method: Method
        /// The level it is learnt at by level-up (0: on evolution; 1: at the start or from the
        /// reminder); 0 for the other methods.
        public var level: UInt8
        /// Its place among the moves learnt at the same level, where the API gives one.
        public var order: UInt8?

        public init(move: UInt32, method: Method, level: UInt8 = 0, order: UInt8? = nil) {
            self.move = move
            self.method = method
            self.level = level
            self.order = order
        }
    }

    /// Version group (PokeAPI's name, "scarlet-violet") → its entries, in the API's order.
    public var versionGroups: [String: [Entry]]

    public init(versionGroups: [String: [Entry]] = [:]) { self.versionGroups = versionGroups }

    /// Every entry kept, in all version groups.
    public var count: Int { versionGroups.values.reduce(0) { $0 + $1.count } }

    /// The entries of `group` by `method`, level-up ones by level then the API's order.
    public func entries(_ group: String, _ method: Method) -> [Entry] {
        let chosen = (versionGroups[group] ?? []).filter { $0.method == method }
        guard method == .levelUp else { return chosen }
        return chosen.enumerated().sorted { a, b in
            (a.element.level, a.element.order ?? .max, a.offset) < (b.element.level, b.element.order ?? .max, b.offset)
        }.map(\.element)
    }
}
