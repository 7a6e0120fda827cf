import PokedexModels

/// A family as the card of one Pokémon shows it.
///
/// PokeAPI's chain is of species, and each step lists every way it happens, for every form, region
/// and game. Decided here, for the Pokémon a card is about:
/// - **Members.** A Pokémon a way names is a member of its own (Galarian Slowbro, Alolan Raichu,
///   Dusk Lycanroc); any other is its species' default. A form that is neither a default nor a
///   region's (Own Tempo Rockruff, Small Pumpkaboo) stands with its species: a way from it says so
///   ("from Own Tempo Rockruff"), and one that keeps the form (Small Pumpkaboo into Small
///   Gourgeist) is the species' own.
/// - **Whose line.** The card shows the members its Pokémon is linked to by some way: Galarian
///   Meowth's card Galarian Meowth → Perrserker, Meowth's Meowth → Persian; Pikachu's the Raichu
///   of Kanto and, as a branch, Alolan Raichu "in Alola".
/// - **Which ways.** The current games' first, then older games' (told by what their place is),
///   then a region's own ("Level 14, or Level 17, in Hisui"), each once.
/// - **What PokeAPI does not say** (`EvolutionFacts`): the game (Cosmoem), the form a nature,
///   gender, cloak or chance gives; siblings on the very same way are a matter of chance
///   (Wurmple); Shedinja appears at the level Nincada evolves.
enum FormFamily {
    /// The regions whose forms have lines of their own.
    static let regions: [Substring] = ["alola", "galar", "hisui", "paldea"]

    /// The region of a form's identifier ("sandshrew-alola", "darmanitan-galar-standard",
    /// "tauros-paldea-combat-breed"); nil for any other.
    static func region(of name: String) -> String? {
        let words = name.split(separator: "-").dropFirst()
        return regions.first(where: words.contains).map(String.init)
    }

    /// One way between two members.
    struct Edge {
        var from: PokemonRef
        var to: PokemonRef
        var way: ShownWay
        var isDefault: Bool
        var fact: EvolutionFact?
    }

    /// The family on the card of `subject` (a Pokémon of species `speciesID`; nil: the chain's
    /// first species'), parent before children. `formID`: the id of a form's identifier, for the
    /// forms a step gives by nature, gender or chance (nil where unknown: that form is left out).
    static func steps(_ chain: EvolutionChainRecord, subject: PokemonRef?, speciesID: UInt32?,
                      formID: (String) -> UInt32?) -> [FamilyStep] {
        guard let first = chain.members.first else { return [] }
        let edges = self.edges(chain, formID: formID)
        let own = ownNode(edges, chain, subject: subject, speciesID: speciesID ?? first.speciesID)
        // The members linked to the card's own, whichever way the links go.
        var linked: Set<UInt32> = [own.id], queue = [own.id]
        while let node = queue.popLast() {
            for e in edges where e.from.id == node || e.to.id == node {
                for next in [e.from.id, e.to.id] where linked.insert(next).inserted { queue.append(next) }
            }
        }
        let inside = edges.filter { linked.contains($0.from.id) }
        guard !inside.isEmpty else { return [FamilyStep(pokemon: own, from: 0)] }
        var steps: [FamilyStep] = []
        var placed = Set<UInt32>()
        func place(_ node: PokemonRef, from parent: PokemonRef?) {
            guard placed.insert(node.id).inserted else { return }
            let incoming = inside.filter { $0.to.id == node.id && $0.from.id == parent?.id }
            steps.append(FamilyStep(pokemon: node, from: parent?.id ?? 0, ways: ways(incoming),
                                    facts: facts(incoming, parent: parent, node: node)))
            var children: [PokemonRef] = []
            for e in inside where e.from.id == node.id && !children.contains(e.to) { children.append(e.to) }
            for c in children { place(c, from: node) }
        }
        for e in inside where !inside.contains(where: { $0.to.id == e.from.id }) { place(e.from, from: nil) }
        // A family with no first member (a loop, which no real chain has) starts at the card's own.
        if steps.isEmpty { place(own, from: nil) }
        markChance(&steps)
        giveShedLevel(&steps, inside)
        return steps
    }

    /// Every way of the chain as an edge between two members.
    static func edges(_ chain: EvolutionChainRecord, formID: (String) -> UInt32?) -> [Edge] {
        let species = Dictionary(chain.members.map { ($0.speciesID, $0.name) }, uniquingKeysWith: { a, _ in a })
        func standard(_ id: UInt32) -> PokemonRef { PokemonRef(id: id, name: species[id] ?? "") }
        var out: [Edge] = []
        for step in chain.members where step.from != 0 {
            let parentName = species[step.from] ?? ""
            let split = EvolutionFacts.forms(parent: parentName, child: step.name).compactMap { f in
                formID(f.identifier).map { ($0 == step.speciesID ? standard($0) : PokemonRef(id: $0, name: f.identifier), f) }
            }
            for way in step.ways {
                var from = way.baseForm.flatMap { $0.id == step.from ? nil : $0 } ?? standard(step.from)
                var to = way.evolvedForm.flatMap { $0.id == step.speciesID ? nil : $0 } ?? standard(step.speciesID)
                var shown = ShownWay(condition: way.condition, region: way.region)
                if !PokemonID.isDefaultForm(from.id), region(of: from.name) == nil {
                    // A form that is no region's stands with its species.
                    let keepsForm = !PokemonID.isDefaultForm(to.id) && to.name.hasPrefix(step.name + "-")
                        && from.name.dropFirst(parentName.count) == to.name.dropFirst(step.name.count)
                    if keepsForm { to = standard(step.speciesID) } else { shown.fromForm = from }
                    from = standard(step.from)
                }
                guard to.id == step.speciesID, !split.isEmpty else {
                    out.append(Edge(from: from, to: to, way: shown, isDefault: way.isDefault))
                    continue
                }
                for (form, f) in split {
                    var w = shown
                    if let gender = f.gender { w.condition.gender = gender }
                    if f.byChance { w.condition.byChance = true }
                    out.append(Edge(from: from, to: form, way: w, isDefault: way.isDefault, fact: f.fact))
                }
            }
        }
        return out
    }

    /// The member the card is about: the Pokémon itself where a way names it, else its region's
    /// member of its species (Zen Galarian Darmanitan: Galarian Darmanitan), else its species.
    static func ownNode(_ edges: [Edge], _ chain: EvolutionChainRecord, subject: PokemonRef?, speciesID: UInt32) -> PokemonRef {
        let nodes = edges.flatMap { [$0.from, $0.to] }
        if let subject, let node = nodes.first(where: { $0.id == subject.id }) { return node }
        if let subject, let r = region(of: subject.name),
           let node = nodes.first(where: { region(of: $0.name) == r && speciesOf($0.id, chain) == speciesID }) {
            return node
        }
        let name = chain.members.first { $0.speciesID == speciesID }?.name ?? chain.members.first?.name ?? ""
        return PokemonRef(id: chain.members.contains { $0.speciesID == speciesID } ? speciesID : chain.members.first?.speciesID ?? 0,
                          name: name)
    }

    /// The species of a member: its own id for a default, else the species the chain names it
    /// under (a form's identifier starts with its species').
    static func speciesOf(_ id: UInt32, _ chain: EvolutionChainRecord) -> UInt32? {
        if PokemonID.isDefaultForm(id) { return id }
        for m in chain.members {
            for w in m.ways {
                if w.evolvedForm?.id == id { return m.speciesID }
                if w.baseForm?.id == id { return m.from }
            }
        }
        return nil
    }

    /// The ways of a step as the card says them: the current games' first, then the older
    /// games' (places told by what they are), then a region's own; each once, four at most.
    static func ways(_ edges: [Edge]) -> [ShownWay] {
        let ordered = edges.filter { $0.isDefault && $0.way.region == nil } + edges.filter { !$0.isDefault && $0.way.region == nil }
            + edges.filter { $0.way.region != nil }
        var out: [ShownWay] = []
        var seen: [(way: ShownWay, place: EvolutionPlace?)] = []
        for e in ordered {
            // Places alike are one way: the magnetic field of six games is one.
            var way = e.way
            let place = way.condition.location.map { EvolutionPlace(location: $0, nearRock: way.condition.nearSpecialRock) }
            way.condition.location = nil
            if seen.contains(where: { $0.way == way && $0.place == place }) { continue }
            seen.append((way, place))
            out.append(e.way)
        }
        return Array(out.prefix(4))
    }

    /// What decides a step beyond its ways: the game, the nature, the cloak.
    static func facts(_ edges: [Edge], parent: PokemonRef?, node: PokemonRef) -> [EvolutionFact] {
        var out: [EvolutionFact] = []
        if let parent, let games = EvolutionFacts.games(parent: parent.name, pokemon: node.name) { out.append(.games(games)) }
        for e in edges { if let f = e.fact, !out.contains(f) { out.append(f) } }
        return out
    }

    /// Siblings that evolve the very same way, with nothing else to tell them apart (Wurmple's
    /// two): the game decides by a hidden value.
    static func markChance(_ steps: inout [FamilyStep]) {
        func same(_ a: FamilyStep, _ b: FamilyStep) -> Bool {
            a.facts.isEmpty && b.facts.isEmpty && a.ways.count == b.ways.count && zip(a.ways, b.ways).allSatisfy { x, y in
                x.condition.sameAs(y.condition) && x.region == y.region && x.fromForm == y.fromForm
            }
        }
        let twins = steps.indices.filter { i in
            !steps[i].ways.isEmpty && steps.indices.contains { j in j != i && steps[j].from == steps[i].from && same(steps[i], steps[j]) }
        }
        for i in twins { for w in steps[i].ways.indices { steps[i].ways[w].condition.byChance = true } }
    }

    /// Shedinja appears when Nincada evolves: at the level its sibling's way names.
    static func giveShedLevel(_ steps: inout [FamilyStep], _ edges: [Edge]) {
        for i in steps.indices {
            for w in steps[i].ways.indices where steps[i].ways[w].condition.trigger == "shed" && steps[i].ways[w].condition.minLevel == nil {
                let sibling = edges.first { $0.from.id == steps[i].from && $0.way.condition.trigger == "level-up" && $0.way.condition.minLevel != nil }
                steps[i].ways[w].condition.minLevel = sibling?.way.condition.minLevel
            }
        }
    }
}
