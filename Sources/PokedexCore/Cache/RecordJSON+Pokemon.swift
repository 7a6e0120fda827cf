import PokedexModels

/// A `PokemonRecord` written member by member, without an `Encoder`: the record a sync writes
/// 1,351 times, and the largest (its learnset). Through the `Encodable` machinery each of its
/// thousand values went through a generic call, a type check and a container (issue 58: the
/// records' encoding was 5% of a sync's CPU, the Pokémon's half of it).
///
/// The bytes are those its synthesised `encode(to:)` gives through ``RecordJSON/encode(_:)``'s
/// `Encoder` (keys in declaration order, an absent optional left out), which a property test
/// compares byte for byte: what reads the record back is `JSONDecoder`, as before. A member
/// added to `PokemonRecord` must be added here too; the test fails until it is.
extension RecordJSON {
    static func pokemon(_ p: PokemonRecord) -> [UInt8] {
        let w = Members(Sink())
        w.key("id", first: true); w.sink.integer(p.id)
        w.key("name"); w.sink.string(p.name)
        w.key("height"); w.sink.integer(p.height)
        w.key("weight"); w.sink.integer(p.weight)
        w.key("types"); w.strings(p.types)
        w.key("abilities"); w.strings(p.abilities)
        w.key("stats"); w.stats(p.stats)
        w.optional("spriteURL", p.spriteURL)
        w.optional("animatedSpriteURL", p.animatedSpriteURL)
        w.optional("shinySpriteURL", p.shinySpriteURL)
        w.optional("speciesURL", p.speciesURL)
        w.optional("cryURL", p.cryURL)
        w.optional("formURL", p.formURL)
        if let hidden = p.hiddenAbilities {
            w.key("hiddenAbilities")
            w.list(hidden) { w, b in w.sink.literal(b ? "true" : "false") }
        }
        if let effort = p.effortYield { w.key("effortYield"); w.stats(effort) }
        if let held = p.heldItems {
            w.key("heldItems")
            w.list(held) { w, h in
                w.key("item", first: true); w.sink.string(h.item)
                w.key("version"); w.sink.string(h.version)
                w.key("rarity"); w.sink.integer(h.rarity)
                w.sink.bytes.append(UInt8(ascii: "}"))
            }
        }
        if let learnset = p.learnset {
            w.key("learnset")
            w.key("versionGroups", first: true)
            w.dictionary(learnset.versionGroups) { w, g in w.group(g) }
            w.sink.bytes.append(UInt8(ascii: "}"))
        }
        w.sink.bytes.append(UInt8(ascii: "}"))
        return w.sink.bytes
    }
}
