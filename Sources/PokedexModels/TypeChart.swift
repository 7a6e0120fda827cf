/// The current games' type chart, bundled (`TypeChartTable.swift`, from PokeAPI's data): what a
/// card's matchups are made of, with no request and the same offline; and the types' names, so
/// a client names the matchups `Detail` gives (type → multiplier) in its reader's language. Abilities (Levitate,
/// Wonder Guard, …) are not counted: the card says so.
public enum TypeChart {
    /// The multiplier `attacker` deals to a Pokémon of `defenders`: each defending type's
    /// factor multiplied. A type the chart does not know (a newer one, "stellar") is neutral.
    public static func multiplier(_ attacker: String, against defenders: [String]) -> Double {
        guard let a = index[attacker] else { return 1 }
        return multiplier(a, against: rows(of: defenders))
    }

    /// Every attacking type that does not deal ×1 to `defenders`, strongest first, then in the
    /// chart's order; names in `language` (its relative, else English).
    public static func matchups(_ defenders: [String], language: String) -> [TypeMatchup] {
        let rows = rows(of: defenders)
        let all = types.indices.compactMap { a -> TypeMatchup? in
            let m = multiplier(a, against: rows)
            return m == 1 ? nil : TypeMatchup(type: types[a], typeName: name(at: a, language: language), multiplier: m)
        }
        // Stable: equal multipliers keep the chart's order.
        return all.enumerated().sorted { a, b in
            a.element.multiplier != b.element.multiplier ? a.element.multiplier > b.element.multiplier : a.offset < b.offset
        }.map(\.element)
    }

    /// A type's name in `language`, else made from its identifier.
    public static func name(_ type: String, language: String) -> String {
        index[type].map { name(at: $0, language: language) } ?? PokemonNames.display(type)
    }

    /// The name of the chart's type number `i` in `language`, else made from its identifier.
    private static func name(at i: Int, language: String) -> String {
        LocalizedText.pick(names[i], language) ?? PokemonNames.display(types[i])
    }

    /// A type's row and column in the chart.
    private static let index: [String: Int] = Dictionary(uniqueKeysWithValues: types.enumerated().map { ($1, $0) })

    /// The chart's rows of the defending types, each once (a type listed twice counts once);
    /// the types the chart does not know are neutral.
    private static func rows(of defenders: [String]) -> [Int] {
        var rows: [Int] = []
        for d in defenders { if let row = index[d], !rows.contains(row) { rows.append(row) } }
        return rows
    }

    private static func multiplier(_ attacker: Int, against rows: [Int]) -> Double {
        rows.reduce(1.0) { $0 * factor(chart[$1][attacker]) }
    }

    private static func factor(_ code: UInt8) -> Double {
        switch code {
        case 0: return 0
        case 1: return 0.5
        case 3: return 2
        default: return 1
        }
    }
}
