import Foundation
import XCTest
@testable import PokedexCore

/// UnicodeFolding against what it replaces: Foundation's (ICU's) folding with case, diacritics
/// and width insensitive, character by character over the whole BMP and the next two planes,
/// then over random strings of letters and marks, then over names as the API writes them.
final class UnicodeFoldingTests: XCTestCase {
    static func foundation(_ s: String) -> String {
        s.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Where the table follows Unicode 15 and Foundation its own older tables. None is in a
    /// script the search languages use, but for U+3000 (the ideographic space, now read as a
    /// space, so it separates words) and U+FFE3 (full-width macron, now a macron).
    static func knownDifference(_ v: UInt32) -> Bool {
        switch v {
        case 0x13A0...0x13FF, 0xAB70...0xABBF: return true  // Cherokee: Foundation lower-cases, Unicode folds to upper
        case 0x1C80...0x1C88: return true  // Cyrillic variant letters: folded since Unicode 9
        case 0xFFA0...0xFFDC: return true  // half-width Hangul: compatibility jamo (Foundation: conjoining jamo)
        case 0x3000, 0xFFE3: return true
        default: return false
        }
    }

    func testEveryCharacterFoldsAsFoundationFoldedIt() {
        var differences: [String] = []
        var checked = 0
        for v in UInt32(0x80)...0x2FFFF where !Self.knownDifference(v) {
            guard let u = Unicode.Scalar(v), u.properties.generalCategory != .unassigned else { continue }
            // A lone voicing mark is composed with nothing; after kana see the test below.
            let s = String(u)
            let ours = UnicodeFolding.fold(s), theirs = Self.foundation(s)
            checked += 1
            if Array(ours.unicodeScalars) != Array(theirs.unicodeScalars) {
                differences.append(String(v, radix: 16) + ": " + ours.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
                                   + " vs " + theirs.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
            }
        }
        XCTAssertGreaterThan(checked, 100_000)
        XCTAssertEqual(differences, [], "\(differences.count) characters fold otherwise than Foundation folded them")
    }

    /// Random text as people write it: letters of the search languages' scripts, Latin, Greek
    /// and Cyrillic letters (those that fold to one of theirs) with up to two combining accents each, full-width and half-width forms,
    /// digits and punctuation. (Voicing marks are composed, which Foundation did not do: the test
    /// below. Marks stacked on CJK or Hangul are not text anyone types.)
    func testRandomLettersAndMarksFoldAsFoundationFoldedThem() {
        let accented: [ClosedRange<UInt32>] = [0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x370...0x3FF, 0x400...0x4FF, 0x1E00...0x1FFF]
        let plain: [ClosedRange<UInt32>] = [0x20...0x40, 0x3041...0x3096, 0x30A1...0x30FA, 0xFF01...0xFF5E, 0xFF66...0xFF9D,
                                            0x4E00...0x9FFF, 0xAC00...0xD7A3]
        let seed = UInt64(ProcessInfo.processInfo.environment["POKEDEX_FOLDING_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64.max)
        var rng = SplitMix64(seed: seed)
        func pick(_ pools: [ClosedRange<UInt32>]) -> Unicode.Scalar? {
            let pool = pools[Int(rng.next() % UInt64(pools.count))]
            let v = pool.lowerBound + UInt32(rng.next() % UInt64(pool.count))
            guard let u = Unicode.Scalar(v), u.properties.generalCategory != .unassigned, !Self.knownDifference(v) else { return nil }
            return u
        }
        for _ in 0..<10_000 {
            var s = String.UnicodeScalarView()
            for _ in 0..<Int(rng.next() % 10) {
                if rng.next() % 2 == 0, let letter = pick(accented), letter.properties.isAlphabetic, !UnicodeFolding.isMark(letter),
                   let base = UnicodeFolding.fold(String(letter)).unicodeScalars.first, base.value < UnicodeFolding.markBaseLimit {
                    s.append(letter)
                    for _ in 0..<Int(rng.next() % 3) { if let mark = Unicode.Scalar(0x300 + UInt32(rng.next() % 0x70)) { s.append(mark) } }
                } else if let u = pick(plain) {
                    s.append(u)
                }
            }
            let text = String(s)
            let ours = UnicodeFolding.fold(text), theirs = Self.foundation(text)
            if Array(ours.unicodeScalars) != Array(theirs.unicodeScalars) {
                XCTFail("seed \(seed) (POKEDEX_FOLDING_SEED=\(seed) replays it): \(text.unicodeScalars.map { String($0.value, radix: 16) }) → "
                        + "\(ours.unicodeScalars.map { String($0.value, radix: 16) }) vs \(theirs.unicodeScalars.map { String($0.value, radix: 16) })")
                return
            }
        }
    }

    func testNamesAsTheAPIWritesThem() {
        let names = ["Flabébé", "Mr. Mime", "Farfetch’d", "Type: Null", "Nidoran♀", "Nidoran♂", "Évoli", "Dracaufeu",
                     "Ho-Oh", "Porygon-Z", "Sarmuraï", "Ekiller", "Flabébé", "Pokémon", "ÄÖÜ äöü ß",
                     "ピカチュウ", "フシギダネ", "ガーディ", "ポッポ", "ニドラン♀", "カモネギ", "ぴかちゅう",
                     "피카츄", "이상해씨", "皮卡丘", "妙蛙種子", "ＰＩＫＡＣＨＵ", "ｐｉｋａ", "Ω", "Ǆ", "İstanbul"]
        for name in names {
            XCTAssertEqual(Array(UnicodeFolding.fold(name).unicodeScalars), Array(Self.foundation(name).unicodeScalars), name)
        }
    }

    func testDecomposedLettersAndVoicedKana() {
        XCTAssertEqual(UnicodeFolding.fold("Flabe\u{301}be\u{301}"), "flabebe")
        XCTAssertEqual(UnicodeFolding.fold("ｶﾞｰﾃﾞｨ"), "ガーディ", "half-width kana and their voicing marks compose")
        XCTAssertEqual(UnicodeFolding.fold("か\u{3099}"), "が")
        XCTAssertEqual(UnicodeFolding.fold("ﾎﾟｯﾎﾟ"), "ポッポ")
        XCTAssertEqual(UnicodeFolding.fold("a\u{3099}"), "a", "a mark on a Latin letter goes, whatever it is")
        XCTAssertEqual(UnicodeFolding.fold("\u{301}e"), "\u{301}e", "a mark with no letter before it stays")
    }

    /// Folding a folded text changes nothing (the property test's finds, as scalars): a halfwidth
    /// voicing mark after a digit or a Latin letter becomes a combining mark a second pass takes
    /// off; a variation selector after ’ or ・ stays until they are a hyphen.
    func testFoldingTwiceIsFoldingOnce() {
        let found: [[UInt32]] = [
            [0x3090, 0x32, 0xFF9E, 0x113F], [0x30FB, 0xFE05], [0x55, 0x1E05, 0xFE06, 0x313C, 0xFFA4, 0x2019, 0xFE06],
            [0x35E, 0xFF9F, 0x58, 0x32D, 0x1EF5, 0x2008, 0x1EE8, 0x3155, 0xCAAC, 0x1E61, 0xFE01],
            [0x338, 0xFFB0, 0x30DE, 0x33B, 0x318, 0x1E4A, 0xFF9F, 0xC6E7, 0xD0BC, 0x35F, 0x30E, 0x2002],
            [0x3171, 0x19FD4, 0x30FB, 0x312, 0x1E41], [0x307, 0x19261, 0x11F6, 0xFF65, 0x34C, 0xFE0D, 0xFE0A, 0x1EC8],
        ]
        for scalars in found {
            let text = String(String.UnicodeScalarView(scalars.compactMap(Unicode.Scalar.init)))
            let once = TextFolding.fold(text)
            XCTAssertEqual(TextFolding.fold(once), once, scalars.map { String($0, radix: 16) }.joined(separator: " "))
        }
    }
}
