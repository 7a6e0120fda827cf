import PokedexModels

/// The card's lower part: the evolution family (a line of names, or a small tree where it
/// branches, each step with its condition) and the matchups as type badges grouped by
/// multiplier. Under ``triggersWidth`` columns the conditions are left out first.
extension DetailCard {
    /// Below this width the family is names alone.
    public static let triggersWidth = 60

    /// The family, the matchups, the abilities, breeding and training, and the moves (each where
    /// the service gave it), in lines of at most `width` columns, the line of the member picked
    /// and the first line of each part.
    func lowerParts(width: Int) -> (lines: [String], selected: Int?, sections: [Int]) {
        var out: [String] = []
        var selected: Int?
        var sections: [Int] = []
        if detail.evolution.count > 1 {
            let f = family(width: width)
            sections.append(out.count + 1)
            out += [""] + f.lines
            selected = f.selected.map { $0 + 1 }
        }
        if !detail.matchups.isEmpty {
            sections.append(out.count + 1)
            out += [""] + matchups(width: width)
        }
        for part in [abilities(width: width), training(width: width)] where !part.isEmpty {
            sections.append(out.count + 1)
            out += [""] + part
        }
        // The moves: Tab stops at each way's list too (a hundred TMs is pages).
        let moveList = moves(width: width)
        if !moveList.lines.isEmpty {
            sections += moveList.starts.map { out.count + 1 + $0 }
            out += [""] + moveList.lines
        }
        return (out, selected, sections)
    }

    // MARK: The family

    /// Whether `m` is the card's own Pokémon: its species, or the species of its form
    /// ("raichu-alola" is Raichu's).
    func isOwn(_ m: EvolutionMember) -> Bool { detail.ownFamilyIndex.map { detail.evolution[$0].id == m.id } ?? false }

    /// A member's name as the card shows it: bold for the card's own, in reverse video (and
    /// after "▸" without colour) for the one picked.
    func shown(_ name: String, _ m: EvolutionMember) -> String {
        if let s = selectedMember, s < detail.evolution.count, detail.evolution[s].id == m.id {
            return mode == .none ? "▸" + name : painter.attribute(name, isOwn(m) ? "1;7" : "7")
        }
        return isOwn(m) ? painter.bold(name) : name
    }

    /// "Evolution" and the family under it, and the line of the member picked.
    func family(width: Int) -> (lines: [String], selected: Int?) {
        let members = detail.evolution
        let branches = Dictionary(grouping: members.filter { $0.from != 0 }, by: \.from).values.contains { $0.count > 1 }
        let head = painter.dim(words.tr("Evolution"))
        let body = branches ? tree(members, width: width) : line(members, width: width)
        return ([head] + body.lines, body.selected.map { $0 + 1 })
    }

    /// A family without branches: `Charmander → Charmeleon (Level 16) → Charizard (Level 36)`,
    /// broken before an arrow where it does not fit.
    func line(_ members: [EvolutionMember], width: Int) -> (lines: [String], selected: Int?) {
        let triggers = width >= Self.triggersWidth
        var pieces: [String] = []
        for (i, m) in members.enumerated() {
            var piece = (i == 0 ? "" : "→ ") + shown(plainName(m), m)
            if triggers, !m.trigger.isEmpty { piece += " " + painter.dim("(" + m.trigger + ")") }
            pieces.append(piece)
        }
        let flowed = flow(pieces, width: width, indent: 2, continuation: 4)
        // The line the picked member's piece went to.
        guard let s = selectedMember, s < members.count else { return (flowed.lines, nil) }
        return (flowed.lines, flowed.lineOfPiece[s])
    }

    /// A family that branches, as a tree (`├─`, `└─`), each member's condition beside it and
    /// wrapped under itself.
    func tree(_ members: [EvolutionMember], width: Int) -> (lines: [String], selected: Int?) {
        // Preorder from the first member, children in the chain's order.
        var rows: [(prefix: String, member: EvolutionMember)] = []
        var visited = Set<UInt32>()
        func visit(_ m: EvolutionMember, prefix: String, childPrefix: String) {
            guard visited.insert(m.id).inserted else { return }
            rows.append((prefix, m))
            let children = members.filter { $0.from == m.id && $0.id != m.id }
            for (i, c) in children.enumerated() {
                let last = i == children.count - 1
                visit(c, prefix: childPrefix + (last ? "└─ " : "├─ "), childPrefix: childPrefix + (last ? "   " : "│  "))
            }
        }
        for root in members where root.from == 0 || !members.contains(where: { $0.id == root.from }) {
            visit(root, prefix: "  ", childPrefix: "  ")
        }
        // A plain card marks the picked member with "▸": room for it.
        let marker = mode == .none && selectedMember != nil ? 1 : 0
        let widest = (rows.map { TerminalText.width($0.prefix) + TerminalText.width(plainName($0.member)) }.max() ?? 0) + marker
        // The conditions beside the names where the names take at most half the card; else each
        // under its member, so that no name is cut ("ライチュウ (アローラのすがた)" at 80 columns).
        let beside = widest <= width / 2 && width - widest - 2 >= 10
        let nameColumn = beside ? widest : width
        var out: [String] = []
        var selected: Int?
        for (prefix, m) in rows {
            let picked = selectedMember.map { $0 < members.count && members[$0].id == m.id } ?? false
            if picked { selected = out.count }
            let name = TerminalText.truncate(plainName(m), to: max(1, nameColumn - TerminalText.width(prefix) - (picked ? marker : 0)))
            let shown = shown(name, m)
            guard width >= Self.triggersWidth, !m.trigger.isEmpty else {
                out.append(prefix + shown)
                continue
            }
            // The lines under a member go on with its branch's rule.
            let rule = String(prefix.map { $0 == "├" ? "│" : ($0 == "└" || $0 == "─" ? " " : $0) })
            guard beside else {
                out.append(prefix + shown)
                for part in TerminalText.wrap(m.trigger, to: width - TerminalText.width(rule) - 2) { out.append(rule + "  " + painter.dim(part)) }
                continue
            }
            let padded = prefix + shown + String(repeating: " ", count: max(0, nameColumn - TerminalText.width(prefix + shown)))
            let under = TerminalText.pad(rule, to: nameColumn)
            for (i, part) in TerminalText.wrap(m.trigger, to: width - nameColumn - 2).enumerated() {
                out.append((i == 0 ? padded : under) + "  " + painter.dim(part))
            }
        }
        return (out, selected)
    }

    func plainName(_ m: EvolutionMember) -> String { m.displayName.isEmpty ? PokemonNames.display(m.name) : m.displayName }

    // MARK: The matchups

    /// "Weak to ×4 Rock ×2 Water Electric", "Resists …", "Immune to …", then each ability that
    /// changes them with what it makes of them ("Levitate ×0 Ground"). With Wonder Guard alone
    /// (Shedinja) only the super-effective hits land: those, and that nothing else does.
    func matchups(width: Int) -> [String] {
        let abilities = detail.abilityMatchups ?? []
        let wonderGuardOnly = !abilities.isEmpty && abilities.allSatisfy(\.onlySuperEffectiveLands)
            && detail.abilities.allSatisfy { $0 == "wonder-guard" }
        var groups: [(label: String, matchups: [[TypeMatchup]])] = [
            (words.tr("Weak to"), [4, 2].map { m in detail.matchups.filter { $0.multiplier == m } }),
        ]
        if !wonderGuardOnly {
            groups += [(words.tr("Resists"), [0.5, 0.25].map { m in detail.matchups.filter { $0.multiplier == m } }),
                       (words.tr("Immune to"), [detail.matchups.filter { $0.multiplier == 0 }])]
            for a in abilities where !a.onlySuperEffectiveLands {
                // Grouped by multiplier, strongest first, as the service ordered them.
                var byMultiplier: [[TypeMatchup]] = []
                for m in a.matchups {
                    if let i = byMultiplier.firstIndex(where: { $0.first?.multiplier == m.multiplier }) { byMultiplier[i].append(m) } else {
                        byMultiplier.append([m])
                    }
                }
                groups.append((abilityName(a.ability), byMultiplier))
            }
        }
        let notes = abilities.filter(\.onlySuperEffectiveLands).map {
            words.trf("%s: only super-effective hits land", abilityName($0.ability))
        }
        // As wide as the widest label ("Resistent gegen"), up to half the card.
        let label = min(max(12, (groups.map { TerminalText.width($0.label) }.max() ?? 0) + 2), max(12, width / 2))
        var out: [String] = []
        for (name, sets) in groups {
            var pieces: [String] = []
            for types in sets where !types.isEmpty {
                // The multiplier goes with its first badge, never alone at a line's end.
                let badges = types.map { badge($0.type, named: $0.typeName) }
                pieces.append(painter.bold(TypeMatchup.label(types[0].multiplier, decimalSeparator: words.decimalSeparator)) + " " + badges[0])
                pieces += badges.dropFirst()
            }
            guard !pieces.isEmpty else { continue }
            var lines = flow(pieces, width: width - label, indent: 0, continuation: 0).lines
            lines[0] = painter.dim(TerminalText.pad(TerminalText.truncate(name, to: label - 1), to: label)) + lines[0]
            for i in lines.indices.dropFirst() { lines[i] = String(repeating: " ", count: label) + lines[i] }
            out += lines
        }
        for note in notes { out += TerminalText.wrap(note, to: width).map(painter.dim) }
        // An older service does not say which abilities count.
        if detail.abilityMatchups == nil { out += TerminalText.wrap(words.tr("Abilities such as Levitate are not counted."), to: width).map(painter.dim) }
        return out
    }

    /// An ability's name as the service gave it in the reader's language, else made from its identifier.
    func abilityName(_ ability: String) -> String {
        detail.abilities.firstIndex(of: ability).flatMap { Self.localized(detail.abilityNames, $0) } ?? PokemonNames.display(ability)
    }

    /// Pieces (which may hold colour) laid out with a space between them, a new line where the
    /// next does not fit; a piece wider than a line is wrapped between its words (without its
    /// colour), never cut.
    func flow(_ pieces: [String], width: Int, indent: Int, continuation: Int) -> (lines: [String], lineOfPiece: [Int]) {
        var lines: [String] = []
        var lineOfPiece: [Int] = []
        var line = String(repeating: " ", count: indent), used = indent, empty = true
        for piece in pieces {
            var piece = piece
            var w = TerminalText.width(piece)
            if !empty, used + 1 + w > width {
                lines.append(line)
                line = String(repeating: " ", count: continuation)
                used = continuation
                empty = true
            }
            let first = lines.count
            // Here the line is empty: the piece is wider than any line.
            // (A word wider than the line, on a card narrower than any window it is drawn in, is cut.)
            let room = max(1, width - max(used, continuation))
            if used + w > width, case let parts = TerminalText.wrap(TerminalText.plain(piece), to: room).map({ TerminalText.truncate($0, to: room) }),
               let head = parts.first {
                piece = head
                for part in parts.dropFirst() {
                    lines.append(line + piece)
                    line = String(repeating: " ", count: continuation)
                    used = continuation
                    piece = part
                }
                w = TerminalText.width(piece)
            }
            line += (empty ? "" : " ") + piece
            used += (empty ? 0 : 1) + w
            empty = false
            lineOfPiece.append(first)
        }
        if !empty { lines.append(line) }
        return (lines, lineOfPiece)
    }
}
