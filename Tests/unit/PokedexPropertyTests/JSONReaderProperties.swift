@testable import PokedexCore
import PokedexModels
import PropertyBased
import Testing

/// Issue 38: PokeAPI's bodies are read by ``JSONReader``, which builds only what the records
/// keep. Random bodies of each shape, with random members it skips, random white space and
/// random damage (a byte changed, removed or added, the body cut): where the body is JSON
/// (RFC 8259, checked by ``StrictJSON``), the reader's decoders accept exactly what
/// `JSONDecoder` accepted (``ReferenceDecoding``), build the same records and say the same about
/// what they dropped; where it is not, they refuse it (`JSONDecoder` let some of it through in
/// what it skipped: a leading zero, a bad escape, a control character, bytes that are not
/// UTF-8). A failure prints the seed that replays it.
@Suite struct JSONReaderProperties {
    @Test func pokemonBodiesDecodeAsWithJSONDecoder() async {
        await propertyCheck(count: PropertyCounts.cases(600), input: Gen.uint64()) { seed in
            var g = BodyGen(seed: seed)
            let body = g.damaged(g.pokemon())
            same(body, seed, ReferenceDecoding.pokemon, APIDecoding.pokemon)
        }
    }

    /// Issue 58: a `moves` array of many entries, half of their objects in PokeAPI's own order
    /// (the reader's shortcut for them), half in any order with members it skips.
    @Test func learnsetsDecodeAsWithJSONDecoder() async {
        await propertyCheck(count: PropertyCounts.cases(600), input: Gen.uint64()) { seed in
            var g = BodyGen(seed: seed)
            let moves = g.list({ g in g.move() }, 24)
            same(g.damaged(BodyGen.pokemon(moves: moves, g.ws())), seed, ReferenceDecoding.pokemon, APIDecoding.pokemon)
        }
    }

    /// The ways and version groups a body repeats (a reader steps over the bytes of one it read
    /// before): drawn from a few, written once each, some alike in their first bytes or all
    /// but their last; a damaged copy is no longer the bytes read before.
    @Test func learnsetsOfRecurringObjectsDecodeAsWithJSONDecoder() async {
        await propertyCheck(count: PropertyCounts.cases(600), input: Gen.uint64()) { seed in
            var g = BodyGen(seed: seed)
            let methods = ["level-up", "machine", "egg", "tutor", "form-change", "level-up"].map { g.resource($0) }
            let groups = ["legends-arceus", "legends-za", "x-y", "x-y", "scarlet-violet", "Bad Group", "red-blue"].map { g.resource($0) }
            let damage = g.chance(0.3)
            let pools = (methods: methods.map { damage ? g.damagedText($0) : $0 }, groups: groups.map { damage ? g.damagedText($0) : $0 })
            let moves = g.list({ g in g.move(pools: pools) }, 40)
            same(g.damaged(BodyGen.pokemon(moves: moves, g.ws())), seed, ReferenceDecoding.pokemon, APIDecoding.pokemon)
        }
    }

    @Test func speciesBodiesDecodeAsWithJSONDecoder() async {
        await propertyCheck(count: PropertyCounts.cases(600), input: Gen.uint64()) { seed in
            var g = BodyGen(seed: seed)
            g.repeatingLanguages()
            let body = g.damaged(g.species())
            same(body, seed, ReferenceDecoding.species, APIDecoding.species)
        }
    }

    /// Issue 58: a species' genera and flavour texts and an ability's effects are read keeping
    /// only each language's newest text (``JSONReader/newestByLanguage(_:only:cap:)``); what it
    /// keeps, refuses and says is what keeping every text and then ``APIDecoding/byLanguage``
    /// kept, refused and said, over arrays of texts empty, short, over caps small and large,
    /// escaped, in languages kept, not kept and in capitals, damaged or not.
    @Test func newestTextsAreWhatTheWholeListKept() async {
        await propertyCheck(count: PropertyCounts.cases(600), input: Gen.uint64()) { seed in
            var g = BodyGen(seed: seed)
            g.repeatingLanguages()
            let field = ["flavor_text", "short_effect", "genus"][g.int(0...2)]
            let cap = [0, 4, 24, 256, 2048][g.int(0...4)]
            let body = g.damaged(Array(g.list({ g in g.languageText(field) }, 12).utf8))
            let before = NoteBox(), now = NoteBox()
            let whole = try? APIDecoding.reading(body) { (r) throws(JSONReader.Failure) in
                try r.languageTexts(field, only: APIDecoding.shown)
            }
            let kept = whole.map { APIDecoding.byLanguage($0, \.text, \.language, cap, "text of x", { before.add($0) }) }
            let newest = try? APIDecoding.reading(body) { (r) throws(JSONReader.Failure) in
                try r.newestByLanguage(field, only: APIDecoding.shown, cap: cap)
            }.kept("text of x", cap: cap, { now.add($0) })
            #expect(newest == kept, "seed \(seed): \(String(decoding: body, as: UTF8.self))")
            #expect(now.lines == before.lines, "seed \(seed)")
        }
    }

    @Test func listAndNamesBodiesDecodeAsWithJSONDecoder() async {
        await propertyCheck(count: PropertyCounts.cases(400), input: Gen.uint64()) { seed in
            var g = BodyGen(seed: seed)
            same(g.damaged(g.list()), seed, ReferenceDecoding.index, APIDecoding.index)
            g.repeatingLanguages()
            same(g.damaged(g.names()), seed, ReferenceDecoding.names, APIDecoding.names)
        }
    }

    /// Both accept or both refuse; when both accept, the same value and the same notes.
    func same<T: Equatable>(_ body: [UInt8], _ seed: UInt64, _ reference: ([UInt8], @escaping Dropped) throws -> T,
                            _ reader: ([UInt8], @escaping Dropped) throws -> T) {
        let refNotes = NoteBox(), newNotes = NoteBox()
        var why = ["", ""]
        let expected: T?, actual: T?
        do { expected = try reference(body) { refNotes.add($0) } } catch { expected = nil; why[0] = "\(error)" }
        do { actual = try reader(body) { newNotes.add($0) } } catch { actual = nil; why[1] = "\(error)" }
        let text = String(decoding: body, as: UTF8.self)
        let json = StrictJSON.isValid(body)
        // An object that names a member twice (damage can make one: "names" losing its "s"):
        // RFC 8259 leaves what that means open. JSONDecoder keeps the first, the reader may
        // refuse; both ran without trapping, and neither answer is wrong.
        if json, !StrictJSON.namesAreUnique(body) { return }
        #expect(actual == (json ? expected : nil),
                "seed \(seed): \(json ? "JSON" : "not JSON"); JSONDecoder \(expected.map { "\($0)" } ?? "refused: \(why[0])"), the reader \(actual.map { "\($0)" } ?? "refused: \(why[1])"): \(text)")
        if expected != nil, actual != nil { #expect(refNotes.lines == newNotes.lines, "seed \(seed)") }
    }
}

final class NoteBox: @unchecked Sendable {
    var lines: [String] = []
    func add(_ line: String) { lines.append(line) }
}

/// Random JSON bodies in PokeAPI's shapes.
struct BodyGen {
    var rng: SplitMix64
    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func int(_ r: ClosedRange<Int>) -> Int { Int.random(in: r, using: &rng) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

    /// Space between tokens as PokeAPI (none), Python's json.dumps (one) or a pretty printer sends it.
    mutating func ws() -> String { ["", "", " ", "\n  ", "\t", "\r\n"][int(0...5)] }

    mutating func name() -> String {
        let names = ["pikachu", "raichu-alola", "mr-mime", "electric", "static", "hp", "en", "ja-hrkt", "Bad Name", "", "x".padding(toLength: 90, withPad: "y", startingAt: 0)]
        return names[int(0...names.count - 1)]
    }

    /// A JSON string literal: plain, with escapes, with non-ASCII letters.
    mutating func string(_ s: String? = nil) -> String {
        var text = s ?? ["Mouse Pokémon", "ピカチュウ", "line\\nbreak", "tab\\there", "quote \\\" and \\\\", "\\u00e9t\\u00e9", "\\ud83d\\ude00", "", "a/b\\/c"][int(0...8)]
        if s == nil && chance(0.05) { text = String(repeating: "long ", count: int(30...700)) }
        return "\"\(text)\""
    }

    mutating func number() -> String { ["0", "25", "-3", "4294967295", "4294967296", "1.5", "2e3", "007", "-0", "1E+2"][int(0...9)] }

    mutating func resource(_ n: String? = nil) -> String {
        var members = ["\"name\":\(ws())\(string(n ?? name()))"]
        if chance(0.9) { members.append("\"url\":\(ws())\(chance(0.1) ? "null" : string("https://pokeapi.co/api/v2/x/\(int(1...20))/"))") }
        return object(members, inOrder: chance(0.5))
    }

    /// Any JSON value, as the members the decoders skip hold them.
    mutating func value(_ depth: Int = 0) -> String {
        switch depth > 3 ? int(0...3) : int(0...5) {
        case 0: return string()
        case 1: return number()
        case 2: return ["true", "false", "null"][int(0...2)]
        case 3: return resource()
        case 4: return "[" + (0..<int(0...4)).map { _ in value(depth + 1) }.joined(separator: ",\(ws())") + "]"
        default: return object((0..<int(0...3)).map { i in "\"k\(i)\":\(ws())\(value(depth + 1))" })
        }
    }

    /// `inOrder`: the members as given, as PokeAPI writes them (the reader's shortcut for
    /// them, issue 58); else in any order, with skipped ones between.
    mutating func object(_ members: [String], inOrder: Bool = false) -> String {
        var m = members
        if !inOrder {
            for _ in 0..<int(0...2) { m.insert("\"extra\(int(0...999))\":\(ws())\(value())", at: int(0...m.count)) }
            m.shuffle(using: &rng)
        }
        return "{\(ws())" + m.joined(separator: ",\(ws())") + "\(ws())}"
    }

    mutating func list(_ make: (inout BodyGen) -> String, _ max: Int = 4) -> String {
        "[" + (0..<int(0...max)).map { _ in make(&self) }.joined(separator: ",\(ws())") + "]"
    }

    mutating func maybe(_ key: String, _ make: (inout BodyGen) -> String) -> [String] {
        switch int(0...9) {
        case 0: return []
        case 1: return ["\"\(key)\":\(ws())null"]
        default: return ["\"\(key)\":\(ws())\(make(&self))"]
        }
    }

    mutating func pokemon() -> [UInt8] {
        var m: [String] = ["\"id\":\(ws())\(chance(0.9) ? String(int(1...1025)) : number())",
                           "\"name\":\(ws())\(string(chance(0.9) ? "pikachu" : name()))"]
        m += maybe("types") { g in g.list { g in g.object(["\"slot\": \(g.int(1...3))", "\"type\": \(g.resource())"]) } }
        m += maybe("abilities") { g in
            g.list { g in g.object(["\"slot\": \(g.int(1...3))", "\"ability\": \(g.resource())"] + g.maybe("is_hidden") { g in g.chance(0.9) ? "true" : g.value() }) }
        }
        m += maybe("stats") { g in
            g.list { g in
                g.object(["\"base_stat\": \(g.chance(0.9) ? String(g.int(1...255)) : g.number())", "\"stat\": \(g.resource())"]
                         + g.maybe("effort") { g in g.chance(0.8) ? String(g.int(0...4)) : g.number() })
            }
        }
        m += maybe("held_items") { g in
            g.list { g in
                g.object(g.maybe("item") { g in g.resource() } + g.maybe("version_details") { g in
                    g.list { g in
                        g.object(g.maybe("rarity") { g in String(g.int(-1...101)) } + g.maybe("version") { g in g.resource() })
                    }
                })
            }
        }
        m += maybe("height") { g in g.chance(0.9) ? String(g.int(1...200)) : g.number() }
        m += maybe("weight") { g in String(g.int(1...9999)) }
        m += maybe("forms") { g in g.list { g in g.resource() } }
        m += maybe("species") { g in g.resource() }
        m += maybe("moves") { g in g.chance(0.2) ? g.list({ g in g.value() }, 8) : g.list({ g in g.move() }, 8) }
        m += maybe("cries") { g in
            g.chance(0.1) ? "null" : g.object(g.maybe("latest") { g in g.chance(0.2) ? "null" : g.string("https://raw.githubusercontent.com/x/25.ogg") }
                + g.maybe("legacy") { g in g.chance(0.2) ? "null" : g.string("https://x/legacy/25.ogg") })
        }
        m += maybe("sprites") { g in
            var s = g.maybe("front_default") { g in g.string("https://raw.githubusercontent.com/x/25.png") }
            s += g.maybe("front_shiny") { g in g.string("https://raw.githubusercontent.com/x/shiny/25.png") }
            s += g.maybe("versions") { g in
                g.object(g.maybe("generation-v") { g in
                    g.object(g.maybe("black-white") { g in
                        g.object(g.maybe("animated") { g in g.object(g.maybe("front_default") { g in g.string("https://x/25.gif") }) })
                    })
                })
            }
            return g.object(s)
        }
        return Array(object(m).utf8)
    }

    /// A `pokemon` body of these `moves` and what a record requires besides, so that the body
    /// is refused for its moves alone.
    static func pokemon(moves: String, _ ws: String) -> [UInt8] {
        let rest = #""id": 25, "name": "pikachu", "types": [], "abilities": [], "stats": [], "sprites": {}, "#
        return Array("{\(ws)\(rest)\"moves\":\(ws)\(moves)\(ws)}".utf8)
    }

    /// A `moves` entry: a move and the ways it is learnt, mostly in PokeAPI's shape; with
    /// `pools`, each way and version group is one of theirs.
    mutating func move(pools: (methods: [String], groups: [String])? = nil) -> String {
        let url = chance(0.1) ? "null" : string("https://pokeapi.co/api/v2/move/\(int(0...40))/")
        let move = object(["\"name\":\(ws())\(string(name()))", "\"url\":\(ws())\(url)"])
        return object(maybe("move") { _ in move } + maybe("version_group_details") { g in
            g.list({ g in
                let methods = ["level-up", "machine", "egg", "tutor", "form-change", "train", "Bad Name"]
                let groups = ["scarlet-violet", "x-y", "champions", "Bad Group"]
                // PokeAPI's order: level, method, order, version group.
                return g.object(g.maybe("level_learned_at") { g in g.chance(0.9) ? String(g.int(0...102)) : g.number() }
                                + g.maybe("move_learn_method") { g in
                                    pools.map { $0.methods[g.int(0...$0.methods.count - 1)] } ?? g.resource(methods[g.int(0...methods.count - 1)])
                                }
                                + g.maybe("order") { g in g.chance(0.9) ? String(g.int(0...300)) : g.number() }
                                + g.maybe("version_group") { g in
                                    pools.map { $0.groups[g.int(0...$0.groups.count - 1)] } ?? g.resource(groups[g.int(0...groups.count - 1)])
                                },
                                inOrder: g.chance(0.5))
            }, 3)
        })
    }

    mutating func languageText(_ field: String) -> String {
        let language = languages.map { $0[int(0...$0.count - 1)] } ?? resource(["en", "de", "ja", "fr", "xx", "zh-hant", "EN"][int(0...6)])
        return object(["\"\(field)\":\(ws())\(string())", "\"language\":\(ws())\(language)"])
    }

    /// Where set, the language objects of ``languageText(_:)``: a few, each written once, as
    /// a body repeats them (a reader steps over the bytes of one it read before).
    var languages: [String]?

    /// Half the time, ``languages`` drawn: some alike but for a byte, some damaged.
    mutating func repeatingLanguages() {
        guard chance(0.5) else { return }
        let pool = ["en", "en", "de", "ja", "xx", "EN", "zh-hant", "zh-hans"].map { resource($0) }
        let damage = chance(0.3)
        languages = pool.map { damage ? damagedText($0) : $0 }
    }

    mutating func species() -> [UInt8] {
        var m: [String] = ["\"id\":\(ws())\(int(1...1025))", "\"name\":\(ws())\(string(chance(0.9) ? "pikachu" : name()))"]
        m += maybe("genera") { g in g.list { g in g.languageText("genus") } }
        m += maybe("flavor_text_entries") { g in g.list({ g in g.languageText("flavor_text") }, 8) }
        m += maybe("names") { g in g.list { g in g.languageText("name") } }
        m += maybe("egg_groups") { g in g.list { g in g.resource() } }
        for key in ["gender_rate", "hatch_counter", "capture_rate", "base_happiness"] {
            m += maybe(key) { g in String(g.int(-2...300)) }
        }
        m += maybe("growth_rate") { g in g.resource() }
        m += maybe("evolution_chain") { g in
            g.chance(0.1) ? "null" : g.object(g.maybe("url") { g in g.chance(0.2) ? "null" : g.string(["https://pokeapi.co/api/v2/evolution-chain/67/", "x/0/", "/", "evolution-chain/99999999999/"][g.int(0...3)]) })
        }
        return Array(object(m).utf8)
    }

    mutating func list() -> [UInt8] {
        var m = maybe("count") { g in g.chance(0.9) ? String(g.int(0...2000)) : g.number() }
        m += maybe("results") { g in g.list { g in g.resource() } }
        m += maybe("next") { g in g.string("https://pokeapi.co/api/v2/pokemon/?offset=20") }
        return Array(object(m).utf8)
    }

    mutating func names() -> [UInt8] {
        var m = ["\"name\":\(ws())\(string(chance(0.9) ? "electric" : name()))"]
        m += maybe("names") { g in g.list { g in g.languageText("name") } }
        m += maybe("form_names") { g in g.list { g in g.languageText("name") } }
        return Array(object(m).utf8)
    }

    /// ``damaged(_:)`` for a part of a body.
    mutating func damagedText(_ text: String) -> String { String(decoding: damaged(Array(text.utf8)), as: UTF8.self) }

    /// The body, or (half the time) damaged once or twice.
    mutating func damaged(_ body: [UInt8]) -> [UInt8] {
        var b = body
        guard chance(0.5), !b.isEmpty else { return b }
        for _ in 0..<int(1...2) {
            let at = int(0...b.count - 1)
            let odd: [UInt8] = [0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0x00, 0x1F, 0x20, 0xFF, 0xC3, 0x2E, 0x65, 0x30, 0x6E, 0x75]
            switch int(0...3) {
            case 0: b[at] = odd[int(0...odd.count - 1)]
            case 1: b.remove(at: at)
            case 2: b.insert(odd[int(0...odd.count - 1)], at: at)
            default: b = Array(b.prefix(at))
            }
            if b.isEmpty { break }
        }
        return b
    }
}

/// RFC 8259, written plainly and slowly: whether a body is JSON at all (UTF-8, the grammar,
/// nothing after the value). The reader must refuse every body that is not.
enum StrictJSON {
    static func isValid(_ b: [UInt8]) -> Bool { check(b).valid }

    /// Whether no object of a valid body names a member twice (names compared as written).
    static func namesAreUnique(_ b: [UInt8]) -> Bool { check(b).unique }

    private static func check(_ b: [UInt8]) -> (valid: Bool, unique: Bool) {
        guard String(validating: b, as: UTF8.self) != nil else { return (false, true) }
        var unique = true
        var i = 0
        func at(_ c: Character) -> Bool { i < b.count && b[i] == c.asciiValue! }
        func ws() { while i < b.count, [0x20, 0x0A, 0x0D, 0x09].contains(b[i]) { i += 1 } }
        func digits() -> Int { let s = i; while i < b.count, (0x30...0x39).contains(b[i]) { i += 1 }; return i - s }
        func string() -> Bool {
            guard at("\"") else { return false }
            i += 1
            while i < b.count {
                let c = b[i]
                if c == 0x22 { i += 1; return true }
                if c < 0x20 { return false }
                if c == 0x5C {
                    i += 1
                    guard i < b.count else { return false }
                    if b[i] == UInt8(ascii: "u") {
                        guard i + 4 < b.count, (1...4).allSatisfy({ Character(Unicode.Scalar(b[i + $0])).isHexDigit }) else { return false }
                        i += 5
                    } else {
                        guard Array("\"\\/bfnrt".utf8).contains(b[i]) else { return false }
                        i += 1
                    }
                } else {
                    i += 1
                }
            }
            return false
        }
        func number() -> Bool {
            if at("-") { i += 1 }
            if at("0") { i += 1 } else { guard i < b.count, (0x31...0x39).contains(b[i]) else { return false }; _ = digits() }
            if at(".") { i += 1; guard digits() > 0 else { return false } }
            if at("e") || at("E") { i += 1; if at("+") || at("-") { i += 1 }; guard digits() > 0 else { return false } }
            return true
        }
        func value() -> Bool {
            ws()
            guard i < b.count else { return false }
            switch b[i] {
            case UInt8(ascii: "{"):
                i += 1; ws()
                if at("}") { i += 1; return true }
                var names = Set<ArraySlice<UInt8>>()
                while true {
                    ws()
                    let start = i
                    guard string() else { return false }
                    if !names.insert(b[start..<i]).inserted { unique = false }
                    ws()
                    guard at(":") else { return false }
                    i += 1
                    guard value() else { return false }
                    ws()
                    if at(",") { i += 1; continue }
                    if at("}") { i += 1; return true }
                    return false
                }
            case UInt8(ascii: "["):
                i += 1; ws()
                if at("]") { i += 1; return true }
                while true {
                    guard value() else { return false }
                    ws()
                    if at(",") { i += 1; continue }
                    if at("]") { i += 1; return true }
                    return false
                }
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                for word in ["true", "false", "null"] where b[i...].starts(with: Array(word.utf8)) { i += word.utf8.count; return true }
                return false
            default: return number()
            }
        }
        guard value() else { return (false, unique) }
        ws()
        return (i == b.count, unique)
    }
}
