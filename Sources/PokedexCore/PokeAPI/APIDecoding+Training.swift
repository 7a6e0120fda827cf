/// What a card's breeding and training lines read from the `pokemon` and `pokemon-species`
/// bodies: which ability is hidden, the items held in the wild, the egg groups, gender, egg
/// cycles, catch rate, friendship and growth rate. Each is checked as every field is: a name
/// must be PokeAPI's, a number in the games' range, a list capped.
extension APIDecoding {
    /// The most held items kept (by version): Pokémon hold at most 3 in a game, over 40 versions.
    static let maxHeldItems = 128
    /// The most egg groups a species is in (the games: 2).
    static let maxEggGroups = 4

    /// Whether a record read back from the disk has the shape decoding gives its moves, abilities
    /// and held items: names PokeAPI's, levels and lists within their caps.
    static func isWellFormedTraining(_ p: PokemonRecord) -> Bool {
        if let hidden = p.hiddenAbilities, hidden.count != p.abilities.count { return false }
        if let effort = p.effortYield, effort.count > maxStats || !effort.allSatisfy({ APIName.isValid($0.name) && $0.value <= 3 }) {
            return false
        }
        if let held = p.heldItems,
           held.count > maxHeldItems || !held.allSatisfy({ APIName.isValid($0.item) && APIName.isValid($0.version) }) {
            return false
        }
        guard let learnset = p.learnset else { return true }
        return learnset.count <= maxLearnsetEntries && learnset.versionGroups.allSatisfy { name, g in
            APIName.isValid(name) && g.levelUp.allSatisfy { UInt32($0.level) <= maxLevel }
        }
    }

    struct AbilitySlot { var slot: Int; var name: String; var hidden: Bool }
    struct HeldItemRead { var item: String; var versions: [(version: String, rarity: Int)] }

    /// The held items by version, the names checked, a rarity outside 1…100 dropped.
    static func heldItems(_ read: [HeldItemRead], of name: String, _ dropped: Dropped) -> [PokemonRecord.HeldItem] {
        var out: [PokemonRecord.HeldItem] = []
        for h in read {
            guard let item = checked(h.item, "a held item of \(name)", dropped) else { continue }
            for v in h.versions {
                guard let version = checked(v.version, "a version of \(name)'s \(item)", dropped) else { continue }
                guard (1...100).contains(v.rarity) else {
                    dropped("dropped \(item) held by \(name) in \(version): rarity \(v.rarity) is not a percentage")
                    continue
                }
                out.append(.init(item: item, version: version, rarity: UInt8(v.rarity)))
            }
        }
        return capped(out, maxHeldItems, "held items of \(name)", dropped)
    }

    /// A species' breeding and training fields as read, in `speciesKeys`' order from `egg_groups`.
    struct BreedingRead {
        var eggGroups: [NamedResource] = []
        var genderRate: Int?, hatchCounter: Int?, captureRate: Int?, baseHappiness: Int?
        var growthRate: String?

        mutating func read(_ field: Int, _ r: inout JSONReader) throws(JSONReader.Failure) {
            if try r.null() { return }
            switch field {
            case 0: eggGroups = try r.namedResources()
            case 1: genderRate = try r.integer()
            case 2: hatchCounter = try r.integer()
            case 3: captureRate = try r.integer()
            case 4: baseHappiness = try r.integer()
            default: growthRate = try r.namedResource().name
            }
        }

        /// The record's part: a number outside the games' range is dropped, not kept.
        func record(of name: String, _ dropped: Dropped) -> SpeciesRecord.Breeding {
            func ranged(_ v: Int?, _ range: ClosedRange<Int>, _ what: String) -> Int? {
                guard let v else { return nil }
                guard range.contains(v) else { dropped("dropped the \(what) of \(name): \(v) is outside \(range)"); return nil }
                return v
            }
            let groups = eggGroups.compactMap { checked($0.name, "an egg group of \(name)", dropped) }
            return SpeciesRecord.Breeding(
                eggGroups: capped(groups, maxEggGroups, "egg groups of \(name)", dropped),
                genderRate: ranged(genderRate, -1...8, "gender rate").map { Int8($0) },
                hatchCounter: ranged(hatchCounter, 0...255, "egg cycles").map { UInt8($0) },
                captureRate: ranged(captureRate, 0...255, "catch rate").map { UInt8($0) },
                baseHappiness: ranged(baseHappiness, 0...255, "base friendship").map { UInt8($0) },
                growthRate: growthRate.flatMap { checked($0, "the growth rate of \(name)", dropped) })
        }
    }
}

extension JSONReader {
    private static let abilitySlotKeys = Keys("slot", "ability", "is_hidden")
    private static let heldItemKeys = Keys("item", "version_details")
    private static let versionDetailKeys = Keys("rarity", "version")

    /// `[{"ability": {…}, "is_hidden": true, "slot": 3}]`.
    mutating func abilitySlots() throws(Failure) -> [APIDecoding.AbilitySlot] {
        var out: [APIDecoding.AbilitySlot] = []
        try array { (r) throws(Failure) in
            var slot: Int?, ability: APIDecoding.NamedResource?, hidden = false
            try r.object(Self.abilitySlotKeys) { (k, r) throws(Failure) in
                switch k {
                case 0: slot = try r.integer()
                case 1: ability = try r.namedResource()
                default: hidden = try r.null() ? false : r.bool()
                }
            }
            guard let slot else { throw r.missing("slot") }
            guard let ability else { throw r.missing("ability") }
            out.append(.init(slot: slot, name: ability.name, hidden: hidden))
        }
        return out
    }

    /// `[{"item": {…}, "version_details": [{"rarity": 50, "version": {…}}]}]`.
    mutating func heldItems() throws(Failure) -> [APIDecoding.HeldItemRead] {
        var out: [APIDecoding.HeldItemRead] = []
        try array { (r) throws(Failure) in
            var item: APIDecoding.NamedResource?, versions: [(version: String, rarity: Int)] = []
            try r.object(Self.heldItemKeys) { (k, r) throws(Failure) in
                if k == 0 { item = try r.namedResource(); return }
                if try r.null() { return }
                try r.array { (r) throws(Failure) in
                    var rarity: Int?, version: APIDecoding.NamedResource?
                    try r.object(Self.versionDetailKeys) { (k, r) throws(Failure) in
                        if k == 0 { rarity = try r.integer() } else { version = try r.namedResource() }
                    }
                    guard let rarity, let version else { throw r.missing(rarity == nil ? "rarity" : "version") }
                    versions.append((version.name, rarity))
                }
            }
            guard let item else { throw r.missing("item") }
            out.append(.init(item: item.name, versions: versions))
        }
        return out
    }
}
