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
        return pairs.compactMap { p in
            guard let type = p.key.string, let m = p.value.double, m.isFinite else { return nil }
            return TypeMatchup(type: type, typeName: TypeChart.name(type, language: language), multiplier: m)
        }
    }
}
