import PokedexModels

/// `Detail`'s `evolution` (an array of dictionaries, so a key can be added later without
/// changing its signature) and `matchups` (a dictionary).
extension Coding {
    /// `evolution` `aa{sv}`: {id u, name s, display_name s, from u, trigger_kind s, trigger s}.
    static func writeEvolution(_ w: MessageWriter, _ members: [EvolutionMember]) throws(BusError) {
        try w.container("a", "a{sv}") { () throws(BusError) in
            for m in members {
                try w.container("a", "{sv}") { () throws(BusError) in
                    try w.entry("id", "u") { () throws(BusError) in try w.append(m.id) }
                    try w.entry("name", "s") { () throws(BusError) in try w.append(m.name) }
                    try w.entry("display_name", "s") { () throws(BusError) in try w.append(m.displayName) }
                    try w.entry("from", "u") { () throws(BusError) in try w.append(m.from) }
                    try w.entry("trigger_kind", "s") { () throws(BusError) in try w.append(m.triggerKind) }
                    try w.entry("trigger", "s") { () throws(BusError) in try w.append(m.trigger) }
                }
            }
        }
    }

    /// `matchups` `a{sd}`: attacking type → multiplier, strongest first. The types' names are
    /// the bundled chart's (``TypeChart/name(_:language:)``), so a client names them itself and
    /// the warm `Detail` stays one small message.
    static func writeMatchups(_ w: MessageWriter, _ matchups: [TypeMatchup]) throws(BusError) {
        try w.container("a", "{sd}") { () throws(BusError) in
            for m in matchups {
                try w.container("e", "sd") { () throws(BusError) in
                    try w.append(m.type)
                    try w.append(m.multiplier)
                }
            }
        }
    }

    static func readEvolution(_ v: BusValue?) -> [EvolutionMember] {
        (v?.array ?? []).compactMap { row in
            guard let d = row.stringDict, let id = d["id"]?.uint, let name = d["name"]?.string else { return nil }
            return EvolutionMember(id: UInt32(truncatingIfNeeded: id), name: name, displayName: d["display_name"]?.string ?? name,
                                   from: UInt32(truncatingIfNeeded: d["from"]?.uint ?? 0), triggerKind: d["trigger_kind"]?.string ?? "",
                                   trigger: d["trigger"]?.string ?? "")
        }
    }

    /// The matchups, each type named in `language` (a PokeAPI code).
    static func readMatchups(_ v: BusValue?, language: String) -> [TypeMatchup] {
        guard case .dict(let pairs)? = v?.unwrapped else { return [] }
        return namedMatchups(pairs.compactMap { p in p.key.string.flatMap { t in p.value.double.map { (t, $0) } } }, language: language)
    }

    /// Type → multiplier pairs as read, each type named in `language`; a multiplier that is
    /// not a number is left out.
    static func namedMatchups(_ pairs: [(String, Double)], language: String) -> [TypeMatchup] {
        pairs.compactMap { type, m in
            m.isFinite ? TypeMatchup(type: type, typeName: TypeChart.name(type, language: language), multiplier: m) : nil
        }
    }

    /// The typed read of `evolution`, with ``readEvolution(_:)-(BusValue?)``'s fallbacks.
    static func readEvolution(_ r: MessageReader) throws(BusError) -> [EvolutionMember] {
        var out: [EvolutionMember] = []
        try r.readDictionaries { () throws(BusError) in
            var id: UInt32?, name: String?, displayName: String?, from: UInt32 = 0, kind = "", trigger = ""
            try r.readEntries { (key, type) throws(BusError) -> Bool in
                switch (key, type) {
                case ("id", "u"): id = try r.readUInt32()
                case ("name", "s"): name = try r.readString()
                case ("display_name", "s"): displayName = try r.readString()
                case ("from", "u"): from = try r.readUInt32()
                case ("trigger_kind", "s"): kind = try r.readString()
                case ("trigger", "s"): trigger = try r.readString()
                default: return false
                }
                return true
            }
            guard let id, let name else { return }
            out.append(EvolutionMember(id: id, name: name, displayName: displayName ?? name, from: from, triggerKind: kind, trigger: trigger))
        }
        return out
    }
}
