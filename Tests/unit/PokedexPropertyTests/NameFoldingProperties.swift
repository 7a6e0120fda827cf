@testable import PokedexCore
import PokedexModels
import PropertyBased
import Testing

/// Names as people type them, over every name the service ships, in kana, Hangul and hanzi: a
/// Japanese name typed with small kana as large, voicing marks or long vowels left out, in
/// hiragana; a Korean one with a jamo wrong; a Chinese one with a character wrong: each finds
/// its Pokémon. And folding is a fold: twice is once.
@Suite struct NameFoldingProperties {
    static let rows = BundledNames.entries.sorted { $0.key < $1.key }
    static let index: SearchIndex = {
        let items = rows.map { PokemonIndex.Item(id: $0.key, name: $0.value.identifier) }
        return SearchIndex(index: PokemonIndex(items: items, total: UInt32(items.count)),
                           localized: Dictionary(uniqueKeysWithValues: rows.map { ($0.key, $0.value.names) }))
    }()

    /// The species' names in `language` of at least `length` characters, as (id, name).
    static func names(_ language: String, length: Int) -> [(UInt32, String)] {
        rows.compactMap { id, e in
            guard e.isSpecies, let n = e.names[language], n.count >= length, n != e.names["en"] else { return nil }
            return (id, n)
        }
    }
    static let japanese = names("ja-hrkt", length: 2)
    static let korean = names("ko", length: 3)
    static let chinese = names("zh-hans", length: 3)

    func found(_ id: UInt32, _ query: String, _ language: String, within limit: Int) -> Bool {
        var q = SearchQuery(parsing: query)
        q.language = language
        return Self.index.search(q, limit: limit).contains { $0.item.id == id }
    }

    /// Kana as typed: each kana of a name at random small for large and large for small, its
    /// voicing mark dropped, its long vowel left out, in hiragana; the Pokémon is among the first
    /// ten found, and first where no other name reads the same so typed.
    @Test func kanaAsPeopleTypeThem() async {
        let input = zip(Gen.int(in: 0...(Self.japanese.count - 1)), Gen.int(in: 0...Int(UInt32.max)))
        await propertyCheck(count: PropertyCounts.cases(400), input: input) { pick, seed in
            let (id, name) = Self.japanese[pick]
            var rng = seed
            func coin() -> Bool { rng = rng &* 6364136223846793005 &+ 1442695040888963407; return (rng >> 33) & 3 == 0 }
            var typed = ""
            for u in name.unicodeScalars {
                var u = u
                if coin(), let plain = ScriptFolding.kana(u) { u = plain } else if coin(), ScriptFolding.kana(u) == nil { continue }
                if coin(), (0x30A1...0x30F6).contains(u.value), let h = Unicode.Scalar(u.value - 0x60) { u = h }
                typed.unicodeScalars.append(u)
            }
            #expect(found(id, typed, "ja", within: 10), "\(name) typed \(typed)")
        }
    }

    /// A Korean name with one vowel's jamo swapped for its neighbour (ㅠ for ㅜ, ㅕ for ㅓ…), or
    /// a silent 우 added at its end, is found among the first ten (폴리곤Z too: seed OyAyOWMw…).
    @Test func hangulByJamo() async {
        let input = zip(Gen.int(in: 0...(Self.korean.count - 1)), Gen.int(in: 0...1000))
        await propertyCheck(count: PropertyCounts.cases(400), input: input) { pick, at in
            let (id, name) = Self.korean[pick]
            var scalars = Array(name.unicodeScalars)
            let i = at % scalars.count
            let u = scalars[i].value
            if (0xAC00...0xD7A3).contains(u), at % 2 == 0 {
                // The vowel: ㅏ↔ㅑ, ㅓ↔ㅕ, ㅗ↔ㅛ, ㅜ↔ㅠ (vowel index 0/2, 4/6, 8/12, 13/17).
                let s = u - 0xAC00, v = (s % 588) / 28
                let swap: [UInt32: UInt32] = [0: 2, 2: 0, 4: 6, 6: 4, 8: 12, 12: 8, 13: 17, 17: 13]
                if let w = swap[v], let changed = Unicode.Scalar(u - v * 28 + w * 28) { scalars[i] = changed }
            } else {
                scalars.append("우")
            }
            let typed = String(String.UnicodeScalarView(scalars))
            #expect(found(id, typed, "ko", within: 10), "\(name) typed \(typed)")
        }
    }

    /// A Chinese name of three characters or more with one character wrong is found among the
    /// first twenty.
    @Test func hanziByCharacter() async {
        let input = zip(Gen.int(in: 0...(Self.chinese.count - 1)), Gen.int(in: 0...1000))
        await propertyCheck(count: PropertyCounts.cases(400), input: input) { pick, at in
            let (id, name) = Self.chinese[pick]
            var chars = Array(name)
            chars[at % chars.count] = "兵"
            let typed = String(chars)
            #expect(found(id, typed, "zh-hans", within: 20), "\(name) typed \(typed)")
        }
    }

    /// Folding twice is folding once, and the typo letters of any text are made without a trap.
    @Test func foldingIsAFold() async {
        let scalar = Gen.int(in: 0...0x2FFFF).map { Unicode.Scalar(UInt32($0)) ?? "?" }
        let text = scalar.array(of: 0...12).map { String(String.UnicodeScalarView($0)) }
        await propertyCheck(count: PropertyCounts.sequences, input: text) { s in
            let once = TextFolding.fold(s)
            #expect(TextFolding.fold(once) == once)
            let (letters, script) = ScriptFolding.letters(TextFolding.compact(once))
            if script == .hangul { #expect(letters.allSatisfy { !(0xAC00...0xD7A3).contains($0) }) }
            _ = ScriptFolding.allowed(letters.count, script)
        }
    }
}
