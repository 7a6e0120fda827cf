/// The `move` and `ability` bodies a card's moves and abilities name: what the records keep is
/// built, the rest (who learns it, past values, contest data, …) checked and stepped over.
extension APIDecoding {
    private static let moveKeys = JSONReader.Keys("id", "name", "names", "type", "damage_class", "power", "accuracy", "pp",
                                                  "past_values")
    private static let pastKeys = JSONReader.Keys("version_group", "type", "power", "accuracy", "pp")
    /// The most past values kept: moves changed at most a few times.
    static let maxPastValues = 16
    private static let abilityKeys = JSONReader.Keys("name", "names", "effect_entries", "flavor_text_entries")
    /// The games' highest values, with room: Explosion's 250 power, 100 % accuracy, 40 PP
    /// (64 with PP Ups). A body over them is not the games'.
    static let maxPower: UInt32 = 1000, maxAccuracy: UInt32 = 100, maxPP: UInt32 = 64
    /// Over any real description (the longest are about 200 bytes).
    public static let maxDescriptionBytes = 1024

    /// Decodes `GET /move/{id}`.
    public static func move(_ body: [UInt8], dropped: Dropped = { _ in }) throws -> MoveRecord {
        var id: UInt32?, ownName: String?, names: [LanguageText]?, type: NamedResource?, damageClass: NamedResource?
        var power: UInt32?, accuracy: UInt32?, pp: UInt32?
        var past: [(group: String, type: String?, power: UInt32?, accuracy: UInt32?, pp: UInt32?)] = []
        try reading(body) { (r) throws(JSONReader.Failure) in
            try r.object(moveKeys) { (k, r) throws(JSONReader.Failure) in
                switch k {
                case 0: id = try r.uint32()
                case 1: ownName = try r.string()
                case 2: names = try r.null() ? nil : r.languageTexts("name", only: shown)
                case 3: type = try r.null() ? nil : r.namedResource()
                case 4: damageClass = try r.null() ? nil : r.namedResource()
                case 5: power = try r.null() ? nil : r.uint32()
                case 6: accuracy = try r.null() ? nil : r.uint32()
                case 7: pp = try r.null() ? nil : r.uint32()
                default:
                    if try r.null() { return }
                    try r.array { (r) throws(JSONReader.Failure) in
                        var p: (group: String?, type: String?, power: UInt32?, accuracy: UInt32?, pp: UInt32?)
                        try r.object(pastKeys) { (k, r) throws(JSONReader.Failure) in
                            switch k {
                            case 0: p.group = try r.namedResource().name
                            case 1: p.type = try r.null() ? nil : r.namedResource().name
                            case 2: p.power = try r.null() ? nil : r.uint32()
                            case 3: p.accuracy = try r.null() ? nil : r.uint32()
                            default: p.pp = try r.null() ? nil : r.uint32()
                            }
                        }
                        guard let group = p.group else { throw r.missing("version_group") }
                        past.append((group, p.type, p.power, p.accuracy, p.pp))
                    }
                }
            }
            if id == nil { throw r.missing("id") }
            if ownName == nil { throw r.missing("name") }
            if type == nil { throw r.missing("type") }
        }
        guard let id, let ownName, let type else { throw PokedexError.unavailable("not PokeAPI's move") }
        let name = try self.ownName(ownName, "move \(id)")
        guard let typeName = checked(type.name, "the type of \(name)", dropped) else {
            throw PokedexError.unavailable("move \(name) has no type PokeAPI names")
        }
        func within(_ value: UInt32?, _ cap: UInt32, _ what: String) -> UInt32? {
            guard let value, value > cap else { return value }
            dropped("dropped the \(what) of \(name): \(value), over \(cap)")
            return nil
        }
        var kept: [MoveRecord.PastValue] = []
        for p in past {
            guard let group = checked(p.group, "a past value's game of \(name)", dropped) else { continue }
            kept.append(.init(versionGroup: group, type: p.type.flatMap { checked($0, "a past type of \(name)", dropped) },
                              power: within(p.power, maxPower, "past power").map(UInt16.init),
                              accuracy: within(p.accuracy, maxAccuracy, "past accuracy").map(UInt8.init),
                              pp: within(p.pp, maxPP, "past PP").map(UInt8.init)))
        }
        var move = MoveRecord(
            id: id, name: name,
            names: byLanguage(names ?? [], \.text, \.language, maxLocalizedNameBytes, "name of \(name)", dropped),
            type: typeName,
            damageClass: damageClass.flatMap { checked($0.name, "the category of \(name)", dropped) } ?? "",
            power: within(power, maxPower, "power").map(UInt16.init),
            accuracy: within(accuracy, maxAccuracy, "accuracy").map(UInt8.init),
            pp: within(pp, maxPP, "PP").map(UInt8.init))
        move.pastValues = capped(kept, maxPastValues, "past values of \(name)", dropped)
        return move
    }

    /// Decodes `GET /ability/{id}`: its names, and its effect in each language (PokeAPI's short
    /// effect in it, else the games' newest description in it: PokeAPI has no Japanese short
    /// effect).
    public static func ability(_ body: [UInt8], dropped: Dropped = { _ in }) throws -> NamesRecord {
        var ownName: String?, names: [LanguageText]?, effects: NewestTexts?, flavors: NewestTexts?
        try reading(body) { (r) throws(JSONReader.Failure) in
            try r.object(abilityKeys) { (k, r) throws(JSONReader.Failure) in
                switch k {
                case 0: ownName = try r.string()
                case 1: names = try r.null() ? nil : r.languageTexts("name", only: shown)
                case 2: effects = try r.null() ? nil : r.newestByLanguage("short_effect", only: shown, cap: maxDescriptionBytes)
                default: flavors = try r.null() ? nil : r.newestByLanguage("flavor_text", only: shown, cap: maxDescriptionBytes)
                }
            }
            if ownName == nil { throw r.missing("name") }
        }
        guard let ownName else { throw PokedexError.unavailable("not PokeAPI's ability") }
        let name = try self.ownName(ownName, "an ability")
        let short = (effects ?? NewestTexts()).kept("effect of \(name)", cap: maxDescriptionBytes, dropped)
        let described = (flavors ?? NewestTexts()).kept("description of \(name)", cap: maxDescriptionBytes, dropped)
        return NamesRecord(
            name: name,
            names: byLanguage(names ?? [], \.text, \.language, maxLocalizedNameBytes, "name of \(name)", dropped),
            effects: described.merging(short) { $1 }.mapValues(cleanFlavorText))
    }
}
