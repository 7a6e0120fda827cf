import CTerminalShims
@testable import PokedexCore
import PokedexModels
@testable import PokedexTerminal
import PropertyBased
import Testing

/// The other parsers that meet outside input: the terminal's answers to the graphics queries,
/// search queries and Pokédex numbers, names as people type them, and pokectl's paging.
@Suite struct ParserProperties {
    static let tokens: [[UInt8]] = [
        "\u{1B}[?", "\u{1B}[6;", "\u{1B}_Gi=31;OK\u{1B}\\", "\u{1B}_G", "c", "t", ";", "4", "62", "-1", "0",
        "9223372036854775807", "99999999999999999999", "\u{1B}\\", "\u{1B}[?62;4;22c", "\u{1B}[6;16;8t", "é", "\u{1B}",
        "\u{1B}_Gf=32,s=9223372036854775807,v=9223372036854775807;AAAA\u{1B}\\", "m=1", "=",
    ].map { (s: String) -> [UInt8] in Array(s.utf8) }
    static let noise = zip(Gen.int(in: 0...1), Gen.int(in: 0...255), Gen.int(in: 0...1000)).map { (kind: Int, byte: Int, pick: Int) -> [UInt8] in
        kind == 0 ? [UInt8(byte)] : tokens[pick % tokens.count]
    }.array(of: 0...30).map { (pieces: [[UInt8]]) -> [UInt8] in pieces.flatMap { $0 } }

    /// Any answer, partial, oversized or garbled, parses without a trap, and a prefix of an
    /// answer never claims more than the whole.
    @Test func terminalAnswersParseWithoutTrapping() async {
        pokedex_install_fatal_handlers()
        await propertyCheck(count: PropertyCounts.sequences, input: zip(Self.noise, Gen.int(in: 0...1000))) { reply, cut in
            pokedex_crash_note("ParserProperties: crashed parsing \(reply)")
            let s = GraphicsSupport.parse(reply)
            if let cell = s.cell { #expect(cell.width > 0 && cell.height > 0) }
            let prefix = GraphicsSupport.parse(Array(reply.prefix(cut * reply.count / 1000)))
            #expect(!prefix.complete || s.complete)
            _ = KittyGraphics.parse(String(decoding: reply, as: UTF8.self))
            _ = KittyGraphics.decode(String(decoding: reply, as: UTF8.self))
            _ = GraphicsSupport.TmuxInfo(output: String(decoding: reply, as: UTF8.self)).support
        }
        pokedex_crash_note(nil)
    }

    /// What the property above once shrank to (seed m1e8DSTZ…): a combining mark right after the
    /// answer's final "c" merged with it into one Character, and the whole read as incomplete
    /// while its prefix was complete.
    @Test func aCombiningMarkAfterTheFinalByteDoesNotHideIt() {
        let answer = Array("\u{1B}[?62;4;22c".utf8)
        let s = GraphicsSupport.parse(answer + [0xCC, 0x80])
        #expect(s.complete && s.sixel)
        let size = GraphicsSupport.parse(Array("\u{1B}[6;16;8t".utf8) + [0xCC, 0x80])
        #expect(size.cell?.width == 8 && size.cell?.height == 16)
    }

    /// A well-formed answer after any noise without ESC is read right, whatever its numbers.
    @Test func wellFormedAnswersAreReadRight() async {
        let plain = Gen.int(in: 0x20...0x7E).array(of: 0...20).map { $0.map(UInt8.init) }
        let numbers = zip(Gen.int(in: 1...Int.max), Gen.int(in: 1...Int.max), Gen.bool, Gen.bool)
        await propertyCheck(count: PropertyCounts.sequences, input: zip(plain, numbers)) { noise, answer in
            let (h, w, kitty, sixel) = answer
            var reply = noise
            if kitty { reply += Array("\u{1B}_Gi=31;OK\u{1B}\\".utf8) }
            reply += Array("\u{1B}[6;\(h);\(w)t".utf8) + Array("\u{1B}[?62;\(sixel ? "4;" : "")22c".utf8)
            let s = GraphicsSupport.parse(reply)
            #expect(s.kitty == kitty && s.sixel == sixel && s.complete)
            #expect(s.cell?.width == w && s.cell?.height == h)
        }
    }

    /// A kitty stream naming a picture of any size (`s=` and `v=` up to Int.max) is refused, not multiplied.
    @Test func aKittyStreamOfAnySizeIsRefusedWithoutTrapping() {
        for (w, h) in [(Int.max, Int.max), (Int.max, 2), (4_611_686_018_427_387_904, 4), (-1, -1), (0, 5)] {
            #expect(KittyGraphics.decode("\u{1B}_Gf=32,s=\(w),v=\(h);AAAA\u{1B}\\") == nil)
        }
    }

    static let words = ["type:", "gen:", "generation:", "#", "No. ", "n°", "２５", "0", "99999999999999999999", "-", ":", " ", "\u{3000}",
                        "é", "♀", "ﾋﾟｶ", "ピカ", "\u{301}", "'", ".", "ⅳ", "½", "①", "٢", "iv", "generation-iv", "fire", "pika"]
    static let text = zip(Gen.int(in: 0...1), Gen.int(in: 0...0x2FFFF), Gen.int(in: 0...1000)).map { (kind: Int, scalar: Int, pick: Int) -> String in
        kind == 0 ? String(Character(Unicode.Scalar(UInt32(scalar)) ?? "?")) : words[pick % words.count]
    }.array(of: 0...16).map { (parts: [String]) -> String in parts.joined() }

    /// Search queries and numbers from any text: no trap, a number only of digits, filters kept apart.
    @Test func searchQueriesAndNumbersFromAnyText() async {
        let index = SearchIndex(index: PokemonIndex(items: Self.items, total: UInt32(Self.items.count)),
                                types: ["fire": [4, 5]], generations: [1: [1, 4, 25]])
        await propertyCheck(count: PropertyCounts.sequences, input: Self.text) { raw in
            pokedex_crash_note("ParserProperties: crashed on the query \(raw.debugDescription)")
            let q = SearchQuery(parsing: raw)
            #expect(q.types.allSatisfy { !$0.contains(where: \.isWhitespace) })
            if let n = PokedexNumber.parse(raw) { #expect(n == PokedexNumber.parse(String(n))) }
            _ = index.search(q, limit: 10)
            _ = index.suggestion(for: raw, language: "de")
            _ = Catalog.spellings(of: raw)
        }
        pokedex_crash_note(nil)
    }

    static let items: [PokemonIndex.Item] = [
        .init(id: 1, name: "bulbasaur"), .init(id: 4, name: "charmander"), .init(id: 5, name: "charmeleon"), .init(id: 25, name: "pikachu"),
        .init(id: 29, name: "nidoran-f"), .init(id: 32, name: "nidoran-m"), .init(id: 83, name: "farfetchd"), .init(id: 122, name: "mr-mime"),
        .init(id: 386, name: "deoxys-normal"), .init(id: 439, name: "mime-jr"), .init(id: 669, name: "flabebe"), .init(id: 772, name: "type-null"),
        .init(id: 10001, name: "deoxys-attack"), .init(id: 10033, name: "venusaur-mega"), .init(id: 474, name: "porygon-z"),
    ]

    /// Names as people type them resolve to the API's; an ambiguous one lists its candidates.
    @Test(arguments: [
        ("Mr. Mime", "mr-mime"), ("mr mime", "mr-mime"), ("MR-MIME", "mr-mime"), ("Farfetch'd", "farfetchd"), ("Farfetch’d", "farfetchd"),
        ("Type: Null", "type-null"), ("type null", "type-null"), ("Nidoran♀", "nidoran-f"), ("Nidoran ♂", "nidoran-m"),
        ("Flabébé", "flabebe"), ("Mime Jr.", "mime-jr"), ("Porygon Z", "porygon-z"), ("deoxys", "deoxys-normal"), ("25", "pikachu"),
    ])
    func namesAsPeopleTypeThem(typed: String, api: String) throws {
        let index = PokemonIndex(items: Self.items, total: UInt32(Self.items.count))
        #expect(try Catalog.resolve(typed.lowercased(), original: typed, in: index).name == api)
    }

    @Test func anAmbiguousNameListsItsCandidates() {
        let index = PokemonIndex(items: Self.items, total: UInt32(Self.items.count))
        #expect(throws: PokedexError.notFound("nidoran: did you mean nidoran-f or nidoran-m?")) { () throws(PokedexError) in
            try Catalog.resolve("nidoran", original: "nidoran", in: index)
        }
    }

    /// pokectl's `--page` and `--per-page`: every Int gives an offset or "past the end", never a trap.
    @Test func pagingArithmeticForAnyInt() async {
        let special = [Int.max, Int.min, Int.max - 1, 0, 1, 68, 69]
        let anyInt = zip(Gen.int(in: 0...2), Gen.int(), Gen.int(in: -3...200)).map { (kind: Int, any: Int, small: Int) -> Int in
            kind == 0 ? any : kind == 1 ? small : special[abs(small % special.count)]
        }
        await propertyCheck(count: PropertyCounts.sequences, input: zip(anyInt, anyInt, Gen.uint32())) { page, perPage, total in
            let offset = Paging.offset(page: page, perPage: perPage)
            if page < 1 || perPage < 1 { #expect(offset == nil) }
            let pages = Paging.pages(total: total, perPage: perPage)
            #expect(pages >= 1)
            if Paging.exists(page: page, perPage: perPage, total: total), (1...100).contains(perPage) {
                #expect(offset != nil && (total == 0 || Int(offset!) < Int(total)))
            }
            #expect(!Paging.pastTheEnd(page: page, perPage: perPage, total: total).isEmpty)
        }
        #expect(Paging.pastTheEnd(page: 99_999_999_999, perPage: 20, total: 1351) == "page 99999999999 is past the end: there are 68 pages of 20 (1351 Pokémon)")
        #expect(Paging.offset(page: Int.max, perPage: 20) == nil)
    }
}
