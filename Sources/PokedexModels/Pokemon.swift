// A Pokémon as the service keeps it (the compact records of PokeAPI's bodies) and as it
// answers `Detail` and `LocalizedDetail`.

/// What the service keeps of a 300–600 KB `pokemon` body.
public struct PokemonRecord: Sendable, Codable, Equatable {
    public var id: UInt32
    public var name: String
    public var height: UInt32
    public var weight: UInt32
    /// Type names in slot order.
    public var types: [String]
    /// Ability names in slot order.
    public var abilities: [String]
    /// Stat name → base stat, in the API's order.
    public var stats: [Stat]
    /// The default front sprite's URL, if the API names one.
    public var spriteURL: String?
    /// The generation-V animated sprite's URL, if the API names one.
    public var animatedSpriteURL: String?
    /// The shiny front sprite's URL (`front_shiny`); "" where the API names none; nil in
    /// records kept before shiny sprites were.
    public var shinySpriteURL: String?
    /// The species resource's URL.
    public var speciesURL: String?
    /// The cry's URL (`cries.latest`, else `cries.legacy`); "" where the API names none; nil
    /// in records kept before cries were.
    public var cryURL: String?
    /// The `pokemon-form` resource's URL of its form (the first the API lists); nil in records
    /// kept before forms were read.
    public var formURL: String?
    /// Whether each of `abilities` is its hidden one, in the same order; nil in records kept
    /// before it was read.
    public var hiddenAbilities: [Bool]?
    /// The effort values it gives when defeated: the stats it gives any for, in the API's order.
    public var effortYield: [Stat]?
    /// The items it may hold in the wild, by version (PokeAPI's stop at Ultra Sun/Ultra Moon).
    public var heldItems: [HeldItem]?
    /// The moves it learns, by game; nil in records kept before moves were read.
    public var learnset: Learnset?

    public struct HeldItem: Sendable, Codable, Equatable {
        public var item: String
        public var version: String
        /// In percent.
        public var rarity: UInt8
        public init(item: String, version: String, rarity: UInt8) {
            self.item = item
            self.version = version
            self.rarity = rarity
        }
    }

    public struct Stat: Sendable, Codable, Equatable {
        public var name: String
        public var value: UInt32
        public init(name: String, value: UInt32) {
            self.name = name
            self.value = value
        }
    }

    public init(id: UInt32, name: String, height: UInt32, weight: UInt32, types: [String], abilities: [String], stats: [Stat], spriteURL: String?, animatedSpriteURL: String?, shinySpriteURL: String? = nil, speciesURL: String?, formURL: String? = nil, cryURL: String? = nil) {
        self.cryURL = cryURL
        self.id = id
        self.name = name
        self.height = height
        self.weight = weight
        self.types = types
        self.abilities = abilities
        self.stats = stats
        self.spriteURL = spriteURL
        self.animatedSpriteURL = animatedSpriteURL
        self.shinySpriteURL = shinySpriteURL
        self.speciesURL = speciesURL
        self.formURL = formURL
    }
}

/// What the service keeps of a `pokemon-species` body.
public struct SpeciesRecord: Sendable, Codable, Equatable {
    public var id: UInt32
    public var name: String
    /// English genus, "" where the API has none.
    public var genus: String
    /// English flavour text, cleaned; "" where the API has none.
    public var flavorText: String
    /// Language code → localized name.
    public var names: [String: String]
    /// Language code → genus; nil in records kept before other languages were.
    public var genera: [String: String]?
    /// Language code → the newest flavour text in it, cleaned; nil in records kept before
    /// other languages were.
    public var flavorTexts: [String: String]?
    /// Its family's `evolution-chain` id; nil where the API names none, and in records kept
    /// before families were read (the bundled table knows those species' families).
    public var evolutionChainID: UInt32?
    /// How it breeds and trains; nil in records kept before they were read.
    public var breeding: Breeding?

    /// The species' breeding and training facts as PokeAPI gives them (what the games changed
    /// since is ``TrainingFacts``' to say).
    public struct Breeding: Sendable, Codable, Equatable {
        /// `egg-group` names (`monster`, `no-eggs`).
        public var eggGroups: [String]
        /// Females in eighths (0…8); -1 genderless; nil where the API gives none.
        public var genderRate: Int8?
        /// Egg cycles.
        public var hatchCounter: UInt8?
        public var captureRate: UInt8?
        /// Base friendship.
        public var baseHappiness: UInt8?
        /// `growth-rate` name (`medium-slow`).
        public var growthRate: String?

        public init(eggGroups: [String], genderRate: Int8?, hatchCounter: UInt8?, captureRate: UInt8?, baseHappiness: UInt8?,
                    growthRate: String?) {
            self.eggGroups = eggGroups
            self.genderRate = genderRate
            self.hatchCounter = hatchCounter
            self.captureRate = captureRate
            self.baseHappiness = baseHappiness
            self.growthRate = growthRate
        }
    }

    public init(id: UInt32, name: String, genus: String, flavorText: String, names: [String: String],
                genera: [String: String]? = nil, flavorTexts: [String: String]? = nil, evolutionChainID: UInt32? = nil,
                breeding: Breeding? = nil) {
        self.breeding = breeding
        self.evolutionChainID = evolutionChainID
        self.id = id
        self.name = name
        self.genus = genus
        self.flavorText = flavorText
        self.names = names
        self.genera = genera
        self.flavorTexts = flavorTexts
    }

    /// The genus in `language`, else English ("" where there is none).
    public func genus(in language: String) -> String { genera.flatMap { LocalizedText.pick($0, language) } ?? genus }
    /// The newest flavour text in `language`, else English ("" where there is none).
    public func flavorText(in language: String) -> String {
        FlavorText.joined(flavorTexts.flatMap { LocalizedText.pick($0, language) } ?? flavorText)
    }
}

/// Flavour text as people read it.
public enum FlavorText {
    /// PokeAPI breaks its lines as the games' text boxes did; they are read as one line (a
    /// space where a break was). Between two Chinese or Japanese letters there is no space:
    /// "皮卡丘喜歡在陽光下午睡", not "皮卡丘喜歡在陽光 下午睡"; the kana texts, which space their
    /// words with ideographic spaces, get one there ("ひかりを　あびて"). Records cached before read
    /// the same.
    public static func joined(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isCJK) else { return text }
        let spaced = text.unicodeScalars.contains("\u{3000}")
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        for (i, u) in scalars.enumerated() {
            if u == " ", i > 0, i + 1 < scalars.count, isCJK(scalars[i - 1]), isCJK(scalars[i + 1]) {
                if spaced, scalars[i - 1] != "\u{3000}", scalars[i + 1] != "\u{3000}" { out.append("\u{3000}") }
                continue
            }
            out.append(u)
        }
        return String(out)
    }

    /// Written without spaces between words: Han, kana, their punctuation and full-width forms
    /// (not Hangul: Korean spaces its words).
    static func isCJK(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x3000...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF00...0xFF9F, 0x20000...0x2FFFF: return true
        default: return false
        }
    }
}

/// The answer to `Detail`.
public struct PokemonDetail: Equatable, Sendable {
    public var id: UInt32
    public var name: String
    /// The Pokédex number the games give it: a form's is its species' (Alolan Raichu is 26); 0
    /// where the service did not say (an older one: ``shownNumber`` then reads the table).
    public var number: UInt32 = 0
    public var height: UInt32
    public var weight: UInt32
    public var types: [String]
    public var abilities: [String]
    public var stats: [PokemonRecord.Stat]
    public var spritePath: String
    public var favorite: Bool
    public var genus: String
    public var flavorText: String
    /// The sprite's dominant colour as `#rrggbb`, or "" while there is no sprite.
    public var color: String
    /// Absolute path of the generation-V animated GIF in the disk cache, or "" where the API has none.
    public var animatedSpritePath: String
    /// Absolute path of the cry in the disk cache, "" until it is fetched (`CryPath`).
    public var cryPath = ""
    /// The name as the games write it ("Mr. Mime", "Alolan Raichu"), in ``language``.
    public var displayName = ""
    /// The PokeAPI code the display texts are in: the genus, the flavour text and the names below
    /// (each in English where the API has none in it).
    public var language = ""
    /// ``types``, ``abilities`` and ``stats`` as the games name them, in the same order; empty
    /// where not asked for (`Detail`) or not known.
    public var typeNames: [String] = []
    public var abilityNames: [String] = []
    public var statNames: [String] = []
    /// Each ability's effect in ``language``, in ``abilities``' order; empty for `Detail`.
    public var abilityEffects: [String] = []
    /// How it breeds and trains, in its newest game; nil from an older service.
    public var training: TrainingFacts?
    /// The family, its first member first and each member after the one it evolves from; empty
    /// where the family is not known (no chain at the API, none on hand offline).
    public var evolution: [EvolutionMember] = []
    /// The attacking types that do not hit it for ×1, strongest first (the current games' chart,
    /// abilities not counted).
    public var matchups: [TypeMatchup] = []
    /// Its abilities that change those matchups, each with what it makes of them (Levitate:
    /// ground ×0), in the order of ``abilities``; nil where the service did not say (an older one).
    public var abilityMatchups: [AbilityMatchup]?

    /// The number a person reads: the service's, else the bundled table's, else the id.
    public var shownNumber: UInt32 { number != 0 ? number : PokedexNumber.shown(id) }

    public init(id: UInt32, name: String, height: UInt32, weight: UInt32, types: [String], abilities: [String],
                stats: [PokemonRecord.Stat], spritePath: String, favorite: Bool, genus: String, flavorText: String,
                color: String = "", animatedSpritePath: String = "") {
        self.id = id
        self.name = name
        self.height = height
        self.weight = weight
        self.types = types
        self.abilities = abilities
        self.stats = stats
        self.spritePath = spritePath
        self.favorite = favorite
        self.genus = genus
        self.flavorText = flavorText
        self.color = color
        self.animatedSpritePath = animatedSpritePath
    }
}
