@testable import PokedexCore
import PokedexModels
import XCTest

/// Names as people type them in every script, over every species' and form's names the service
/// ships: kana as typed, Hangul by jamo, hanzi by character; "did you mean" in the reader's
/// language; the reader's own names before another species' typo.
final class SearchScriptsTests: XCTestCase {
    /// The index the service builds before any record: every listed Pokémon, the bundled names.
    static let index: SearchIndex = {
        let rows = BundledNames.entries.sorted { $0.key < $1.key }
        let items = rows.map { PokemonIndex.Item(id: $0.key, name: $0.value.identifier) }
        return SearchIndex(index: PokemonIndex(items: items, total: UInt32(items.count)),
                           localized: Dictionary(uniqueKeysWithValues: rows.map { ($0.key, $0.value.names) }))
    }()

    func hits(_ text: String, language: String? = nil, limit: Int = 10) -> [String] {
        var q = SearchQuery(parsing: text)
        q.language = language
        return Self.index.search(q, limit: limit).map(\.item.name)
    }

    func testTheIssuesNamesAreFound() {
        XCTAssertEqual(hits("ピカチユウ", language: "ja").first, "pikachu", "big ユ for small ュ")
        XCTAssertEqual(hits("ピカチュウ", language: "ja").first, "pikachu")
        XCTAssertEqual(hits("リザドン", language: "ja").first, "charizard", "no long vowel mark")
        XCTAssertEqual(hits("フシギダメ", language: "ja").first, "bulbasaur", "one kana wrong")
        XCTAssertEqual(hits("ふしぎだね", language: "ja").first, "bulbasaur", "hiragana for katakana")
        XCTAssertEqual(hits("フシキダネ", language: "ja").first, "bulbasaur", "a voicing mark left out")
        XCTAssertEqual(hits("피카추우", language: "ko").first, "pikachu", "by jamo")
        XCTAssertEqual(hits("피카츄", language: "ko").first, "pikachu")
        XCTAssertEqual(hits("皮卡兵", language: "zh-hans").first, "pikachu", "one character wrong")
        XCTAssertEqual(hits("dracofeu").first, "charizard", "as before: a Latin typo")
        // Kana as typed are near misses, never the same name: ガラガラ is Marowak, カラカラ Cubone.
        XCTAssertEqual(hits("ガラガラ", language: "ja").first, "marowak")
        XCTAssertEqual(hits("カラカラ", language: "ja").first, "cubone")
        XCTAssertEqual(Self.index.named("ピカチユウ", preferring: "ja")?.name, "pikachu", "the one Pokémon they name")
        XCTAssertEqual(Self.index.named("ガラガラ", preferring: "ja")?.name, "marowak")
    }

    func testTheReadersNamesComeBeforeAnotherSpeciesTypo() {
        XCTAssertEqual(hits("glurk", language: "de").first, "charizard", "Glurak, not Golurk")
        XCTAssertEqual(hits("glurk").first, "golurk", "without a language, the API's name")
        let glurak = hits("glurak", language: "de")
        XCTAssertEqual(glurak.first, "charizard")
        let golurk = glurak.firstIndex(of: "golurk") ?? glurak.count
        for form in ["charizard-mega-x", "charizard-mega-y", "charizard-gmax"] {
            XCTAssertLessThan(glurak.firstIndex(of: form) ?? .max, golurk, "\(form) before Golurk: \(glurak)")
        }
    }

    /// The desktop's order: Glurak and Charizard's own forms, not Golurk first among them.
    func testTheDesktopsFirstScreenInGerman() {
        let queries = DesktopSearch.queries(["glurak"], language: "de")
        let shown = DesktopSearch.intersect(queries.map { Self.index.search($0, limit: 50) }).map(\.item.name)
        XCTAssertEqual(shown.first, "charizard")
        XCTAssertEqual(Array(shown.prefix(4)).sorted(), ["charizard", "charizard-gmax", "charizard-mega-x", "charizard-mega-y"], "\(shown)")
        XCTAssertFalse(shown.prefix(4).contains("golurk"))
        let japanese = DesktopSearch.intersect(DesktopSearch.queries(["ピカチユウ"], language: "ja").map { Self.index.search($0, limit: 50) })
        XCTAssertEqual(japanese.first?.item.name, "pikachu")
    }

    func testDidYouMeanNamesThePokemonInTheReadersLanguage() {
        XCTAssertEqual(Self.index.suggestion(for: "ピカチュ", language: "ja"), "ピカチュウ")
        XCTAssertEqual(Self.index.suggestion(for: "glurk", language: "de"), "Glurak")
        XCTAssertEqual(Self.index.suggestion(for: "pikachuu", language: "en"), "Pikachu")
        XCTAssertEqual(Self.index.suggestion(for: "pikachuu", language: "fr"), "Pikachu")
        XCTAssertEqual(Self.index.suggestion(for: "dracofeu", language: "de"), "Glurak")
    }

    func hitsFor(_ text: String, _ language: String) -> String? { hits(text, language: language).first }

    func testLettersByScript() {
        func letters(_ s: String) -> ([UInt32], ScriptFolding.Script) { ScriptFolding.letters(TextFolding.compact(TextFolding.fold(s))) }
        XCTAssertEqual(letters("ピカチュウ").0, letters("ぴかちゆう").0)
        XCTAssertEqual(letters("リザードン").0, letters("リサドン").0)
        XCTAssertEqual(letters("ヴ").0, letters("ウ").0)
        XCTAssertEqual(letters("パ").0, letters("ハ").0)
        XCTAssertEqual(letters("피카츄").1, .hangul)
        XCTAssertEqual(letters("피카츄").0.count, 6, "ㅍㅣ ㅋㅏ ㅊㅠ")
        XCTAssertEqual(letters("우").0.count, 1, "a silent ㅇ counts nothing")
        XCTAssertEqual(letters("皮卡丘").1, .han)
        XCTAssertEqual(letters("pikachu").1, .latin)
        XCTAssertEqual(letters("ポリゴン2").1, .kana, "a digit does not change the script")
        XCTAssertEqual(letters("폴리곤Z").1, .hangul, "nor a Latin letter among Hangul")
        XCTAssertEqual(hitsFor("푤리곤Z", "ko"), "porygon-z")
    }
}
