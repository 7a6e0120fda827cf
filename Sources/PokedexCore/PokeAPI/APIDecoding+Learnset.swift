/// A `pokemon` body's `moves`, most of its bytes (Pikachu: 479 of 577 KB): only the entries a
/// game's move list shows are built (``Learnset``); the others are checked and stepped over.
extension APIDecoding {
    /// The most entries a Pokémon keeps: Mew, who learns the most, has 2,712 in all games.
    public static let maxLearnsetEntries = 8192
    /// The highest level a move is learnt at.
    static let maxLevel: UInt32 = 100

    private static let moveKeys = JSONReader.Keys("move", "version_group_details")
    private static let detailKeys = JSONReader.Keys("level_learned_at", "move_learn_method", "version_group", "order")

    /// What a `moves` array held that is not kept, said once the Pokémon's name is known (the
    /// API writes `moves` before `name`).
    struct LearnsetDrops {
        var refused: [String] = []
        var overCap = 0

        func say(of name: String, to dropped: Dropped) {
            for why in refused.prefix(8) { dropped("dropped a move of \(name): " + why) }
            if refused.count > 8 { dropped("dropped \(refused.count - 8) more moves of \(name) for the same reasons") }
            if overCap > 0 { dropped("dropped \(overCap) moves of \(name): over the cap of \(maxLearnsetEntries)") }
        }
    }

    /// The entries of a `moves` array, by version group. A move without an id, a version group
    /// that is not a PokeAPI name, a level over 100 and entries over the cap are dropped, and
    /// added to `drops`.
    static func learnset(_ r: inout JSONReader, drops: inout LearnsetDrops) throws(JSONReader.Failure) -> Learnset {
        var groups: [String: [Learnset.Entry]] = [:]
        var kept = 0
        try r.array { (r) throws(JSONReader.Failure) in
            var move: NamedResource?
            var details: [(group: String, method: Learnset.Method, level: UInt32, order: Int?)] = []
            try r.object(moveKeys) { (k, r) throws(JSONReader.Failure) in
                if k == 0 { move = try r.namedResource(); return }
                try r.array { (r) throws(JSONReader.Failure) in
                    var level: UInt32?, method: String?, group: String?, order: Int?
                    try r.object(detailKeys) { (k, r) throws(JSONReader.Failure) in
                        switch k {
                        case 0: level = try r.uint32()
                        case 1: method = try r.namedResource().name
                        case 2: group = try r.namedResource().name
                        default: order = try r.null() ? nil : r.integer()
                        }
                    }
                    guard let method, let group else { throw r.missing(method == nil ? "move_learn_method" : "version_group") }
                    // Only the four ways a game's list shows; the rest is not built.
                    guard let kind = Learnset.Method(rawValue: method) else { return }
                    details.append((group, kind, level ?? 0, order))
                }
            }
            guard let move else { throw r.missing("move") }
            guard !details.isEmpty else { return }
            guard let id = move.url.flatMap(trailingID), id > 0 else {
                drops.refused.append("\"\(move.name.prefix(80))\" has no move id in its URL")
                return
            }
            for d in details {
                guard APIName.isValid(d.group) else {
                    drops.refused.append("\(move.name.prefix(80)) in version group \"\(d.group.prefix(80))\", not a PokeAPI name")
                    continue
                }
                guard d.level <= maxLevel else {
                    drops.refused.append("\(move.name.prefix(80)) at level \(d.level), over level \(maxLevel)")
                    continue
                }
                guard kept < maxLearnsetEntries else { drops.overCap += 1; continue }
                let levelUp = d.method == .levelUp
                let order = d.order.flatMap { $0 > 0 ? UInt8(exactly: $0) : nil }
                groups[d.group, default: []].append(.init(move: id, method: d.method, level: levelUp ? UInt8(d.level) : 0,
                                                          order: levelUp ? order : nil))
                kept += 1
            }
        }
        return Learnset(versionGroups: groups)
    }
}
