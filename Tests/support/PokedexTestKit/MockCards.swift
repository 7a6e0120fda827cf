import PokedexModels

/// The cards of the Pokémon players ask about (Charizard, Eevee, Alolan Raichu, Tyrogue, Gengar,
/// Galarian Slowpoke, Shedinja, Bronzor) as the service gives them in English, German and
/// Japanese: PokeAPI's real families (the mock's) and the chart's matchups. The terminal's and
/// pokectl's screen tests draw them.
public enum MockCards {
    /// (id, identifier, types, chain, display names by language, abilities).
    public static let cards: [(UInt32, String, [String], UInt32, [String: String], [String])] = [
        (6, "charizard", ["fire", "flying"], 2, ["en": "Charizard", "de": "Glurak", "ja": "リザードン"], ["blaze", "solar-power"]),
        (133, "eevee", ["normal"], 67, ["en": "Eevee", "de": "Evoli", "ja": "イーブイ"], ["run-away", "adaptability", "anticipation"]),
        (10100, "raichu-alola", ["electric", "psychic"], 10, ["en": "Alolan Raichu", "de": "Alola-Raichu", "ja": "ライチュウ (アローラのすがた)"],
         ["surge-surfer"]),
        (236, "tyrogue", ["fighting"], 47, ["en": "Tyrogue", "de": "Rabauz", "ja": "バルキー"], ["guts", "steadfast", "vital-spirit"]),
        (94, "gengar", ["ghost", "poison"], 40, ["en": "Gengar", "de": "Gengar", "ja": "ゲンガー"], ["cursed-body"]),
        (10164, "slowpoke-galar", ["psychic"], 33, ["en": "Galarian Slowpoke", "de": "Galar-Flegmon", "ja": "ヤドン (ガラルのすがた)"],
         ["gluttony", "own-tempo", "regenerator"]),
        (292, "shedinja", ["bug", "ghost"], 144, ["en": "Shedinja", "de": "Ninjatom", "ja": "ヌケニン"], ["wonder-guard"]),
        (436, "bronzor", ["steel", "psychic"], 224, ["en": "Bronzor", "de": "Bronzel", "ja": "ドーミラー"], ["levitate", "heatproof", "heavy-metal"]),
    ]

    /// The abilities' names as PokeAPI gives them, for those the cards show.
    public static let abilityNames: [String: [String: String]] = [
        "wonder-guard": ["en": "Wonder Guard", "de": "Wunderwache", "ja": "ふしぎなまもり"],
        "levitate": ["en": "Levitate", "de": "Schwebe", "ja": "ふゆう"],
        "heatproof": ["en": "Heatproof", "de": "Hitzeschutz", "ja": "たいねつ"],
    ]

    /// The `i`th of ``cards`` as the service gives it in `language`: the mock's family and matchups.
    public static func detail(_ i: Int, language: String) -> PokemonDetail {
        let (id, name, types, chain, names, abilities) = Self.cards[i]
        let words = MockData.words(language)
        var d = PokemonDetail(id: id, name: name, height: 10, weight: 100, types: types, abilities: abilities,
                              stats: [.init(name: "hp", value: 60), .init(name: "speed", value: 90)], spritePath: "",
                              favorite: false, genus: "", flavorText: "")
        d.displayName = names[language] ?? name
        d.language = language
        d.typeNames = types.map { MockData.typeName($0, language: language) }
        d.abilityNames = abilities.map { Self.abilityNames[$0]?[language] ?? PokemonNames.display($0) }
        d.statNames = language == "de" ? ["KP", "Initiative"] : language == "ja" ? ["HP", "すばやさ"] : ["HP", "Speed"]
        d.evolution = MockData.family(chain, subject: PokemonRef(id: id, name: name), language: language, words: words)
        d.matchups = MockData.matchups(types, language: language)
        d.abilityMatchups = abilities.filter(AbilityMatchups.changesMatchups).map {
            AbilityMatchup(ability: $0, matchups: AbilityMatchups.matchups($0, types, language: language))
        }
        return d
    }

    /// ``detail(_:language:)`` with everything a card shows as long as the games write it: the
    /// six stats by their names in the language, a genus and a flavour text.
    public static func full(_ i: Int, language: String) -> PokemonDetail {
        var d = detail(i, language: language)
        d.stats = ["hp", "attack", "defense", "special-attack", "special-defense", "speed"].enumerated().map {
            .init(name: $1, value: UInt32(45 + 17 * $0))
        }
        d.statNames = statNames[language] ?? statNames["en"]!
        d.genus = ["en": "Evolution Pokémon", "de": "Evolutions-Pokémon", "ja": "しんかポケモン"][language] ?? ""
        d.flavorText = [
            "en": "Its genetic code is irregular. It may mutate if it is exposed to radiation from element stones.",
            "de": "Sein genetischer Code ist unbeständig. Strahlung von Entwicklungssteinen kann ihn verändern.",
            "ja": "ふきそくな　いでんしを　もつ。　いしから　でる　ほうしゃせんで　からだが　とつぜんへんいを　おこす。",
        ][language] ?? ""
        return d
    }

    /// The stats' names as PokeAPI gives them (German's are the longest a card meets).
    public static let statNames: [String: [String]] = [
        "en": ["HP", "Attack", "Defense", "Special Attack", "Special Defense", "Speed"],
        "de": ["KP", "Angriff", "Verteidigung", "Spezial-Angriff", "Spezial-Verteidigung", "Initiative"],
        "ja": ["HP", "こうげき", "ぼうぎょ", "とくこう", "とくぼう", "すばやさ"],
    ]
}
