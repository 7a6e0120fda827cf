/// A family member's evolution condition in words, in the reader's language: "Level 16",
/// "Use a Fire Stone", "Trade holding Metal Coat", "High friendship, daytime".
///
/// The names inside (items, moves, places, species, types) come from `names`, so the caller
/// decides how it knows them; each of PokeAPI's triggers has its words, and one it adds later
/// reads "Special condition".
public enum EvolutionWords {
    /// What a name inside a condition is.
    public enum Named: Sendable {
        case item, move, location, species, type
    }

    /// A member's conditions, each in words, joined by "or" (Urshifu: either tower).
    public static func describe(_ conditions: [EvolutionCondition], _ w: Words,
                                names: (Named, String) -> String = { PokemonNames.title($1) }) -> String {
        conditions.map { describe($0, w, names: names) }.joined(separator: w.tr(" or "))
    }

    public static func describe(_ c: EvolutionCondition, _ w: Words,
                                names: (Named, String) -> String = { PokemonNames.title($1) }) -> String {
        var head: String
        var parts: [String] = []
        var heldShown = false
        switch c.trigger {
        case "level-up":
            head = c.minLevel.map { w.trf("Level %s", String($0)) } ?? w.tr("Level up")
        case "use-item":
            head = c.item.map { item in
                let name = names(.item, item)
                // TRANSLATORS: "Use a Fire Stone"; "Use an %s" is the same before a vowel.
                return "aeiouAEIOU".contains(name.first ?? "x") ? w.trf("Use an %s", name) : w.trf("Use a %s", name)
            } ?? w.tr("Use an item")
        case "trade":
            if let held = c.heldItem {
                head = w.trf("Trade holding %s", names(.item, held))
                heldShown = true
            } else if let other = c.tradeSpecies {
                head = w.trf("Trade for %s", names(.species, other))
            } else {
                head = w.tr("Trade")
            }
        case "shed":
            head = w.tr("Appears on evolving, with an empty party slot and a spare Poké Ball")
        case "spin":
            head = w.tr("Spin around holding a Sweet")
        case "tower-of-darkness":
            head = w.tr("Train in the Tower of Darkness")
        case "tower-of-waters":
            head = w.tr("Train in the Tower of Waters")
        case "three-critical-hits":
            head = w.tr("Land three critical hits in one battle")
        case "three-defeated-bisharp":
            head = w.tr("Defeat three Bisharp that lead a pack")
        case "gimmighoul-coins":
            head = w.tr("Collect 999 Gimmighoul Coins")
        case "take-damage":
            head = c.minDamageTaken.map { w.trf("Take %s damage, then pass under a stone arch", String($0)) }
                ?? w.tr("Take damage, then pass under a stone arch")
        case "recoil-damage":
            head = c.minDamageTaken.map { w.trf("Lose %s HP to recoil", String($0)) } ?? w.tr("Lose HP to recoil")
        case "use-move", "agile-style-move", "strong-style-move":
            let move = c.usedMove.map { names(.move, $0) } ?? w.tr("a move")
            let style = c.trigger == "agile-style-move" ? w.trf("%s in agile style", move)
                : c.trigger == "strong-style-move" ? w.trf("%s in strong style", move) : move
            head = c.minMoveCount.map { w.trf("Use %s %s times", style, String($0)) } ?? w.trf("Use %s", style)
        default:
            head = c.minLevel.map { w.trf("Level %s", String($0)) } ?? w.tr("Special condition")
            if c.minLevel != nil { parts.append(w.tr("special condition")) }
        }
        if c.trigger == "level-up" || c.trigger == "use-item" || c.trigger == "trade" || c.trigger == "other" {
            parts += conditions(c, w, names, heldShown: heldShown)
        }
        // A level-up on conditions alone reads by them: "High friendship, daytime".
        if c.trigger == "level-up", c.minLevel == nil, let first = parts.first {
            head = capitalized(first)
            parts.removeFirst()
        }
        if c.byChance { parts.append(w.tr("by chance (personality)")) }
        return ([head] + parts).joined(separator: w.tr(", "))
    }

    /// The conditions beside the trigger, in the order they read.
    static func conditions(_ c: EvolutionCondition, _ w: Words, _ names: (Named, String) -> String, heldShown: Bool) -> [String] {
        var out: [String] = []
        if c.minHappiness != nil { out.append(w.tr("high friendship")) }
        if c.minAffection != nil { out.append(w.tr("high affection")) }
        if c.minBeauty != nil { out.append(w.tr("high beauty")) }
        switch c.timeOfDay {
        case "day"?: out.append(w.tr("daytime"))
        case "night"?: out.append(w.tr("at night"))
        case "dusk"?: out.append(w.tr("at dusk"))
        case "full-moon"?: out.append(w.tr("under a full moon"))
        default: break
        }
        if let held = c.heldItem, !heldShown { out.append(w.trf("holding %s", names(.item, held))) }
        if let move = c.knownMove { out.append(w.trf("knowing %s", names(.move, move))) }
        if let type = c.knownMoveType { out.append(w.trf("knowing a %s move", names(.type, type))) }
        if let place = c.location { out.append(w.trf("at %s", names(.location, place))) } else if c.nearSpecialRock {
            out.append(w.tr("near a special rock"))
        }
        switch c.gender {
        case 1?: out.append(w.tr("female"))
        case 2?: out.append(w.tr("male"))
        default: break
        }
        switch c.relativePhysicalStats {
        case .some(1): out.append(w.tr("Attack > Defense"))
        case .some(-1): out.append(w.tr("Attack < Defense"))
        case .some(0): out.append(w.tr("Attack = Defense"))
        default: break
        }
        if let species = c.partySpecies { out.append(w.trf("with %s in the party", names(.species, species))) }
        if let type = c.partyType { out.append(w.trf("with a %s-type Pokémon in the party", names(.type, type))) }
        if c.needsRain { out.append(w.tr("in the rain")) }
        if c.upsideDown { out.append(w.tr("console held upside down")) }
        if let steps = c.minSteps { out.append(w.trf("after %s steps with Let's Go", String(steps))) }
        if c.needsMultiplayer { out.append(w.tr("in a Union Circle")) }
        if c.trigger == "level-up" || c.trigger == "other", let move = c.usedMove {
            out.append(c.minMoveCount.map { w.trf("after using %s %s times", names(.move, move), String($0)) }
                ?? w.trf("after using %s", names(.move, move)))
        }
        return out
    }

    /// The first letter in capitals, for a condition that starts the line ("High friendship").
    static func capitalized(_ s: String) -> String {
        guard let first = s.first else { return s }
        return first.uppercased() + s.dropFirst()
    }
}
