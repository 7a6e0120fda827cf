import CSystemd
import PokedexModels

/// `Detail`'s `evolution` and `matchups`.
///
/// `evolution` is an array of structs, as `ListPage`'s rows are, not of dictionaries: a warm
/// card with its family is one small message through the bus daemon and two readers, and
/// measured with `bench/ab-rtt` (AB_DETAIL=charizard) the dictionaries cost about a tenth of
/// a Peer.Ping more. A member's field added later is a `Detail` key of its own.
extension Coding {
    /// The names of an `evolution` row's fields, in order: how pokectl's JSON names them.
    public static let evolutionFields = ["id", "name", "display_name", "from", "trigger_kind", "trigger"]
    static let evolutionRow = "ussuss"
    static let evolutionSignature = "a(\(evolutionRow))"

    /// `evolution` `a(ussuss)`: (id, name, display_name, from, trigger_kind, trigger).
    static func writeEvolution(_ w: MessageWriter, _ members: [EvolutionMember]) throws(BusError) {
        try w.structs(evolutionRow, members) { m throws(BusError) in
            try w.append(m.id)
            try w.append(m.name)
            try w.append(m.displayName)
            try w.append(m.from)
            try w.append(m.triggerKind)
            try w.append(m.trigger)
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

    /// `ability_matchups` `a{sa{sd}}`: each of the Pokémon's abilities that changes its matchups
    /// → attacking type → the multiplier with it, strongest first.
    static func writeAbilityMatchups(_ w: MessageWriter, _ abilities: [AbilityMatchup]) throws(BusError) {
        try w.container("a", "{sa{sd}}") { () throws(BusError) in
            for a in abilities {
                try w.container("e", "sa{sd}") { () throws(BusError) in
                    try w.append(a.ability)
                    try writeMatchups(w, a.matchups)
                }
            }
        }
    }

    /// The abilities' matchups as read, each type named in `language`; nil where the key is absent.
    static func readAbilityMatchups(_ v: BusValue?, language: String) -> [AbilityMatchup]? {
        guard case .dict(let pairs)? = v?.unwrapped else { return nil }
        return pairs.compactMap { p in
            p.key.string.map { AbilityMatchup(ability: $0, matchups: readMatchups(p.value, language: language)) }
        }
    }

    static func readEvolution(_ v: BusValue?) -> [EvolutionMember] {
        (v?.array ?? []).compactMap { row in
            guard let f = row.fields, f.count == evolutionFields.count, let id = f[0].uint, let name = f[1].string, let from = f[3].uint else { return nil }
            return EvolutionMember(id: UInt32(truncatingIfNeeded: id), name: name, displayName: f[2].string ?? name,
                                   from: UInt32(truncatingIfNeeded: from), triggerKind: f[4].string ?? "", trigger: f[5].string ?? "")
        }
    }

    /// The typed read of `evolution`.
    static func readEvolution(_ r: MessageReader) throws(BusError) -> [EvolutionMember] {
        var out: [EvolutionMember] = []
        try r.readStructs(evolutionRow) { () throws(BusError) in
            out.append(EvolutionMember(id: try r.readUInt32(), name: try r.readString(), displayName: try r.readString(),
                                       from: try r.readUInt32(), triggerKind: try r.readString(), trigger: try r.readString()))
        }
        return out
    }

    /// A `Detail` as a generic client holds it, with each `evolution` row a dictionary named
    /// by ``evolutionFields``: what `pokectl show --json` prints.
    public static func namingEvolutionFields(_ detail: BusValue) -> BusValue {
        guard case .dict(let pairs) = detail.unwrapped else { return detail }
        return .dict(pairs.map { p in
            guard p.key.string == "evolution", let rows = p.value.array else { return p }
            return (p.key, .array(rows.map { row in
                guard let f = row.fields, f.count == evolutionFields.count else { return row }
                return .dict(zip(evolutionFields, f).map { (.string($0), $1.unwrapped) })
            }))
        })
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
}
