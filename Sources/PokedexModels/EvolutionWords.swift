/// A family member's evolution in words, in the reader's language: "Level 16", "Use a Fire
/// Stone", "Trade holding King’s Rock", "High friendship, daytime", "Level 37, or use a Galarica
/// Cuff", "Use a Thunder Stone, in Alola", "Level 53, in Sun, Ultra Sun, Sword or Scarlet".
///
/// The names inside (items, moves, species, forms, types, games) come from `names`, so the
/// caller decides how it knows them (the games' own words, from PokeAPI); each of PokeAPI's
/// triggers has words here, one it adds later reads as PokeAPI names it (`.trigger`), else
/// "Special condition". Places are told by what they are ("in a special magnetic field"), not
/// by name: PokeAPI's place names are not read.
public enum EvolutionWords {
    /// What a name inside a condition is.
    public enum Named: Sendable {
        case item, move, species, type
        /// A Pokémon by its identifier: a form a way starts from ("rockruff-own-tempo").
        case pokemon
        /// A game (`version`): "sun".
        case version
        /// An evolution trigger this file has no words for: "" where none is known.
        case trigger
    }

    /// The triggers told in words of their own; another is told as PokeAPI names it.
    public static let triggers: Set<String> = [
        "level-up", "use-item", "trade", "shed", "spin", "tower-of-darkness", "tower-of-waters", "three-critical-hits",
        "three-defeated-bisharp", "gimmighoul-coins", "take-damage", "recoil-damage", "use-move", "agile-style-move",
        "strong-style-move", "other",
    ]

    /// The names of a condition: `(kind, identifier) → the name as the reader's games write it`.
    public typealias Names = (Named, String) -> String

    /// Names made from identifiers, where nothing better is known ("Fire Stone"); no name for a
    /// trigger.
    public static func identifierName(_ kind: Named, _ identifier: String) -> String {
        kind == .trigger ? "" : PokemonNames.title(identifier)
    }

    /// A member of a card's family in words: its ways, joined by ", or ", then what the games
    /// decide beyond them. `parent`: the name of the member it evolves from (Shedinja appears
    /// when Nincada evolves).
    public static func describe(_ step: FamilyStep, parent: String, _ w: Words, names: Names = identifierName) -> String {
        // "Use a Leaf Stone, or near a Moss Rock": each way after the first goes on the sentence.
        // Its words of its own, in lower case where the language writes so; the words of a phrase
        // (a German noun, "Level 37, oder Tausch…") as they are.
        // TRANSLATORS: "ways:keep-case" where a phrase that goes on after ", or " keeps its capital
        // (German: "Blattstein verwenden, oder Level 20"); anything else writes it in lower case.
        let lowerCase = w.tr("ways:lower-case-after-or") != "ways:keep-case"
        var ways = step.ways.enumerated().map { i, way -> String in
            var parts = [describe(way.condition, w, names: names, parent: parent, leading: i == 0, lowerCase: lowerCase)]
            if let form = way.fromForm { parts.append(w.trf("from %s", names(.pokemon, form.name))) }
            if let region = way.region { parts.append(regionWords(region, w)) }
            return parts.joined(separator: w.tr(", "))
        }
        var facts: [String] = []
        for fact in step.facts {
            switch fact {
            case .games(let versions): facts.append(w.trf("in %s", list(versions.map { names(.version, $0) }, w)))
            case .formByNature: facts.append(w.tr("its nature decides the form"))
            case .formByCloak: facts.append(w.tr("its cloak decides the form"))
            }
        }
        if ways.isEmpty, !facts.isEmpty { ways = [capitalized(facts.removeFirst())] }
        return ([ways.joined(separator: w.tr(", or "))] + facts).filter { !$0.isEmpty }.joined(separator: w.tr(", "))
    }

    /// The first letter in lower case where the word is not all capitals ("Use" → "use", "HP" stays).
    static func uncapitalized(_ s: String) -> String {
        guard let first = s.first, first.isUppercase, !(s.dropFirst().first?.isUppercase ?? false) else { return s }
        return first.lowercased() + s.dropFirst()
    }

    /// Conditions each in words, joined by "or" (Urshifu: either tower).
    public static func describe(_ conditions: [EvolutionCondition], _ w: Words,
                                names: Names = identifierName) -> String {
        conditions.map { describe($0, w, names: names) }.joined(separator: w.tr(" or "))
    }

    /// "in Alola", "in Galar", "in Hisui", "in Paldea"; another region as PokeAPI names it.
    static func regionWords(_ region: String, _ w: Words) -> String {
        switch region {
        case "alola": return w.tr("in Alola")
        case "galar": return w.tr("in Galar")
        case "hisui": return w.tr("in Hisui")
        case "paldea": return w.tr("in Paldea")
        case "kalos": return w.tr("in Kalos")
        default: return w.trf("in %s", PokemonNames.title(region))
        }
    }

    /// "A", "A or B", "A, B or C", in the reader's language.
    public static func list(_ items: [String], _ w: Words) -> String {
        guard let last = items.last else { return "" }
        guard items.count > 1 else { return last }
        return w.trf("%s or %s", items.dropLast().joined(separator: w.tr(", ")), last)
    }

    /// `leading`: the text starts with it (a head of conditions alone starts in capitals); one
    /// that goes on a sentence does not, nor, where `lowerCase`, a phrase's ("or use a…").
    public static func describe(_ c: EvolutionCondition, _ w: Words, names: Names = identifierName, parent: String? = nil,
                                leading: Bool = true, lowerCase: Bool = true) -> String {
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
            // The level is its sibling's (Ninjask's), which FormFamily sets.
            if let parent, let level = c.minLevel {
                head = w.trf("Appears when %s evolves at level %s, with an empty party slot and a spare Poké Ball", parent, String(level))
            } else {
                head = w.tr("Appears on evolving, with an empty party slot and a spare Poké Ball")
            }
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
            // A trigger of PokeAPI's newer than these words: as PokeAPI names it, else "Special
            // condition" (as its own "other" is told).
            let named = c.trigger == "other" ? "" : names(.trigger, c.trigger)
            head = c.minLevel.map { w.trf("Level %s", String($0)) } ?? (named.isEmpty ? w.tr("Special condition") : named)
            if c.minLevel != nil { parts.append(named.isEmpty ? w.tr("special condition") : named) }
        }
        // What else it takes, whatever the trigger (Basculegion's form by gender).
        parts += conditions(c, w, names, heldShown: heldShown)
        // A level-up on conditions alone reads by them: "High friendship, daytime", "In a
        // special magnetic field".
        if c.trigger == "level-up", c.minLevel == nil, let first = parts.first {
            head = leading ? capitalized(first) : first
            parts.removeFirst()
        } else if !leading, lowerCase {
            head = uncapitalized(head)
        }
        if c.byChance { parts.append(w.tr("by chance (personality)")) }
        return ([head] + parts).joined(separator: w.tr(", "))
    }

    /// The conditions beside the trigger, in the order they read.
    static func conditions(_ c: EvolutionCondition, _ w: Words, _ names: Names, heldShown: Bool) -> [String] {
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
        if let place = c.location {
            out.append(placeWords(EvolutionPlace(location: place, nearRock: c.nearSpecialRock), w))
        } else if c.nearSpecialRock {
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

    /// A place by what it is: what the ways of older games are told by.
    static func placeWords(_ place: EvolutionPlace, _ w: Words) -> String {
        switch place {
        case .magneticField: return w.tr("in a special magnetic field")
        case .mossRock: return w.tr("near a Moss Rock")
        case .iceRock: return w.tr("near an Ice Rock")
        case .snowyMountain: return w.tr("on a snowy mountain")
        case .specialRock: return w.tr("near a special rock")
        case .special: return w.tr("at a special place")
        }
    }

    /// The first letter in capitals, for a condition that starts the line ("High friendship").
    static func capitalized(_ s: String) -> String {
        guard let first = s.first else { return s }
        return first.uppercased() + s.dropFirst()
    }
}
