import PokedexModels

/// A `SpeciesRecord` and a sprite's `Meta` written member by member, as a Pokémon's is
/// (RecordJSON+Pokemon.swift): a sync writes 1,025 of the one (their texts in a dozen
/// languages) and 1,340 of the other. The same bytes as their synthesised `encode(to:)` gives
/// through ``RecordJSON``'s `Encoder`, which a property test compares byte for byte; a member
/// added to either must be added here too.
extension RecordJSON {
    static func species(_ s: SpeciesRecord) -> [UInt8] {
        let w = Members(Sink())
        w.key("id", first: true); w.sink.integer(s.id)
        w.key("name"); w.sink.string(s.name)
        w.key("genus"); w.sink.string(s.genus)
        w.key("flavorText"); w.sink.string(s.flavorText)
        w.key("names"); w.dictionary(s.names)
        if let genera = s.genera { w.key("genera"); w.dictionary(genera) }
        if let texts = s.flavorTexts { w.key("flavorTexts"); w.dictionary(texts) }
        w.optional("evolutionChainID", s.evolutionChainID)
        if let b = s.breeding {
            w.key("breeding")
            w.key("eggGroups", first: true); w.strings(b.eggGroups)
            w.optional("genderRate", b.genderRate)
            w.optional("hatchCounter", b.hatchCounter)
            w.optional("captureRate", b.captureRate)
            w.optional("baseHappiness", b.baseHappiness)
            w.optional("growthRate", b.growthRate)
            w.sink.bytes.append(UInt8(ascii: "}"))
        }
        w.sink.bytes.append(UInt8(ascii: "}"))
        return w.sink.bytes
    }

    static func spriteMeta(_ m: SpriteCache.Meta) -> [UInt8] {
        let w = Members(Sink())
        w.key("url", first: true); w.sink.string(m.url)
        w.key("size"); w.sink.integer(m.size)
        w.key("crc32"); w.sink.integer(m.crc32)
        w.optional("color", m.color)
        w.sink.bytes.append(UInt8(ascii: "}"))
        return w.sink.bytes
    }
}
