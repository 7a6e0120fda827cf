import PokedexModels

/// What the cards' abilities, breeding, training and moves parts show (issue 57), as long as
/// the games write them in English, German and Japanese: for the screen tests to fit.
extension MockCards {
    /// An effect for each ability, as long as PokeAPI's longest (Anticipation's, Lightning Rod's).
    public static func effects(_ abilities: [String], language: String) -> [String] {
        let text = [
            "en": "Notifies all trainers in battle if an opponent has a super-effective move, Self-Destruct, Explosion, or a one-hit KO move.",
            "de": "Benachrichtigt alle Trainer im Kampf, wenn ein Gegner eine sehr effektive Attacke, Finale, Explosion oder eine K.O.-Attacke hat.",
            "ja": "あいての　こうかばつぐんの　わざや　いちげきひっさつの　わざを　さっちする　ことが　できる。",
        ][language] ?? ""
        return abilities.map { _ in text }
    }

    /// Breeding and training facts with every line there, the names in `language`.
    public static func training(_ abilities: [String], language: String) -> TrainingFacts {
        var t = TrainingFacts()
        t.game = "scarlet-violet"
        t.gameName = ["en": "Scarlet/Violet", "de": "Karmesin/Purpur", "ja": "スカーレット/バイオレット"][language] ?? ""
        t.hiddenAbility = abilities.last ?? ""
        t.eggGroups = ["humanshape", "indeterminate"]
        t.eggGroupNames = ["en": ["Human-Like", "Amorphous"], "de": ["Menschenähnlich", "Amorph"], "ja": ["ひとがた", "ふていけい"]][language] ?? []
        t.genderRate = 1
        t.eggCycles = 35
        t.captureRate = 45
        t.baseFriendship = 50
        t.growthRate = "fast-then-very-slow"
        t.growthRateName = ["en": "Fluctuating", "de": "Schwankend", "ja": "164万タイプ"][language] ?? ""
        t.evYield = [.init(name: "special-defense", value: 1), .init(name: "speed", value: 2)]
        t.heldItems = [.init(item: "light-ball", rarity: 5), .init(item: "oran-berry", rarity: 50)]
        t.heldItemNames = ["en": ["Light Ball", "Oran Berry"], "de": ["Kugelblitz", "Sinelbeere"], "ja": ["でんきだま", "オレンのみ"]][language] ?? []
        t.heldItemsVersion = "ultra-moon"
        t.heldItemsVersionName = ["en": "Ultra Moon", "de": "Ultramond", "ja": "ウルトラムーン"][language] ?? ""
        return t
    }

    /// The moves of card `i` as `Moves` gives them: level-up (one on evolution), 40 TMs, eggs and
    /// tutors, with the longest names each language has.
    public static func moves(_ i: Int, language: String) -> MoveTable {
        let names: [String: [String]] = [
            "en": ["Parabolic Charge", "Electric Terrain", "Draining Kiss", "Thunderbolt", "Double-Edge", "Nasty Plot"],
            "de": ["Parabolladung", "Elektrofeld", "Diebeskuss", "Donnerblitz", "Risikotackle", "Ränkeschmied"],
            "ja": ["パラボラチャージ", "エレキフィールド", "ドレインキッス", "１０まんボルト", "すてみタックル", "わるだくみ"],
        ]
        let types = [("electric", ["en": "Electric", "de": "Elektro", "ja": "でんき"]), ("fairy", ["en": "Fairy", "de": "Fee", "ja": "フェアリー"])]
        let categories = [("special", ["en": "Special", "de": "Spezial", "ja": "とくしゅ"]), ("status", ["en": "Status", "de": "Status", "ja": "へんか"])]
        func row(_ n: Int, _ method: Learnset.Method, _ level: UInt8) -> MoveRow {
            let name = (names[language] ?? names["en"]!)[n % 6], type = types[n % 2], category = categories[n % 3 == 0 ? 1 : 0]
            return MoveRow(method: method, level: level, id: UInt32(n + 1), move: "move-\(n)", name: name, type: type.0,
                           typeName: type.1[language] ?? "", category: category.0, categoryName: category.1[language] ?? "",
                           power: n % 3 == 0 ? nil : 90, accuracy: n % 4 == 0 ? nil : 100, pp: 15)
        }
        var rows = [row(0, .levelUp, 0)] + (1...12).map { row($0, .levelUp, UInt8($0 * 4)) }
        rows += (13..<53).map { row($0, .machine, 0) } + (53..<58).map { row($0, .egg, 0) } + (58..<60).map { row($0, .tutor, 0) }
        let (id, name, _, _, _, _) = cards[i]
        return MoveTable(id: id, pokemon: name, game: "scarlet-violet", gameName: training([], language: language).gameName,
                         games: ["scarlet-violet", "sword-shield"], language: language, rows: rows)
    }
}
