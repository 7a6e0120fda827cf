/// `evolution-chain/{id}`: a family as a tree, each member with every way it evolves: each
/// form's (Galarian Slowpoke's Galarica Cuff), each region's (Pikachu into Alolan Raichu in
/// Alola) and each game's (Magnezone's magnetic field). The record keeps them all; which a card
/// shows is the card's Pokémon's (`FormFamily`).
extension APIDecoding {
    /// The most members a family keeps (Eevee's has 9): each is a name a card shows.
    public static let maxFamilyMembers = 32

    private static let chainKeys = JSONReader.Keys("id", "chain")
    private static let linkKeys = JSONReader.Keys("species", "evolution_details", "evolves_to")
    private static let detailKeys = JSONReader.Keys(
        "trigger", "min_level", "item", "held_item", "known_move", "known_move_type", "used_move", "location",
        "min_happiness", "min_affection", "min_beauty", "min_move_count", "min_steps", "min_damage_taken", "time_of_day",
        "gender", "relative_physical_stats", "party_species", "party_type", "trade_species", "needs_overworld_rain",
        "turn_upside_down", "needs_multiplayer", "near_special_rock", "region", "version_group", "base_form", "evolved_form",
        "is_default")

    /// One link as read: PokeAPI lists `evolves_to` before `species` (its keys in order), so the
    /// tree is read whole, then laid out parent first.
    final class Link {
        var species: NamedResource?
        var ways: [EvolutionWay] = []
        var children: [Link] = []
    }

    /// Decodes `GET /evolution-chain/{id}`.
    public static func evolutionChain(_ body: [UInt8], dropped: Dropped = { _ in }) throws -> EvolutionChainRecord {
        var id: UInt32?
        var root: Link?
        var read = 0
        try reading(body) { (r) throws(JSONReader.Failure) in
            try r.object(chainKeys) { (k, r) throws(JSONReader.Failure) in
                if k == 0 { id = try r.uint32() } else { root = try link(&r, count: &read, dropped) }
            }
            if id == nil { throw r.missing("id") }
        }
        guard let id else { throw PokedexError.unavailable("not PokeAPI's evolution-chain") }
        var members: [EvolutionStep] = []
        if let root { lay(root, from: 0, into: &members, dropped) }
        if read > maxFamilyMembers { dropped("dropped members of evolution chain \(id): \(read), over the cap of \(maxFamilyMembers)") }
        return EvolutionChainRecord(id: id, members: members)
    }

    /// One link and what evolves from it (the reader's depth limit bounds the nesting); past
    /// ``maxFamilyMembers`` links are checked and not kept.
    private static func link(_ r: inout JSONReader, count: inout Int, _ dropped: Dropped) throws(JSONReader.Failure) -> Link? {
        count += 1
        guard count <= maxFamilyMembers else {
            try r.skip()
            return nil
        }
        let l = Link()
        try r.object(linkKeys) { (k, r) throws(JSONReader.Failure) in
            switch k {
            case 0: l.species = try r.namedResource()
            case 1:
                try r.array { (r) throws(JSONReader.Failure) in
                    let way = try detail(&r, dropped)
                    // Kept once each, and as many as a step may hold.
                    if !l.ways.contains(way), l.ways.count < EvolutionWay.maxPerStep { l.ways.append(way) }
                }
            default:
                try r.array { (r) throws(JSONReader.Failure) in
                    if let child = try link(&r, count: &count, dropped) { l.children.append(child) }
                }
            }
        }
        return l
    }

    /// The tree as members, each after the one it evolves from; a link whose species is not
    /// PokeAPI's shape is dropped with what evolves from it.
    private static func lay(_ l: Link, from: UInt32, into members: inout [EvolutionStep], _ dropped: Dropped) {
        guard let species = l.species, let sid = species.url.flatMap(trailingID), sid > 0,
              let name = checked(species.name, "a member of an evolution chain", dropped) else { return }
        members.append(EvolutionStep(speciesID: sid, name: name, from: from, ways: from == 0 ? [] : l.ways))
        for c in l.children { lay(c, from: sid, into: &members, dropped) }
    }

    private static func detail(_ r: inout JSONReader, _ dropped: Dropped) throws(JSONReader.Failure) -> EvolutionWay {
        var d = EvolutionWay(condition: EvolutionCondition(trigger: "other"))
        var trigger: String?
        func name(_ r: inout JSONReader) throws(JSONReader.Failure) -> String? {
            guard !(try r.null()) else { return nil }
            return checked(try r.namedResource().name, "a name in an evolution condition", dropped)
        }
        func number(_ r: inout JSONReader) throws(JSONReader.Failure) -> UInt32? { try r.null() ? nil : r.uint32() }
        // A Pokémon by its name and its URL's id; dropped where either is not PokeAPI's shape.
        func pokemon(_ r: inout JSONReader) throws(JSONReader.Failure) -> PokemonRef? {
            guard !(try r.null()) else { return nil }
            let resource = try r.namedResource()
            guard let id = resource.url.flatMap(trailingID), id > 0,
                  let name = checked(resource.name, "a form in an evolution condition", dropped) else { return nil }
            return PokemonRef(id: id, name: name)
        }
        try r.object(detailKeys) { (k, r) throws(JSONReader.Failure) in
            var c = d.condition
            switch k {
            case 0: trigger = try name(&r)
            case 1: c.minLevel = try number(&r)
            case 2: c.item = try name(&r)
            case 3: c.heldItem = try name(&r)
            case 4: c.knownMove = try name(&r)
            case 5: c.knownMoveType = try name(&r)
            case 6: c.usedMove = try name(&r)
            case 7: c.location = try name(&r)
            case 8: c.minHappiness = try number(&r)
            case 9: c.minAffection = try number(&r)
            case 10: c.minBeauty = try number(&r)
            case 11: c.minMoveCount = try number(&r)
            case 12: c.minSteps = try number(&r)
            case 13: c.minDamageTaken = try number(&r)
            case 14:
                let t = try r.optionalString() ?? ""
                c.timeOfDay = t.isEmpty ? nil : checked(t, "a time of day", dropped)
            case 15: c.gender = try number(&r)
            case 16:
                let v = try r.null() ? nil : r.integer()
                c.relativePhysicalStats = v.map { max(-1, min(1, $0)) }
            case 17: c.partySpecies = try name(&r)
            case 18: c.partyType = try name(&r)
            case 19: c.tradeSpecies = try name(&r)
            case 20: c.needsRain = try r.null() ? false : r.bool()
            case 21: c.upsideDown = try r.null() ? false : r.bool()
            case 22: c.needsMultiplayer = try r.null() ? false : r.bool()
            case 23: c.nearSpecialRock = try r.null() ? false : r.bool()
            case 24: d.region = try name(&r)
            case 25: d.versionGroup = try r.null() ? 0 : (r.namedResource().url.flatMap(trailingID) ?? 0)
            case 26: d.baseForm = try pokemon(&r)
            case 27: d.evolvedForm = try pokemon(&r)
            default: d.isDefault = try r.null() ? true : r.bool()
            }
            d.condition = c
        }
        d.condition.trigger = trigger ?? "other"
        return d
    }
}
