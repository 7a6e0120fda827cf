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

    /// The four ways kept, in ``Learnset/Method``'s order, and the version groups ``Games``
    /// knows: matched on the body's bytes, so the 1,100 details of a body build no String.
    private static let methodKeys = JSONReader.Keys("level-up", "machine", "egg", "tutor")
    private static let groupKeys = JSONReader.Keys(Games.groups.map(\.name))

    /// The entries of a `moves` array, by version group. A move without an id, a version group
    /// that is not a PokeAPI name, a level over 100 and entries over the cap are dropped, and
    /// added to `drops`.
    static func learnset(_ r: inout JSONReader, drops: inout LearnsetDrops) throws(JSONReader.Failure) -> Learnset {
        var groups: [String: [(entry: Learnset.Entry, order: Int)]] = [:]
        var kept = 0
        try r.array { (r) throws(JSONReader.Failure) in
            var move: NamedResource?
            var details: [(group: String, method: Learnset.Method, level: UInt32, order: Int?)] = []
            try r.object(moveKeys) { (k, r) throws(JSONReader.Failure) in
                if k == 0 { move = try r.namedResource(); return }
                if try r.null() { return }
                try r.array { (r) throws(JSONReader.Failure) in
                    var level: UInt32?, method: Int??, group: String?, order: Int?
                    try r.object(detailKeys) { (k, r) throws(JSONReader.Failure) in
                        switch k {
                        case 0: level = try r.null() ? nil : r.uint32()
                        case 1:
                            if try r.null() { return }
                            let name = try r.resourceNameToken()
                            let index = try r.index(of: name, in: methodKeys)
                            if index == nil { try r.check(name) }
                            method = .some(index)
                        case 2:
                            if try r.null() { return }
                            let name = try r.resourceNameToken()
                            if let known = try r.index(of: name, in: groupKeys) { group = Games.groups[known].name } else { group = try r.string(name) }
                        default: order = try r.null() ? nil : r.integer()
                        }
                    }
                    guard let method, let group else { throw r.missing(method == nil ? "move_learn_method" : "version_group") }
                    // Only the four ways a game's list shows; the rest is not built.
                    guard let index = method else { return }
                    details.append((group, Learnset.Method.allCases[index], level ?? 0, order))
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
                // An order past 255 or none: after those the API orders.
                let order = d.order.flatMap { $0 > 0 && $0 <= 255 ? $0 : nil } ?? 256
                groups[d.group, default: []].append((.init(move: id, method: d.method, level: levelUp ? UInt8(d.level) : 0), order))
                kept += 1
            }
        }
        return Learnset(versionGroups: groups.mapValues(group))
    }

    /// A group's entries as the games list them: level-up by level (0, on evolution, first),
    /// then the API's order at a level, then as read.
    private static func group(_ read: [(entry: Learnset.Entry, order: Int)]) -> Learnset.Group {
        var g = Learnset.Group()
        let levelUp = read.enumerated().filter { $0.element.entry.method == .levelUp }
            .sorted { ($0.element.entry.level, $0.element.order, $0.offset) < ($1.element.entry.level, $1.element.order, $1.offset) }
        g.levelUp = levelUp.map { ($0.element.entry.move, $0.element.entry.level) }
        for (e, _) in read {
            switch e.method {
            case .levelUp: continue
            case .machine: g.machine.append(e.move)
            case .egg: g.egg.append(e.move)
            case .tutor: g.tutor.append(e.move)
            }
        }
        return g
    }
}

extension JSONReader {
    private static let resourceKeys = Keys("name", "url")

    /// `{"name": …, "url": …}`: where its name is (required), its url only checked.
    mutating func resourceNameToken() throws(Failure) -> StringToken {
        var name: StringToken?
        try object(Self.resourceKeys) { (k, r) throws(Failure) in
            if k == 0 { name = try r.stringToken(); return }
            if try r.null() { return }
            try r.check(r.stringToken())
        }
        guard let name else { throw missing("name") }
        return name
    }
}
