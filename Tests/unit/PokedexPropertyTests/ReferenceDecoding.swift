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
        struct AbilitySlot: Decodable { var slot: Int; var ability: NamedResource; var is_hidden: Bool? }
        struct StatEntry: Decodable {
            var base_stat: UInt32
            var stat: NamedResource
            var effort: UInt32?
        }
        struct MoveEntry: Decodable {
            var move: NamedResource?
            var version_group_details: [Detail]?
            struct Detail: Decodable {
                var level_learned_at: UInt32?
                var move_learn_method: NamedResource?
                var version_group: NamedResource?
                var order: Int?
            }
        }
        struct HeldItem: Decodable {
            var item: NamedResource
            var version_details: [VersionDetail]?
            struct VersionDetail: Decodable { var rarity: Int; var version: NamedResource }
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
        var moves: [MoveEntry]?
        var held_items: [HeldItem]?
    }
    struct Cries: Decodable { var latest: String?; var legacy: String? }

    /// Decodes `GET /pokemon/{id}`.
    static func pokemon(_ body: [UInt8], dropped: Dropped = { _ in }) throws -> PokemonRecord {
        let p = try decode(PokemonBody.self, body)
        for m in p.moves ?? [] {
            for d in m.version_group_details ?? [] where d.move_learn_method == nil || d.version_group == nil {
                throw PokedexError.unavailable("a move's detail without its method or group")
            }
            if m.move == nil { throw PokedexError.unavailable("a move without its move") }
        }
        let name = try ownName(p.name, "pokemon \(p.id)")
        let learnset = p.moves.map { referenceLearnset($0, of: name, dropped) }
        let types = capped(p.types.sorted { $0.slot < $1.slot }.compactMap { checked($0.type.name, "a type of \(name)", dropped) },
                           maxTypes, "types of \(name)", dropped)
        let abilities = capped(p.abilities.sorted { $0.slot < $1.slot }.compactMap { a in
            checked(a.ability.name, "an ability of \(name)", dropped).map { ($0, a.is_hidden ?? false) }
        }, maxAbilities, "abilities of \(name)", dropped)
        let stats = capped(p.stats.compactMap { s in checked(s.stat.name, "a stat of \(name)", dropped).map { (s, $0) } },
                           maxStats, "stats of \(name)", dropped)
        var r = PokemonRecord(
            id: p.id, name: name, height: p.height ?? 0, weight: p.weight ?? 0,
            types: types,
            abilities: abilities.map(\.0),
            stats: stats.map { .init(name: $0.1, value: $0.0.base_stat) },
            spriteURL: p.sprites?.front_default,
            animatedSpriteURL: p.sprites?.versions?.genV?.blackWhite?.animated?.front_default,
            // "" where the API names none; nil is left to records kept before shiny sprites were.
            shinySpriteURL: p.sprites?.front_shiny ?? "",
            speciesURL: p.species?.url, formURL: p.forms?.first?.url,
            cryURL: p.cries?.latest ?? p.cries?.legacy ?? "")
        r.hiddenAbilities = abilities.map(\.1)
        r.effortYield = stats.compactMap { s, n in (s.effort ?? 0) > 0 ? .init(name: n, value: min(s.effort ?? 0, 3)) : nil }
        var held: [PokemonRecord.HeldItem] = []
        for h in p.held_items ?? [] {
            guard let item = checked(h.item.name, "a held item of \(name)", dropped) else { continue }
            for v in h.version_details ?? [] {
                guard let version = checked(v.version.name, "a version of \(name)'s \(item)", dropped) else { continue }
                guard (1...100).contains(v.rarity) else {
                    dropped("dropped \(item) held by \(name) in \(version): rarity \(v.rarity) is not a percentage")
                    continue
                }
                held.append(.init(item: item, version: version, rarity: UInt8(v.rarity)))
            }
        }
        r.heldItems = capped(held, APIDecoding.maxHeldItems, "held items of \(name)", dropped)
        r.learnset = learnset ?? Learnset()
        return r
    }

    /// The four ways a game's list shows, by group; level-up by level, then the API's order.
    static func referenceLearnset(_ moves: [PokemonBody.MoveEntry], of name: String, _ dropped: Dropped) -> Learnset {
        var refused: [String] = [], overCap = 0, kept = 0
        var read: [String: [(move: UInt32, method: Learnset.Method, level: UInt8, order: Int, index: Int)]] = [:]
        for m in moves {
            guard let move = m.move else { continue }
            let details = (m.version_group_details ?? []).filter { Learnset.Method(rawValue: $0.move_learn_method!.name) != nil }
            if details.isEmpty { continue }
            guard let id = move.url.flatMap(trailingID), id > 0 else {
                refused.append("\"\(move.name.prefix(80))\" has no move id in its URL")
                continue
            }
            for d in details {
                let group = d.version_group!.name, level = d.level_learned_at ?? 0
                guard APIName.isValid(group) else {
                    refused.append("\(move.name.prefix(80)) in version group \"\(group.prefix(80))\", not a PokeAPI name")
                    continue
                }
                guard level <= 100 else { refused.append("\(move.name.prefix(80)) at level \(level), over level 100"); continue }
                guard kept < APIDecoding.maxLearnsetEntries else { overCap += 1; continue }
                let method = Learnset.Method(rawValue: d.move_learn_method!.name)!
                let order = d.order.flatMap { $0 > 0 && $0 <= 255 ? $0 : nil } ?? 256
                read[group, default: []].append((id, method, method == .levelUp ? UInt8(level) : 0, order, kept))
                kept += 1
            }
        }
        for why in refused.prefix(8) { dropped("dropped a move of \(name): " + why) }
        if refused.count > 8 { dropped("dropped \(refused.count - 8) more moves of \(name) for the same reasons") }
        if overCap > 0 { dropped("dropped \(overCap) moves of \(name): over the cap of \(APIDecoding.maxLearnsetEntries)") }
        return Learnset(versionGroups: read.mapValues { entries in
            var g = Learnset.Group()
            g.levelUp = entries.filter { $0.method == .levelUp }.sorted { ($0.level, $0.order, $0.index) < ($1.level, $1.order, $1.index) }
                .map { ($0.move, $0.level) }
            g.machine = entries.filter { $0.method == .machine }.map(\.move)
            g.egg = entries.filter { $0.method == .egg }.map(\.move)
            g.tutor = entries.filter { $0.method == .tutor }.map(\.move)
            return g
        })
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
        var egg_groups: [NamedResource]?
        var gender_rate: Int?
        var hatch_counter: Int?
        var capture_rate: Int?
        var base_happiness: Int?
        var growth_rate: NamedResource?
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
        func ranged(_ v: Int?, _ range: ClosedRange<Int>, _ what: String) -> Int? {
            guard let v else { return nil }
            guard range.contains(v) else { dropped("dropped the \(what) of \(name): \(v) is outside \(range)"); return nil }
            return v
        }
        let groups = (s.egg_groups ?? []).compactMap { checked($0.name, "an egg group of \(name)", dropped) }
        let breeding = SpeciesRecord.Breeding(
            eggGroups: capped(groups, APIDecoding.maxEggGroups, "egg groups of \(name)", dropped),
            genderRate: ranged(s.gender_rate, -1...8, "gender rate").map { Int8($0) },
            hatchCounter: ranged(s.hatch_counter, 0...255, "egg cycles").map { UInt8($0) },
            captureRate: ranged(s.capture_rate, 0...255, "catch rate").map { UInt8($0) },
            baseHappiness: ranged(s.base_happiness, 0...255, "base friendship").map { UInt8($0) },
            growthRate: s.growth_rate.flatMap { checked($0.name, "the growth rate of \(name)", dropped) })
        return SpeciesRecord(id: s.id, name: name, genus: genera["en"] ?? "", flavorText: flavors["en"] ?? "", names: names,
                             genera: genera, flavorTexts: flavors,
                             evolutionChainID: s.evolution_chain?.url.flatMap { $0.split(separator: "/").last.flatMap { UInt32($0) } },
                             breeding: breeding)
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
