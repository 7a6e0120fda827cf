import CSystemd
import PokedexModels

/// `Detail`'s and `LocalizedDetail`'s `a{sv}`: written by the service, decoded from a
/// ``BusValue`` by a generic client (pokectl, which also passes the reply on as JSON), and
/// read typed, value by value, by ``PokedexClient``: the warm card's round trip.
extension Coding {
    /// `Detail`'s `a{sv}`.
    public static let detail = Codec<PokemonDetail>(
        "a{sv}",
        write: { w, d throws(BusError) in
            try w.container("a", "{sv}") { () throws(BusError) in
                try w.entry("id", "u") { () throws(BusError) in try w.append(d.id) }
                try w.entry("name", "s") { () throws(BusError) in try w.append(d.name) }
                try w.entry("number", "u") { () throws(BusError) in try w.append(d.shownNumber) }
                try w.entry("height", "u") { () throws(BusError) in try w.append(d.height) }
                try w.entry("weight", "u") { () throws(BusError) in try w.append(d.weight) }
                try w.entry("types", "as") { () throws(BusError) in try w.append(strings: d.types) }
                try w.entry("abilities", "as") { () throws(BusError) in try w.append(strings: d.abilities) }
                try w.entry("stats", "a{su}") { () throws(BusError) in
                    try w.container("a", "{su}") { () throws(BusError) in
                        for s in d.stats {
                            try w.container("e", "su") { () throws(BusError) in
                                try w.append(s.name)
                                try w.append(s.value)
                            }
                        }
                    }
                }
                try w.entry("sprite_path", "s") { () throws(BusError) in try w.append(d.spritePath) }
                try w.entry("favorite", "b") { () throws(BusError) in try w.append(d.favorite) }
                try w.entry("genus", "s") { () throws(BusError) in try w.append(d.genus) }
                try w.entry("flavor_text", "s") { () throws(BusError) in try w.append(d.flavorText) }
                try w.entry("color", "s") { () throws(BusError) in try w.append(d.color) }
                try w.entry("animated_sprite_path", "s") { () throws(BusError) in try w.append(d.animatedSpritePath) }
                try w.entry("cry_path", "s") { () throws(BusError) in try w.append(d.cryPath) }
                try w.entry("evolution", evolutionSignature) { () throws(BusError) in try writeEvolution(w, d.evolution) }
                try w.entry("matchups", "a{sd}") { () throws(BusError) in try writeMatchups(w, d.matchups) }
                if let abilities = d.abilityMatchups {
                    try w.entry("ability_matchups", "a{sa{sd}}") { () throws(BusError) in try writeAbilityMatchups(w, abilities) }
                }
                if !d.displayName.isEmpty { try w.entry("display_name", "s") { () throws(BusError) in try w.append(d.displayName) } }
                if let t = d.training { try writeTraining(w, t, localized: !d.language.isEmpty) }
                guard !d.language.isEmpty else { return }
                // `LocalizedDetail`'s: the language, and the names of types, abilities and stats in it.
                try w.entry("language", "s") { () throws(BusError) in try w.append(d.language) }
                try w.entry("type_names", "as") { () throws(BusError) in try w.append(strings: d.typeNames) }
                try w.entry("ability_names", "as") { () throws(BusError) in try w.append(strings: d.abilityNames) }
                try w.entry("ability_effects", "as") { () throws(BusError) in try w.append(strings: d.abilityEffects) }
                try w.entry("stat_names", "a{ss}") { () throws(BusError) in
                    try w.container("a", "{ss}") { () throws(BusError) in
                        for (stat, name) in zip(d.stats, d.statNames) {
                            try w.container("e", "ss") { () throws(BusError) in
                                try w.append(stat.name)
                                try w.append(name)
                            }
                        }
                    }
                }
            }
        },
        decode: { v throws(BusError) in
            guard let d = v.stringDict, let id = d["id"]?.uint, let name = d["name"]?.string else { throw malformed("detail") }
            var stats: [PokemonRecord.Stat] = []
            if case .dict(let pairs)? = d["stats"] {
                for p in pairs { if let k = p.key.string, let u = p.value.uint { stats.append(.init(name: k, value: UInt32(u))) } }
            }
            var detail = PokemonDetail(
                id: UInt32(id), name: name, height: UInt32(d["height"]?.uint ?? 0), weight: UInt32(d["weight"]?.uint ?? 0),
                types: d["types"]?.array?.compactMap(\.string) ?? [], abilities: d["abilities"]?.array?.compactMap(\.string) ?? [],
                stats: stats, spritePath: d["sprite_path"]?.string ?? "", favorite: d["favorite"]?.bool ?? false,
                genus: d["genus"]?.string ?? "", flavorText: d["flavor_text"]?.string ?? "",
                color: d["color"]?.string ?? "", animatedSpritePath: d["animated_sprite_path"]?.string ?? "")
            detail.displayName = d["display_name"]?.string ?? ""
            detail.number = UInt32(truncatingIfNeeded: d["number"]?.uint ?? 0)
            detail.cryPath = d["cry_path"]?.string ?? ""
            detail.evolution = readEvolution(d["evolution"])
            detail.language = d["language"]?.string ?? ""
            detail.matchups = readMatchups(d["matchups"], language: detail.language.isEmpty ? "en" : detail.language)
            detail.abilityMatchups = readAbilityMatchups(d["ability_matchups"], language: detail.language.isEmpty ? "en" : detail.language)
            detail.typeNames = d["type_names"]?.array?.compactMap(\.string) ?? []
            detail.abilityNames = d["ability_names"]?.array?.compactMap(\.string) ?? []
            detail.abilityEffects = d["ability_effects"]?.array?.compactMap(\.string) ?? []
            detail.training = decodeTraining(d)
            var statNames: [String: String] = [:]
            if case .dict(let pairs)? = d["stat_names"] {
                for p in pairs { if let k = p.key.string, let v = p.value.string { statNames[k] = v } }
            }
            detail.statNames = statNames.isEmpty ? [] : stats.map { statNames[$0.name] ?? "" }
            return detail
        },
        read: { r throws(BusError) in try readDetail(r) })

    /// The typed read of ``detail``: the same keys and fallbacks as its `decode`, which
    /// `DetailCodingTests` holds it to; a key it does not know, or of another type, is skipped.
    static func readDetail(_ r: MessageReader) throws(BusError) -> PokemonDetail {
        var d = PokemonDetail(id: 0, name: "", height: 0, weight: 0, types: [], abilities: [], stats: [], spritePath: "",
                              favorite: false, genus: "", flavorText: "", color: "", animatedSpritePath: "")
        var hasID = false, hasName = false
        var matchups: [(String, Double)] = []
        var abilityMatchups: [(String, [(String, Double)])]?
        var statNames: [String: String] = [:]
        try r.readEntries { (key, type) throws(BusError) -> Bool in
            switch (key, type) {
            case ("id", "u"): d.id = try r.readUInt32(); hasID = true
            case ("name", "s"): d.name = try r.readString(); hasName = true
            case ("number", "u"): d.number = try r.readUInt32()
            case ("height", "u"): d.height = try r.readUInt32()
            case ("weight", "u"): d.weight = try r.readUInt32()
            case ("types", "as"): d.types = try r.readStringArray()
            case ("abilities", "as"): d.abilities = try r.readStringArray()
            case ("stats", "a{su}"):
                try r.readPairs("u") { (name) throws(BusError) in d.stats.append(.init(name: name, value: try r.readUInt32())) }
            case ("sprite_path", "s"): d.spritePath = try r.readString()
            case ("favorite", "b"): d.favorite = try r.readBool()
            case ("genus", "s"): d.genus = try r.readString()
            case ("flavor_text", "s"): d.flavorText = try r.readString()
            case ("color", "s"): d.color = try r.readString()
            case ("animated_sprite_path", "s"): d.animatedSpritePath = try r.readString()
            case ("cry_path", "s"): d.cryPath = try r.readString()
            case ("evolution", evolutionSignature): d.evolution = try readEvolution(r)
            case ("matchups", "a{sd}"): try r.readPairs("d") { (type) throws(BusError) in matchups.append((type, try r.readDouble())) }
            case ("ability_matchups", "a{sa{sd}}"):
                var all: [(String, [(String, Double)])] = []
                try r.readPairs("a{sd}") { (ability) throws(BusError) in
                    var pairs: [(String, Double)] = []
                    try r.readPairs("d") { (type) throws(BusError) in pairs.append((type, try r.readDouble())) }
                    all.append((ability, pairs))
                }
                abilityMatchups = all
            case ("display_name", "s"): d.displayName = try r.readString()
            case ("language", "s"): d.language = try r.readString()
            case ("type_names", "as"): d.typeNames = try r.readStringArray()
            case ("ability_names", "as"): d.abilityNames = try r.readStringArray()
            case ("ability_effects", "as"): d.abilityEffects = try r.readStringArray()
            case ("stat_names", "a{ss}"): try r.readPairs("s") { (stat) throws(BusError) in statNames[stat] = try r.readString() }
            default: return try readTraining(r, key, type, &d.training)
            }
            return true
        }
        guard hasID, hasName else { throw malformed("detail") }
        d.matchups = namedMatchups(matchups, language: d.language.isEmpty ? "en" : d.language)
        d.abilityMatchups = abilityMatchups.map { all in
            all.map { AbilityMatchup(ability: $0.0, matchups: namedMatchups($0.1, language: d.language.isEmpty ? "en" : d.language)) }
        }
        d.statNames = statNames.isEmpty ? [] : d.stats.map { statNames[$0.name] ?? "" }
        return d
    }
}
