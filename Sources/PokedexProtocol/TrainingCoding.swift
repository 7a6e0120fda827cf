import PokedexModels

/// The card's breeding and training keys of `Detail`'s and `LocalizedDetail`'s `a{sv}`
/// (``TrainingFacts``): written beside the others, read back by the generic decode and the
/// typed read alike. A number the service does not know is left out, not written as 0.
extension Coding {
    static func writeTraining(_ w: MessageWriter, _ t: TrainingFacts, localized: Bool) throws(BusError) {
        try w.entry("game", "s") { () throws(BusError) in try w.append(t.game) }
        try w.entry("hidden_ability", "s") { () throws(BusError) in try w.append(t.hiddenAbility) }
        try w.entry("egg_groups", "as") { () throws(BusError) in try w.append(strings: t.eggGroups) }
        if let v = t.genderRate { try w.entry("gender_rate", "i") { () throws(BusError) in try w.append(Int32(v)) } }
        if let v = t.eggCycles { try w.entry("egg_cycles", "u") { () throws(BusError) in try w.append(UInt32(v)) } }
        if let v = t.captureRate { try w.entry("capture_rate", "u") { () throws(BusError) in try w.append(UInt32(v)) } }
        if let v = t.baseFriendship { try w.entry("base_friendship", "u") { () throws(BusError) in try w.append(UInt32(v)) } }
        try w.entry("growth_rate", "s") { () throws(BusError) in try w.append(t.growthRate) }
        try w.entry("ev_yield", "a{su}") { () throws(BusError) in try writePairs(w, t.evYield.map { ($0.name, $0.value) }) }
        // Most Pokémon hold nothing PokeAPI lists: the card's round trip carries no empty keys.
        if !t.heldItems.isEmpty {
            try w.entry("held_items", "a{su}") { () throws(BusError) in try writePairs(w, t.heldItems.map { ($0.item, UInt32($0.rarity)) }) }
            try w.entry("held_items_version", "s") { () throws(BusError) in try w.append(t.heldItemsVersion) }
        }
        guard localized else { return }
        try w.entry("game_name", "s") { () throws(BusError) in try w.append(t.gameName) }
        try w.entry("egg_group_names", "as") { () throws(BusError) in try w.append(strings: t.eggGroupNames) }
        try w.entry("growth_rate_name", "s") { () throws(BusError) in try w.append(t.growthRateName) }
        guard !t.heldItems.isEmpty else { return }
        try w.entry("held_item_names", "as") { () throws(BusError) in try w.append(strings: t.heldItemNames) }
        try w.entry("held_items_version_name", "s") { () throws(BusError) in try w.append(t.heldItemsVersionName) }
    }

    private static func writePairs(_ w: MessageWriter, _ pairs: [(String, UInt32)]) throws(BusError) {
        try w.container("a", "{su}") { () throws(BusError) in
            for (k, v) in pairs {
                try w.container("e", "su") { () throws(BusError) in
                    try w.append(k)
                    try w.append(v)
                }
            }
        }
    }

    /// The facts in a decoded `a{sv}`; nil from a service that sends none (no `game` key).
    static func decodeTraining(_ d: [String: BusValue]) -> TrainingFacts? {
        guard let game = d["game"]?.string else { return nil }
        var t = TrainingFacts()
        t.game = game
        t.hiddenAbility = d["hidden_ability"]?.string ?? ""
        t.eggGroups = d["egg_groups"]?.array?.compactMap(\.string) ?? []
        t.genderRate = d["gender_rate"]?.int.flatMap { Int8(exactly: $0) }
        t.eggCycles = d["egg_cycles"]?.uint.flatMap { UInt8(exactly: $0) }
        t.captureRate = d["capture_rate"]?.uint.flatMap { UInt8(exactly: $0) }
        t.baseFriendship = d["base_friendship"]?.uint.flatMap { UInt8(exactly: $0) }
        t.growthRate = d["growth_rate"]?.string ?? ""
        t.evYield = pairs(d["ev_yield"]).map { .init(name: $0.0, value: $0.1) }
        t.heldItems = pairs(d["held_items"]).map { .init(item: $0.0, rarity: UInt8(clamping: $0.1)) }
        t.heldItemsVersion = d["held_items_version"]?.string ?? ""
        t.gameName = d["game_name"]?.string ?? ""
        t.eggGroupNames = d["egg_group_names"]?.array?.compactMap(\.string) ?? []
        t.growthRateName = d["growth_rate_name"]?.string ?? ""
        t.heldItemNames = d["held_item_names"]?.array?.compactMap(\.string) ?? []
        t.heldItemsVersionName = d["held_items_version_name"]?.string ?? ""
        return t
    }

    private static func pairs(_ v: BusValue?) -> [(String, UInt32)] {
        guard case .dict(let pairs)? = v?.unwrapped else { return [] }
        return pairs.compactMap { p in p.key.string.flatMap { k in p.value.uint.map { (k, UInt32(clamping: $0)) } } }
    }

    /// Reads one training key off the message into `t`; false for a key that is not one.
    static func readTraining(_ r: MessageReader, _ key: String, _ type: String, _ t: inout TrainingFacts?) throws(BusError) -> Bool {
        var f = t ?? TrainingFacts()
        switch (key, type) {
        case ("game", "s"): f.game = try r.readString()
        case ("hidden_ability", "s"): f.hiddenAbility = try r.readString()
        case ("egg_groups", "as"): f.eggGroups = try r.readStringArray()
        case ("gender_rate", "i"): f.genderRate = Int8(exactly: try r.readInt32())
        case ("egg_cycles", "u"): f.eggCycles = UInt8(exactly: try r.readUInt32())
        case ("capture_rate", "u"): f.captureRate = UInt8(exactly: try r.readUInt32())
        case ("base_friendship", "u"): f.baseFriendship = UInt8(exactly: try r.readUInt32())
        case ("growth_rate", "s"): f.growthRate = try r.readString()
        case ("ev_yield", "a{su}"):
            f.evYield = []
            try r.readPairs("u") { (k) throws(BusError) in f.evYield.append(.init(name: k, value: try r.readUInt32())) }
        case ("held_items", "a{su}"):
            f.heldItems = []
            try r.readPairs("u") { (k) throws(BusError) in f.heldItems.append(.init(item: k, rarity: UInt8(clamping: try r.readUInt32()))) }
        case ("held_items_version", "s"): f.heldItemsVersion = try r.readString()
        case ("game_name", "s"): f.gameName = try r.readString()
        case ("egg_group_names", "as"): f.eggGroupNames = try r.readStringArray()
        case ("growth_rate_name", "s"): f.growthRateName = try r.readString()
        case ("held_item_names", "as"): f.heldItemNames = try r.readStringArray()
        case ("held_items_version_name", "s"): f.heldItemsVersionName = try r.readString()
        default: return false
        }
        t = f
        return true
    }
}
