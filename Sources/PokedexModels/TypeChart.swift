/// The current games' type chart, bundled (`TypeChartTable.swift`, from PokeAPI's data): what a
/// card's matchups are made of, with no request and the same offline; and the types' names, so
/// a client names the matchups `Detail` gives (type → multiplier) in its reader's language. Abilities (Levitate,
/// Wonder Guard, …) are not counted: the card says so.
public enum TypeChart {
    /// The multiplier `attacker` deals to a Pokémon of `defenders`: each defending type's
    /// factor multiplied. A type the chart does not know (a newer one, "stellar") is neutral.
    public static func multiplier(_ attacker: String, against defenders: [String]) -> Double {
        guard let a = types.firstIndex(of: attacker) else { return 1 }
        var m = 1.0
        for d in Set(defenders) {
            guard let row = types.firstIndex(of: d) else { continue }
            m *= factor(chart[row][a])
        }
        return m
    }

    /// Every attacking type that does not deal ×1 to `defenders`, strongest first, then in the
    /// chart's order; names in `language` (its relative, else English).
    public static func matchups(_ defenders: [String], language: String) -> [TypeMatchup] {
        let all = types.indices.compactMap { i -> TypeMatchup? in
            let m = multiplier(types[i], against: defenders)
            return m == 1 ? nil : TypeMatchup(type: types[i], typeName: name(types[i], language: language), multiplier: m)
        }
        // Stable: equal multipliers keep the chart's order.
        return all.enumerated().sorted { a, b in
            a.element.multiplier != b.element.multiplier ? a.element.multiplier > b.element.multiplier : a.offset < b.offset
        }.map(\.element)
    }

    /// A type's name in `language`, else made from its identifier.
    public static func name(_ type: String, language: String) -> String {
        types.firstIndex(of: type).flatMap { LocalizedText.pick(names[$0], language) } ?? PokemonNames.display(type)
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
