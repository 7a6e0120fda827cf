import PokedexModels

/// The card's lower parts after the matchups: what each ability does (the hidden one marked),
/// one line each for breeding and training (and the held items where PokeAPI lists any), and,
/// where the card was given them, the moves of the newest game.
extension DetailCard {
    /// "Abilities" and each ability with its effect under it; empty where the service gave no effects.
    func abilities(width: Int) -> [String] {
        guard detail.abilityEffects.contains(where: { !$0.isEmpty }) else { return [] }
        let p = painter
        var out = [p.dim(words.tr("Abilities"))]
        for (i, ability) in detail.abilities.enumerated() {
            var name = p.bold(Self.localized(detail.abilityNames, i) ?? PokemonNames.display(ability))
            // TRANSLATORS: after the name of a Pokémon's hidden ability ("Lightning Rod · hidden").
            if detail.training?.hiddenAbility == ability { name += p.dim(" · " + words.tr("hidden ability")) }
            out += TerminalText.wrap(name, to: width)
            let effect = Self.localized(detail.abilityEffects, i) ?? ""
            out += TerminalText.wrap(effect, to: max(1, width - 2)).map { "  " + $0 }
        }
        return out
    }

    /// "Breeding & training" (and the game its facts are from), then a line for breeding, one
    /// for training and one for the held items, each label's words wrapped under it.
    func training(width: Int) -> [String] {
        guard let t = detail.training else { return [] }
        let p = painter
        let dot = " · "
        var breeding: [String] = []
        let groups = t.eggGroups.indices.map { Self.localized(t.eggGroupNames, $0) ?? PokemonNames.display(t.eggGroups[$0]) }
        if !groups.isEmpty { breeding.append(groups.joined(separator: words.tr(", "))) }
        if let g = gender(t) { breeding.append(g) }
        if let c = t.eggCycles { breeding.append(words.trf("%s egg cycles", String(c))) }
        var training: [String] = []
        let ev = t.evYield.map { "\($0.value) " + (statLabel($0.name)) }
        if !ev.isEmpty { training.append(words.trf("EV yield %s", ev.joined(separator: words.tr(", ")))) }
        if let c = t.captureRate { training.append(words.trf("catch rate %s", String(c))) }
        if let f = t.baseFriendship { training.append(words.trf("friendship %s", String(f))) }
        let growth = t.growthRateName.isEmpty ? PokemonNames.display(t.growthRate) : t.growthRateName
        if !t.growthRate.isEmpty { training.append(growth) }
        var held: [String] = []
        for (i, item) in t.heldItems.enumerated() {
            held.append((Self.localized(t.heldItemNames, i) ?? PokemonNames.display(item.item)) + " \(item.rarity) %")
        }
        guard !breeding.isEmpty || !training.isEmpty || !held.isEmpty else { return [] }
        var head = words.tr("Breeding & training")
        if !t.gameName.isEmpty { head += dot + t.gameName }
        var out = TerminalText.wrap(head, to: width).map(p.dim)
        let labels = [words.tr("Breeding"), words.tr("Training"), words.tr("Held items")]
        let column = min(max(10, (labels.map(TerminalText.width).max() ?? 0) + 1), max(10, width / 2))
        func labelled(_ label: String, _ value: String) -> [String] { labelledLines(label, value, column: column, width: width) }
        if !breeding.isEmpty { out += labelled(labels[0], breeding.joined(separator: dot)) }
        if !training.isEmpty { out += labelled(labels[1], training.joined(separator: dot)) }
        if !held.isEmpty {
            let version = t.heldItemsVersionName.isEmpty ? PokemonNames.display(t.heldItemsVersion) : t.heldItemsVersionName
            out += labelled(labels[2], held.joined(separator: words.tr(", ")) + " (" + version + ")")
        }
        return out
    }

    /// "Moves" and the game, then each way's moves under its heading, in columns, and the
    /// line each way's list starts on (the first: the title's); empty where the card was given none.
    func moves(width: Int) -> (lines: [String], starts: [Int]) {
        guard let table = moves, !table.rows.isEmpty else { return ([], []) }
        let p = painter
        var head = words.tr("Moves")
        if !table.gameName.isEmpty { head += " · " + UntrustedText.terminal(table.gameName) }
        var out = TerminalText.wrap(head, to: width).map(p.dim), starts = [0]
        for method in Learnset.Method.allCases {
            let rows = table.rows.filter { $0.method == method }
            guard !rows.isEmpty else { continue }
            if method != table.rows.first?.method { starts.append(out.count) }
            out += TerminalText.wrap(MoveColumns.heading(method, words), to: width).map(p.dim)
            out += MoveColumns.lines(rows, words: words, width: width).enumerated().map { $0 == 0 ? p.bold($1) : $1 }
        }
        return (out, starts)
    }

    /// "♂ 87.5 % · ♀ 12.5 %", "♀ 100 %", "genderless"; nil where not known.
    func gender(_ t: TrainingFacts) -> String? {
        guard let rate = t.genderRate else { return nil }
        guard rate >= 0 else { return words.tr("genderless") }
        func percent(_ eighths: Int) -> String {
            let tenths = eighths * 125  // an eighth is 12.5 %
            return (tenths % 10 == 0 ? String(tenths / 10) : words.tenths(tenths)) + " %"
        }
        if rate == 0 { return "♂ 100 %" }
        if rate == 8 { return "♀ 100 %" }
        return "♂ " + percent(8 - Int(rate)) + " · ♀ " + percent(Int(rate))
    }

    /// A stat's label as the card's stat lines name it.
    func statLabel(_ stat: String) -> String {
        if let i = detail.stats.firstIndex(where: { $0.name == stat }) {
            if detail.language == "en", let short = Self.statLabels[stat] { return short }
            if let named = Self.localized(detail.statNames, i) { return named }
        }
        return Self.statLabels[stat].map(words.tr) ?? PokemonNames.display(stat)
    }
}
