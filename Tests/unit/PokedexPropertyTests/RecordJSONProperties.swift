import FoundationEssentials
@testable import PokedexCore
import PokedexModels
import PropertyBased
import Testing

/// Issue 38: the cache's records are written by ``RecordJSON`` rather than `JSONEncoder`, and
/// still read by `JSONDecoder`. Random records of every kind the cache keeps, with strings of
/// every awkward sort (controls, quotes, backslashes, astral and combining characters) and
/// numbers at their edges: what is written is JSON (``StrictJSON``) and reads back as the very
/// same record. A failure prints the seed that replays it.
@Suite struct RecordJSONProperties {
    @Test func recordsReadBackTheSame() async {
        await propertyCheck(count: PropertyCounts.cases(500), input: Gen.uint64()) { seed in
            var g = RecordGen(seed: seed)
            roundTrip(g.pokemon(), seed)
            roundTrip(g.species(), seed)
            roundTrip(NamesRecord(name: g.text(), names: g.texts(), formNames: g.texts(), effects: g.maybeTexts()), seed)
            roundTrip(g.move(), seed)
            roundTrip(SearchFilters(types: g.idLists(), generations: g.generations(), speciesIDs: g.ids()), seed)
            roundTrip(SpriteCache.Meta(url: g.text(), size: g.int(), crc32: g.uint32(), color: g.maybeText()), seed)
        }
    }

    /// Issue 58: a Pokémon's, a species' and a sprite's records are written by hand, the very
    /// bytes their `Encodable` conformance gives through the `Encoder` (which is what
    /// `JSONDecoder` reads back).
    @Test func recordsWrittenByHandAreTheEncodersBytes() async {
        func same<T: Encodable>(_ value: T, _ byHand: (T) -> [UInt8], _ seed: UInt64) {
            let bytes = byHand(value), encoded = try? RecordJSON.encodeWithEncoder(value)
            #expect(bytes == encoded, "seed \(seed): \(String(decoding: bytes, as: UTF8.self))")
            #expect((try? RecordJSON.encode(value)) == bytes, "seed \(seed)")
        }
        await propertyCheck(count: PropertyCounts.cases(500), input: Gen.uint64()) { seed in
            var g = RecordGen(seed: seed)
            same(g.pokemon(), RecordJSON.pokemon, seed)
            same(g.species(), RecordJSON.species, seed)
            same(SpriteCache.Meta(url: g.text(), size: g.int(), crc32: g.uint32(), color: g.maybeText()), RecordJSON.spriteMeta, seed)
        }
    }

    /// A whole pack entry: head (key, ETag, times), as the disk tier reads it, and payload.
    @Test func packEntriesReadBackTheSame() async {
        await propertyCheck(count: PropertyCounts.cases(300), input: Gen.uint64()) { seed in
            var g = RecordGen(seed: seed)
            let record = StoredRecord(payload: Array(g.text().utf8),
                                      freshness: Freshness(etag: g.maybeText(), fetchedAt: Date(timeIntervalSince1970: g.double()), maxAge: g.double()))
            let key = g.text()
            guard let (entry, bytes) = PackEntry.encode(key: key, record) else {
                #expect(key.isEmpty || key.utf8.count > PackEntry.maxKeyBytes || (record.freshness.etag?.utf8.count ?? 0) > PackEntry.maxETagBytes,
                        "seed \(seed): not written")
                return
            }
            let parsed = bytes.withUnsafeBytes { PackEntry.parse($0) }
            #expect(parsed == entry, "seed \(seed)")
            #expect(parsed?.key == key && parsed?.freshness == record.freshness && parsed?.length == bytes.count, "seed \(seed)")
            let payload = Array(bytes[(parsed?.payloadOffset ?? 0)...])
            #expect(payload == record.payload && CRC32.checksum(payload) == entry.payloadCRC, "seed \(seed)")
        }
    }

    @Test func valuesWithNothingInThemAreEmptyObjects() throws {
        struct Nothing: Codable, Equatable {
            func encode(to encoder: any Encoder) throws {}
            init() {}
            init(from decoder: any Decoder) throws {}
        }
        struct Holder: Codable, Equatable { var a: [Nothing]; var b: Nothing; var c: Int }
        let bytes = try RecordJSON.encode(Holder(a: [Nothing(), Nothing()], b: Nothing(), c: 3))
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"a":[{},{}],"b":{},"c":3}"#)
        #expect(try RecordJSON.encode(Nothing()) == Array("{}".utf8))
    }

    @Test func refusesWhatJSONCannotSay() {
        #expect(throws: EncodingError.self) { try RecordJSON.encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try RecordJSON.encode(["a": Double.infinity]) }
    }

    func roundTrip<T: Codable & Equatable>(_ value: T, _ seed: UInt64) {
        do {
            let bytes = try RecordJSON.encode(value)
            #expect(StrictJSON.isValid(bytes), "seed \(seed): not JSON: \(String(decoding: bytes, as: UTF8.self))")
            let back = try JSONDecoder().decode(T.self, from: Data(bytes))
            #expect(back == value, "seed \(seed): \(String(decoding: bytes, as: UTF8.self))")
        } catch {
            Issue.record("seed \(seed): \(error)")
        }
    }
}

/// Random records, their strings and numbers chosen to meet every branch of the writer.
struct RecordGen {
    var rng: SplitMix64
    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func below(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
    mutating func bool() -> Bool { rng.next() & 1 == 0 }
    mutating func maybeText() -> String? { bool() ? text() : nil }
    mutating func maybeTexts() -> [String: String]? { bool() ? texts() : nil }
    mutating func uint32() -> UInt32 { [0, 1, 9, 10, UInt32.max, UInt32(truncatingIfNeeded: rng.next())][below(6)] }
    mutating func int() -> Int { [0, -1, 10, Int.min, Int.max, Int(truncatingIfNeeded: rng.next())][below(6)] }

    /// Finite doubles: whole, tiny, huge, negative zero, and any bit pattern.
    mutating func double() -> Double {
        switch below(6) {
        case 0: return Double(below(1_000_000))
        case 1: return -0.0
        case 2: return 1795747294.7618415
        case 3: return Double.leastNonzeroMagnitude
        case 4: return -Double.greatestFiniteMagnitude
        default:
            let d = Double(bitPattern: rng.next())
            return d.isFinite ? d : 0.5
        }
    }

    mutating func text() -> String {
        let pieces: [String] = ["a", "Pikachu", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "\u{85}",
                                "\u{2028}", "é", "e\u{301}", "ピカチュウ", "🐭", "\u{10FFFF}", "/", " ", "\u{FEFF}", "{}[],:"]
        return (0..<below(8)).map { _ in pieces[below(pieces.count)] }.joined()
    }

    mutating func texts() -> [String: String] {
        var out: [String: String] = [:]
        for _ in 0..<below(5) { out[text()] = text() }
        return out
    }

    mutating func ids() -> [String: UInt32] {
        var out: [String: UInt32] = [:]
        for _ in 0..<below(5) { out[text()] = uint32() }
        return out
    }

    mutating func idLists() -> [String: [UInt32]] {
        var out: [String: [UInt32]] = [:]
        for _ in 0..<below(4) { out[text()] = (0..<below(4)).map { _ in uint32() } }
        return out
    }

    mutating func generations() -> [Int: [UInt32]] {
        var out: [Int: [UInt32]] = [:]
        for _ in 0..<below(4) { out[int()] = (0..<below(4)).map { _ in uint32() } }
        return out
    }

    mutating func pokemon() -> PokemonRecord {
        var p = PokemonRecord(id: uint32(), name: text(), height: uint32(), weight: uint32(),
                      types: (0..<below(3)).map { _ in text() }, abilities: (0..<below(3)).map { _ in text() },
                      stats: (0..<below(7)).map { _ in .init(name: text(), value: uint32()) },
                      spriteURL: maybeText(), animatedSpriteURL: maybeText(), shinySpriteURL: maybeText(),
                      speciesURL: maybeText(), formURL: maybeText(), cryURL: maybeText())
        guard below(4) > 0 else { return p }
        p.hiddenAbilities = p.abilities.map { _ in below(2) == 0 }
        p.effortYield = (0..<below(3)).map { _ in .init(name: text(), value: UInt32(below(4))) }
        p.heldItems = (0..<below(3)).map { _ in .init(item: text(), version: text(), rarity: UInt8(below(101))) }
        var learnset = Learnset()
        for _ in 0..<below(3) {
            var g = Learnset.Group()
            g.levelUp = (0..<below(5)).map { _ in (uint32(), UInt8(below(101))) }
            g.machine = (0..<below(4)).map { _ in uint32() }
            g.egg = (0..<below(3)).map { _ in uint32() }
            g.tutor = (0..<below(2)).map { _ in uint32() }
            learnset.versionGroups[text()] = g
        }
        p.learnset = learnset
        return p
    }

    mutating func move() -> MoveRecord {
        MoveRecord(id: uint32(), name: text(), names: texts(), type: text(), damageClass: text(),
                   power: below(2) == 0 ? nil : UInt16(below(251)), accuracy: below(2) == 0 ? nil : UInt8(below(101)),
                   pp: below(2) == 0 ? nil : UInt8(below(41)))
    }

    mutating func species() -> SpeciesRecord {
        SpeciesRecord(id: uint32(), name: text(), genus: text(), flavorText: text(), names: texts(),
                      genera: maybeTexts(), flavorTexts: maybeTexts(), evolutionChainID: below(2) == 0 ? nil : uint32(),
                      breeding: below(3) == 0 ? nil : .init(eggGroups: (0..<below(3)).map { _ in text() },
                                                            genderRate: below(4) == 0 ? nil : Int8(below(10)) - 1,
                                                            hatchCounter: below(4) == 0 ? nil : UInt8(below(256)),
                                                            captureRate: below(2) == 0 ? nil : UInt8(below(256)),
                                                            baseHappiness: below(4) == 0 ? nil : UInt8(below(256)), growthRate: maybeText()))
    }
}
