import FoundationEssentials
@testable import PokedexCore
import PokedexModels

/// The decoders of PokeAPI's bodies as they were before ``JSONReader`` (issue 38), with
/// `JSONDecoder`: the reference the reader's decoders are checked against, body for body.
enum ReferenceDecoding {
    typealias Dropped = PokedexCore.Dropped
    static func checked(_ n: String, _ w: String, _ d: Dropped) -> String? { APIDecoding.checked(n, w, d) }
    static func capped(_ t: String, _ c: Int, _ w: String, _ d: Dropped) -> String { APIDecoding.capped(t, c, w, d) }
    static func capped<T>(_ t: [T], _ c: Int, _ w: String, _ d: Dropped) -> [T] { APIDecoding.capped(t, c, w, d) }
    static func ownName(_ n: String, _ w: String) throws -> String { try APIDecoding.ownName(n, w) }
    static func trailingID(_ u: String) -> UInt32? { APIDecoding.trailingID(u) }
    static func cleanFlavorText(_ t: String) -> String { APIDecoding.cleanFlavorText(t) }
    static func byLanguage<E>(_ e: [E], _ t: KeyPath<E, String>, _ l: KeyPath<E, String>, _ c: Int, _ w: String, _ d: Dropped) -> [String: String] {
        APIDecoding.byLanguage(e, t, l, c, w, d)
    }
    static let maxTypes = APIDecoding.maxTypes, maxAbilities = APIDecoding.maxAbilities, maxStats = APIDecoding.maxStats
    static let maxGenusBytes = APIDecoding.maxGenusBytes, maxFlavorBytes = APIDecoding.maxFlavorBytes
    static let maxLocalizedNameBytes = APIDecoding.maxLocalizedNameBytes

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

    /// Decodes `GET /pokemon/?limit=N`.
    static func index(_ body: [UInt8], dropped: Dropped = { _ in }) throws -> PokemonIndex {
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
        var cries: Cries?
    }
    struct Cries: Decodable { var latest: String?; var legacy: String? }

    /// Decodes `GET /pokemon/{id}`.
    static func pokemon(_ body: [UInt8], dropped: Dropped = { _ in }) throws -> PokemonRecord {
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
            speciesURL: p.species?.url, formURL: p.forms?.first?.url,
            cryURL: p.cries?.latest ?? p.cries?.legacy ?? "")
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
        var evolution_chain: ChainLink?
    }
    struct ChainLink: Decodable { var url: String? }

    /// Decodes `GET /pokemon-species/{id}`.
    static func species(_ body: [UInt8], dropped: Dropped = { _ in }) throws -> SpeciesRecord {
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
                             genera: genera, flavorTexts: flavors,
                             evolutionChainID: s.evolution_chain?.url.flatMap { $0.split(separator: "/").last.flatMap { UInt32($0) } })
    }

    struct Name: Decodable { var name: String; var language: NamedResource }

    struct NamesBody: Decodable {
        var name: String
        var names: [Name]?
        var form_names: [Name]?
    }

    /// Decodes the `names` (and a form's `form_names`) of `GET /type/{name}`, `/ability/{name}`,
    /// `/stat/{name}` or `/pokemon-form/{id}`: only the languages names are shown in.
    static func names(_ body: [UInt8], dropped: Dropped = { _ in }) throws -> NamesRecord {
        let b = try decode(NamesBody.self, body)
        let name = try ownName(b.name, "a named resource")
        return NamesRecord(name: name,
                           names: byLanguage(b.names ?? [], \.name, \.language.name, maxLocalizedNameBytes, "name of \(name)", dropped),
                           formNames: byLanguage(b.form_names ?? [], \.name, \.language.name, maxLocalizedNameBytes,
                                                 "form name of \(name)", dropped))
    }

}
