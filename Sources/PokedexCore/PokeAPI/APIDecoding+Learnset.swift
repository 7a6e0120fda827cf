/// A `pokemon` body's `moves`, most of its bytes (Pikachu: 479 of 577 KB): only the entries a
/// game's move list shows are built (``Learnset``); the others are checked and stepped over.
extension APIDecoding {
    /// The most entries a Pokémon keeps: Mew, who learns the most, has 2,712 in all games.
    public static let maxLearnsetEntries = 8192
    /// The highest level a move is learnt at.
    static let maxLevel: UInt32 = 100

    private static let moveKeys = JSONReader.Keys("move", "version_group_details")
    private static let detailKeys = JSONReader.Keys("level_learned_at", "move_learn_method", "version_group", "order")
    /// ``moveKeys`` as PokeAPI writes them.
    private static let moveOrder: [(key: StaticString, index: Int)] = [(#""move""#, 0), (#""version_group_details""#, 1)]
    /// ``detailKeys`` as PokeAPI writes them: `order` before `version_group`.
    private static let detailOrder: [(key: StaticString, index: Int)] = [
        (#""level_learned_at""#, 0), (#""move_learn_method""#, 1), (#""order""#, 3), (#""version_group""#, 2),
    ]

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
        // The groups ``Games`` knows by their place in it (no String built, hashed or checked a
        // detail: a body has a thousand); another group, by its name.
        var known = [[(entry: Learnset.Entry, order: Int)]](repeating: [], count: Games.groups.count)
        var others: [String: [(entry: Learnset.Entry, order: Int)]] = [:]
        var kept = 0
        // One move as it is read, its details' buffer kept from move to move. Its fields are a
        // struct's, not variables a nested function captures: those were boxed and checked for
        // exclusive access at run time at every detail (1% of a sync).
        var move = MoveRead()
        try r.array { (r) throws(JSONReader.Failure) in
            // PokeAPI's two keys in its order, else any object, read from its start again.
            move.start()
            if try !r.members(Self.moveOrder, { (k, r) throws(JSONReader.Failure) in try move.read(k, &r) }) {
                move.start()
                try r.object(moveKeys) { (k, r) throws(JSONReader.Failure) in try move.read(k, &r) }
            }
            guard let moveName = move.name else { throw r.missing("move") }
            guard !move.details.isEmpty else { return }
            func moveNameText() -> String { (try? r.string(moveName)) ?? "" }
            guard let id = move.url.flatMap(trailingID), id > 0 else {
                drops.refused.append("\"\(moveNameText().prefix(80))\" has no move id in its URL")
                return
            }
            for d in move.details {
                if case .other(let name) = d.group, !APIName.isValid(name) {
                    drops.refused.append("\(moveNameText().prefix(80)) in version group \"\(name.prefix(80))\", not a PokeAPI name")
                    continue
                }
                guard d.level <= maxLevel else {
                    drops.refused.append("\(moveNameText().prefix(80)) at level \(d.level), over level \(maxLevel)")
                    continue
                }
                guard kept < maxLearnsetEntries else { drops.overCap += 1; continue }
                let levelUp = d.method == .levelUp
                // An order past 255 or none: after those the API orders.
                let order = d.order.flatMap { $0 > 0 && $0 <= 255 ? $0 : nil } ?? 256
                let entry = (entry: Learnset.Entry(move: id, method: d.method, level: levelUp ? UInt8(d.level) : 0), order: order)
                switch d.group {
                case .known(let k): known[k].append(entry)
                case .other(let name): others[name, default: []].append(entry)
                }
                kept += 1
            }
        }
        var groups = others.mapValues(group)
        for (k, read) in known.enumerated() where !read.isEmpty { groups[Games.groups[k].name] = group(read) }
        return Learnset(versionGroups: groups)
    }

    /// One entry of `moves` as it is read: the move's name (where it is: a String only for a
    /// note on a move dropped) and url (its id), and its details in the four ways kept.
    private struct MoveRead {
        var name: JSONReader.StringToken?
        var url: String?
        var details: [(group: LearnsetGroup, method: Learnset.Method, level: UInt32, order: Int?)] = []
        /// The ways and version groups read so far in this body (each recurs a hundred times).
        let seen = SeenResources()

        mutating func start() {
            (name, url) = (nil, nil)
            details.removeAll(keepingCapacity: true)
        }

        mutating func read(_ k: Int, _ r: inout JSONReader) throws(JSONReader.Failure) {
            if k == 0 {
                let (name, url) = try r.resourceTokens()
                try r.check(name)
                self.name = name
                self.url = nil
                if let url { self.url = try r.string(url) }
                return
            }
            if try r.null() { return }
            try r.array { [seen] (r) throws(JSONReader.Failure) in
                var d = DetailRead()
                // PokeAPI's four keys in its order, else any object.
                if try !r.members(detailOrder, { (k, r) throws(JSONReader.Failure) in try d.read(k, &r, seen) }) {
                    try r.object(detailKeys) { (k, r) throws(JSONReader.Failure) in try d.read(k, &r, seen) }
                }
                guard let method = d.method, let group = d.group else { throw r.missing(d.method == nil ? "move_learn_method" : "version_group") }
                // Only the four ways a game's list shows; the rest is not built.
                guard let index = method else { return }
                details.append((group, Learnset.Method.allCases[index], d.level ?? 0, d.order))
            }
        }
    }

    /// The `move_learn_method`s (by their place in ``methodKeys``; nil: not kept) and the
    /// `version_group`s read in one body, for the details after them that repeat their bytes.
    private final class SeenResources {
        let methods = JSONReader.Recurring<Int?>(capacity: 16)
        let groups = JSONReader.Recurring<LearnsetGroup>(capacity: 64)
    }

    /// One of a move's `version_group_details`.
    private struct DetailRead {
        var level: UInt32?, method: Int??, group: LearnsetGroup?, order: Int?

        mutating func read(_ k: Int, _ r: inout JSONReader, _ seen: SeenResources) throws(JSONReader.Failure) {
            switch k {
            case 0: level = try r.null() ? nil : r.uint32()
            case 1:
                if try r.null() { return }
                method = try r.recurring(seen.methods) { (r) throws(JSONReader.Failure) -> Int?? in
                    let name = try r.resourceNameToken()
                    let index = try r.index(of: name, in: methodKeys)
                    if index == nil { try r.check(name) }
                    return .some(index)
                }
            case 2:
                if try r.null() { return }
                group = try r.recurring(seen.groups) { (r) throws(JSONReader.Failure) -> LearnsetGroup? in
                    let name = try r.resourceNameToken()
                    if let known = try r.index(of: name, in: groupKeys) { return .known(known) }
                    return .other(try r.string(name))
                }
            default: order = try r.null() ? nil : r.integer()
            }
        }
    }

    /// A detail's version group: one ``Games`` knows, by its place there, or another by name.
    private enum LearnsetGroup {
        case known(Int)
        case other(String)
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
    /// ``resourceKeys`` as PokeAPI writes them (a body has two thousand).
    private static let resourceOrder: [(key: StaticString, index: Int)] = [(#""name""#, 0), (#""url""#, 1)]

    /// A `{"name": …, "url": …}`'s members to `value`: in PokeAPI's order key after key, else
    /// any object, from its start again.
    private mutating func resource(_ value: (Int, inout JSONReader) throws(Failure) -> Void) throws(Failure) {
        if try !members(Self.resourceOrder, value) { try object(Self.resourceKeys, value) }
    }

    /// `{"name": …, "url": …}`: where its name is (required), its url only checked.
    mutating func resourceNameToken() throws(Failure) -> StringToken {
        var name: StringToken?
        try resource { (k, r) throws(Failure) in
            if k == 0 { name = try r.stringToken(); return }
            if try r.null() { return }
            try r.check(r.stringToken())
        }
        guard let name else { throw missing("name") }
        return name
    }

    /// `{"name": …, "url": …}` as tokens: its name (required, a string) and its url (a string,
    /// or nil for null or none), neither built nor checked.
    mutating func resourceTokens() throws(Failure) -> (name: StringToken, url: StringToken?) {
        var name: StringToken?, url: StringToken?
        try resource { (k, r) throws(Failure) in
            if k == 0 { name = try r.stringToken(); return }
            url = try r.null() ? nil : r.stringToken()
        }
        guard let name else { throw missing("name") }
        return (name, url)
    }

    /// An object of exactly these keys in this order (as PokeAPI writes it), each value read by
    /// `value` with the key's index: no key looked up. False where the object is otherwise
    /// (another key, another order, more keys): the reader is back at its start, for
    /// ``object(_:_:)`` to read it whole, which gives each value read here again.
    mutating func members(_ keys: [(key: StaticString, index: Int)], _ value: (Int, inout JSONReader) throws(Failure) -> Void) throws(Failure) -> Bool {
        let start = i, startDepth = depth
        guard peek == UInt8(ascii: "{") else { return false }
        try enter()
        i += 1
        for (n, key) in keys.enumerated() {
            skipSpace()
            if n > 0 {
                guard peek == UInt8(ascii: ",") else { i = start; depth = startDepth; return false }
                i += 1
                skipSpace()
            }
            guard matches(key.key) else { i = start; depth = startDepth; return false }
            i += key.key.utf8CodeUnitCount
            skipSpace()
            guard peek == UInt8(ascii: ":") else { i = start; depth = startDepth; return false }
            i += 1
            skipSpace()
            try value(key.index, &self)
        }
        skipSpace()
        guard peek == UInt8(ascii: "}") else { i = start; depth = startDepth; return false }
        i += 1
        depth -= 1
        return true
    }

    /// Whether the bytes here are `word`'s.
    private func matches(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        return end - i >= n && memoryEqual(base + i, word.utf8Start, n)
    }
}
