import FoundationEssentials

/// Says what a body held that is not PokeAPI's shape and was dropped: one line per entry.
public typealias Dropped = (String) -> Void

/// Turns PokeAPI's JSON bodies into the compact records the service keeps.
/// Only the fields the service answers with are decoded; the rest is skipped.
///
/// Nothing in a body is trusted. A machine name that is not PokeAPI's shape (``APIName``) is
/// dropped with its entry, and a display text over its cap is dropped too, each said to
/// `dropped`; a record whose own name is not a name is refused whole. What is dropped is never
/// stored.
public enum APIDecoding {
    /// Display text caps, in bytes: far over any real genus (`Mouse Pokémon`), flavour text or
    /// localized name.
    public static let maxGenusBytes = 256
    public static let maxFlavorBytes = 2048
    public static let maxLocalizedNameBytes = 128
    /// The most types, abilities and stats a Pokémon keeps (the games have 2, 3 and 6): each
    /// is a resource `LocalizedDetail` reads, so a body cannot make one call a storm of requests.
    public static let maxTypes = 8
    public static let maxAbilities = 16
    public static let maxStats = 16

    /// `name` if it is a PokeAPI name; otherwise nil, said to `dropped`.
    static func checked(_ name: String, _ what: String, _ dropped: Dropped) -> String? {
        if APIName.isValid(name) { return name }
        dropped("dropped \(what) \"\(name.prefix(80))\": not a PokeAPI name")
        return nil
    }

    /// Display text within its cap; otherwise empty, said to `dropped`.
    static func capped(_ text: String, _ cap: Int, _ what: String, _ dropped: Dropped) -> String {
        guard text.utf8.count > cap else { return text }
        dropped("dropped \(what): \(text.utf8.count) bytes, over its cap of \(cap)")
        return ""
    }

    /// The first `cap` of a list; the rest dropped, said to `dropped`.
    static func capped<T>(_ items: [T], _ cap: Int, _ what: String, _ dropped: Dropped) -> [T] {
        guard items.count > cap else { return items }
        dropped("dropped \(items.count - cap) \(what): over the cap of \(cap)")
        return Array(items.prefix(cap))
    }

    /// Whether texts by language (a record's, read back from the disk) hold only languages
    /// names are shown in, each within `cap` bytes.
    static func withinCaps(_ texts: [String: String]?, _ cap: Int) -> Bool {
        guard let texts else { return true }
        return texts.count <= NameLanguage.available.count
            && texts.allSatisfy { NameLanguage.available.contains($0.key) && $0.value.utf8.count <= cap }
    }

    /// A record's own name: one that is not a name makes the body unusable.
    static func ownName(_ name: String, _ what: String) throws -> String {
        guard APIName.isValid(name) else { throw PokedexError.unavailable("\(what) is named \"\(name.prefix(80))\", which is not a PokeAPI name") }
        return name
    }
    struct NamedResource: Decodable { var name: String; var url: String? }

    struct ListBody: Decodable {
        var count: UInt32
        var results: [NamedResource]
    }

    /// Decodes a JSON body in place: no copy of a 300–600 KB body into a `Data` first.
    static func decode<T: Decodable>(_ type: T.Type, _ body: [UInt8]) throws -> T {
        try body.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, !raw.isEmpty else { return try JSONDecoder().decode(T.self, from: Data()) }
            // The Data lives only for this call: JSONDecoder keeps nothing of it.
            return try JSONDecoder().decode(T.self, from: Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base),
                                                                 count: raw.count, deallocator: .none))
        }
    }

    /// The id at the end of a resource URL: `…/pokemon/25/` → 25.
    static func trailingID(_ url: String) -> UInt32? {
        url.split(separator: "/").last.flatMap { UInt32($0) }
    }

    /// Decodes `GET /pokemon/?limit=N`.
    public static func index(_ body: [UInt8], dropped: Dropped = { _ in }) throws -> PokemonIndex {
        let list = try decode(ListBody.self, body)
        var items: [PokemonIndex.Item] = []
        items.reserveCapacity(list.results.count)
        var seen = Set<String>()
        for r in list.results {
            guard let url = r.url, let id = trailingID(url), id > 0 else { continue }
            guard let name = checked(r.name, "a list entry", dropped) else { continue }
            guard seen.insert(name).inserted else { dropped("dropped a second list entry named \(name)"); continue }
            items.append(.init(id: id, name: name))
        }
        return PokemonIndex(items: items, total: list.count)
    }

    struct PokemonBody: Decodable {
        struct TypeSlot: Decodable { var slot: Int; var type: NamedResource }
        struct AbilitySlot: Decodable { var slot: Int; var ability: NamedResource }
        struct StatEntry: Decodable {
            var base_stat: UInt32
            var stat: NamedResource
        }
        struct Sprites: Decodable {
            var front_default: String?
            var front_shiny: String?
            var versions: Versions?
            struct Versions: Decodable {
                var genV: GenV?
                enum CodingKeys: String, CodingKey { case genV = "generation-v" }
            }
            struct GenV: Decodable {
                var blackWhite: BlackWhite?
                enum CodingKeys: String, CodingKey { case blackWhite = "black-white" }
            }
            struct BlackWhite: Decodable {
                var animated: Animated?
                struct Animated: Decodable { var front_default: String? }
            }
        }
        var id: UInt32
        var name: String
        var forms: [NamedResource]?
        var height: UInt32?
        var weight: UInt32?
        var types: [TypeSlot]
        var abilities: [AbilitySlot]
        var stats: [StatEntry]
        var sprites: Sprites?
        var species: NamedResource?
    }

    /// Decodes `GET /pokemon/{id}`.
    public static func pokemon(_ body: [UInt8], dropped: Dropped = { _ in }) throws -> PokemonRecord {
        let p = try decode(PokemonBody.self, body)
        let name = try ownName(p.name, "pokemon \(p.id)")
        return PokemonRecord(
            id: p.id, name: name, height: p.height ?? 0, weight: p.weight ?? 0,
            types: capped(p.types.sorted { $0.slot < $1.slot }.compactMap { checked($0.type.name, "a type of \(name)", dropped) },
                          maxTypes, "types of \(name)", dropped),
            abilities: capped(p.abilities.sorted { $0.slot < $1.slot }.compactMap { checked($0.ability.name, "an ability of \(name)", dropped) },
                              maxAbilities, "abilities of \(name)", dropped),
            stats: capped(p.stats.compactMap { s in checked(s.stat.name, "a stat of \(name)", dropped).map { .init(name: $0, value: s.base_stat) } },
                          maxStats, "stats of \(name)", dropped),
            spriteURL: p.sprites?.front_default,
            animatedSpriteURL: p.sprites?.versions?.genV?.blackWhite?.animated?.front_default,
            // "" where the API names none; nil is left to records kept before shiny sprites were.
            shinySpriteURL: p.sprites?.front_shiny ?? "",
            speciesURL: p.species?.url, formURL: p.forms?.first?.url)
    }

    struct SpeciesBody: Decodable {
        struct Genus: Decodable { var genus: String; var language: NamedResource }
        struct Flavor: Decodable { var flavor_text: String; var language: NamedResource }
        struct Name: Decodable { var name: String; var language: NamedResource }
        var id: UInt32
        var name: String
        var genera: [Genus]?
        var flavor_text_entries: [Flavor]?
        var names: [Name]?
    }

    /// Decodes `GET /pokemon-species/{id}`.
    public static func species(_ body: [UInt8], dropped: Dropped = { _ in }) throws -> SpeciesRecord {
        let s = try decode(SpeciesBody.self, body)
        let name = try ownName(s.name, "pokemon-species \(s.id)")
        // Each language's newest flavour text: the oldest games shout "POKéMON" in capitals.
        let genera = byLanguage(s.genera ?? [], \.genus, \.language.name, maxGenusBytes, "genus of \(name)", dropped)
        let flavors = byLanguage(s.flavor_text_entries ?? [], \.flavor_text, \.language.name, maxFlavorBytes,
                                 "flavour text of \(name)", dropped).mapValues(cleanFlavorText)
        var names: [String: String] = [:]
        for n in s.names ?? [] {
            guard APIName.isLanguageCode(n.language.name) else {
                dropped("dropped a name of \(name) in language \"\(n.language.name.prefix(40))\": not a language code")
                continue
            }
            let text = capped(n.name, maxLocalizedNameBytes, "the \(n.language.name) name of \(name)", dropped)
            if !text.isEmpty { names[n.language.name] = text }
        }
        return SpeciesRecord(id: s.id, name: name, genus: genera["en"] ?? "", flavorText: flavors["en"] ?? "", names: names,
                             genera: genera, flavorTexts: flavors)
    }

    /// Removes the API's form feeds, soft hyphens and hard line breaks, and folds spaces (a
    /// line break between Chinese or Japanese letters is joined as they are read:
    /// ``FlavorText/joined(_:)``).
    public static func cleanFlavorText(_ text: String) -> String {
        var out = ""
        var lastWasSpace = true
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\u{0C}", "\n", "\r", "\t", " ", "\u{A0}":
                if !lastWasSpace { out.unicodeScalars.append(" "); lastWasSpace = true }
            case "\u{AD}":
                continue
            default:
                out.unicodeScalars.append(scalar)
                lastWasSpace = false
            }
        }
        if out.hasSuffix(" ") { out.removeLast() }
        return out
    }
}
