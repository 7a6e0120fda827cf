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

    /// One move of `Moves`' list: (method, level, id, move, name, type, type_name, category,
    /// category_name, power, accuracy, pp), power and accuracy 0 where the games print "—".
    static let moveFields = "suussssssuuu"

    /// `Moves`' answer: an `a{sv}` whose `moves` is an array of ``moveFields`` structs (a list of
    /// 240 moves, Mew's, is one struct each, not a dictionary each: a warm call stays under 2 ms).
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
                try w.entry("moves", "a(\(moveFields))") { () throws(BusError) in
                    try w.structs(moveFields, t.rows) { m throws(BusError) in
                        try w.append(m.method.rawValue)
                        try w.append(UInt32(m.level))
                        try w.append(m.id)
                        try w.append(m.move)
                        try w.append(m.name)
                        try w.append(m.type)
                        try w.append(m.typeName)
                        try w.append(m.category)
                        try w.append(m.categoryName)
                        try w.append(UInt32(m.power ?? 0))
                        try w.append(UInt32(m.accuracy ?? 0))
                        try w.append(UInt32(m.pp ?? 0))
                    }
                }
            }
        },
        decode: { v throws(BusError) in
            guard let d = v.stringDict, let pokemon = d["pokemon"]?.string, let game = d["game"]?.string else { throw malformed("moves") }
            let rows = try (d["moves"]?.array ?? []).map { v throws(BusError) in
                guard let f = v.fields, f.count == 12, let method = f[0].string.flatMap(Learnset.Method.init(rawValue:)),
                      let level = f[1].uint, let id = f[2].uint, let move = f[3].string, let name = f[4].string, let type = f[5].string,
                      let typeName = f[6].string, let category = f[7].string, let categoryName = f[8].string,
                      let power = f[9].uint, let accuracy = f[10].uint, let pp = f[11].uint else { throw malformed("a move") }
                return row(method, level, id, move, name, type, typeName, category, categoryName, power, accuracy, pp)
            }
            return MoveTable(id: UInt32(truncatingIfNeeded: d["id"]?.uint ?? 0), pokemon: pokemon, game: game,
                             gameName: d["game_name"]?.string ?? "", games: d["games"]?.array?.compactMap(\.string) ?? [],
                             language: d["language"]?.string ?? "", rows: rows)
        },
        // Straight from the message, as its decode reads it: browse and pokectl read lists of 240.
        read: { r throws(BusError) in
            var t = MoveTable(id: 0, pokemon: "", game: "", gameName: "", games: [], language: "", rows: [])
            var has = (pokemon: false, game: false)
            try r.readEntries { (key, type) throws(BusError) -> Bool in
                switch (key, type) {
                case ("id", "u"): t.id = try r.readUInt32()
                case ("pokemon", "s"): t.pokemon = try r.readString(); has.pokemon = true
                case ("game", "s"): t.game = try r.readString(); has.game = true
                case ("game_name", "s"): t.gameName = try r.readString()
                case ("games", "as"): t.games = try r.readStringArray()
                case ("language", "s"): t.language = try r.readString()
                case ("moves", "a(\(moveFields))"):
                    try r.readStructs(moveFields) { () throws(BusError) in
                        let method = try r.readString(), level = try r.readUInt32(), id = try r.readUInt32()
                        let move = try r.readString(), name = try r.readString(), type = try r.readString(), typeName = try r.readString()
                        let category = try r.readString(), categoryName = try r.readString()
                        let power = try r.readUInt32(), accuracy = try r.readUInt32(), pp = try r.readUInt32()
                        guard let m = Learnset.Method(rawValue: method) else { throw malformed("a move") }
                        t.rows.append(row(m, UInt64(level), UInt64(id), move, name, type, typeName, category, categoryName,
                                          UInt64(power), UInt64(accuracy), UInt64(pp)))
                    }
                default: return false
                }
                return true
            }
            guard has.pokemon, has.game else { throw malformed("moves") }
            return t
        })

    private static func row(_ method: Learnset.Method, _ level: UInt64, _ id: UInt64, _ move: String, _ name: String, _ type: String,
                            _ typeName: String, _ category: String, _ categoryName: String, _ power: UInt64, _ accuracy: UInt64,
                            _ pp: UInt64) -> MoveRow {
        MoveRow(method: method, level: UInt8(clamping: level), id: UInt32(clamping: id), move: move, name: name, type: type,
                typeName: typeName, category: category, categoryName: categoryName,
                power: power == 0 ? nil : UInt16(clamping: power), accuracy: accuracy == 0 ? nil : UInt8(clamping: accuracy),
                pp: pp == 0 ? nil : UInt8(clamping: pp))
    }
}
