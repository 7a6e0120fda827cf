import PokedexModels

/// `Moves`' argument for the way a move is learnt and its `a{sv}` answer (``MoveTable``).
extension Coding {
    /// `level-up`, `machine`, `egg` or `tutor`; "" for all four. Anything else is the service's
    /// `InvalidArgument`, refused as the message is read.
    public static let learnMethod = Codec<Learnset.Method?>(
        "s", write: { w, v throws(BusError) in try w.append(v?.rawValue ?? "") },
        decode: { v throws(BusError) in
            guard let s = v.string else { throw malformed("not an s") }
            return try learnMethod(s)
        },
        read: { r throws(BusError) in try learnMethod(r.readString(maxBytes: maxArgumentBytes)) },
        cap: ArgumentCap(bytes: maxArgumentBytes))

    static func learnMethod(_ s: String) throws(BusError) -> Learnset.Method? {
        if s.isEmpty { return nil }
        guard let method = Learnset.Method(rawValue: s) else {
            throw BusError(name: PokedexError.Kind.invalidArgument.dbusName,
                           message: "the method must be level-up, machine, egg or tutor (\"\" for all four), not \(quoted(s))")
        }
        return method
    }

    /// `Moves`' answer.
    public static let moveTable = Codec<MoveTable>(
        "a{sv}",
        write: { w, t throws(BusError) in
            try w.container("a", "{sv}") { () throws(BusError) in
                try w.entry("id", "u") { () throws(BusError) in try w.append(t.id) }
                try w.entry("pokemon", "s") { () throws(BusError) in try w.append(t.pokemon) }
                try w.entry("game", "s") { () throws(BusError) in try w.append(t.game) }
                try w.entry("game_name", "s") { () throws(BusError) in try w.append(t.gameName) }
                try w.entry("games", "as") { () throws(BusError) in try w.append(strings: t.games) }
                try w.entry("language", "s") { () throws(BusError) in try w.append(t.language) }
                try w.entry("moves", "aa{sv}") { () throws(BusError) in
                    try w.container("a", "a{sv}") { () throws(BusError) in
                        for row in t.rows { try writeRow(w, row) }
                    }
                }
            }
        },
        decode: { v throws(BusError) in
            guard let d = v.stringDict, let pokemon = d["pokemon"]?.string, let game = d["game"]?.string else { throw malformed("moves") }
            let rows = try (d["moves"]?.array ?? []).map { v throws(BusError) in try decodeRow(v) }
            return MoveTable(id: UInt32(truncatingIfNeeded: d["id"]?.uint ?? 0), pokemon: pokemon, game: game, gameName: d["game_name"]?.string ?? "",
                             games: d["games"]?.array?.compactMap(\.string) ?? [], language: d["language"]?.string ?? "", rows: rows)
        })

    private static func writeRow(_ w: MessageWriter, _ m: MoveRow) throws(BusError) {
        try w.container("a", "{sv}") { () throws(BusError) in
            try w.entry("method", "s") { () throws(BusError) in try w.append(m.method.rawValue) }
            try w.entry("level", "u") { () throws(BusError) in try w.append(UInt32(m.level)) }
            try w.entry("id", "u") { () throws(BusError) in try w.append(m.id) }
            try w.entry("move", "s") { () throws(BusError) in try w.append(m.move) }
            try w.entry("name", "s") { () throws(BusError) in try w.append(m.name) }
            try w.entry("type", "s") { () throws(BusError) in try w.append(m.type) }
            try w.entry("type_name", "s") { () throws(BusError) in try w.append(m.typeName) }
            try w.entry("category", "s") { () throws(BusError) in try w.append(m.category) }
            try w.entry("category_name", "s") { () throws(BusError) in try w.append(m.categoryName) }
            if let v = m.power { try w.entry("power", "u") { () throws(BusError) in try w.append(UInt32(v)) } }
            if let v = m.accuracy { try w.entry("accuracy", "u") { () throws(BusError) in try w.append(UInt32(v)) } }
            if let v = m.pp { try w.entry("pp", "u") { () throws(BusError) in try w.append(UInt32(v)) } }
        }
    }

    private static func decodeRow(_ v: BusValue) throws(BusError) -> MoveRow {
        guard let d = v.stringDict, let method = d["method"]?.string.flatMap(Learnset.Method.init(rawValue:)),
              let id = d["id"]?.uint.flatMap({ UInt32(exactly: $0) }), let move = d["move"]?.string else { throw malformed("a move") }
        return MoveRow(method: method, level: UInt8(clamping: d["level"]?.uint ?? 0), id: id, move: move,
                       name: d["name"]?.string ?? move, type: d["type"]?.string ?? "", typeName: d["type_name"]?.string ?? "",
                       category: d["category"]?.string ?? "", categoryName: d["category_name"]?.string ?? "",
                       power: d["power"]?.uint.flatMap { UInt16(exactly: $0) }, accuracy: d["accuracy"]?.uint.flatMap { UInt8(exactly: $0) },
                       pp: d["pp"]?.uint.flatMap { UInt8(exactly: $0) })
    }
}
