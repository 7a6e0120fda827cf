import XCTest
import PokedexTestKit
@testable import PokedexCore

final class SearchTests: XCTestCase {
    let index: SearchIndex = {
        let names: [(UInt32, String)] = [
            (1, "bulbasaur"), (4, "charmander"), (5, "charmeleon"), (6, "charizard"), (25, "pikachu"), (26, "raichu"),
            (122, "mr-mime"), (150, "mewtwo"), (151, "mew"), (669, "flabebe"), (737, "charjabug"),
            (10034, "charizard-mega-x"), (10035, "charizard-mega-y"), (10100, "raichu-alola"), (10080, "pikachu-rock-star"),
        ]
        let list = PokemonIndex(items: names.map { .init(id: $0.0, name: $0.1) }, total: UInt32(names.count))
        return SearchIndex(
            index: list,
            localized: [25: ["ja-hrkt": "ピカチュウ", "ja": "ピカチュウ", "en": "Pikachu", "fr": "Pikachu"],
                        6: ["de": "Glurak", "fr": "Dracaufeu", "ja": "リザードン"], 669: ["en": "Flabébé"]],
            types: ["fire": [4, 5, 6, 10035], "flying": [6], "electric": [25, 26, 10100, 10080], "dragon": [10034]],
            generations: [1: [1, 4, 5, 6, 25, 26, 122, 150, 151, 10034, 10035, 10100, 10080], 6: [669], 7: [737]])
    }()

    func names(_ q: String, _ limit: Int = 5) -> [String] { index.search(SearchQuery(parsing: q), limit: limit).map(\.item.name) }
    func first(_ q: String) -> SearchHit? { index.search(SearchQuery(parsing: q), limit: 1).first }

    func testRanks() {
        XCTAssertEqual(first("25")?.match, .exact)
        XCTAssertEqual(first("pikachu")?.match, .exact)
        XCTAssertEqual(names("char", 4), ["charmander", "charmeleon", "charizard", "charjabug"], "prefix, API order")
        XCTAssertEqual(first("mega")?.match, .word, "word prefix inside a hyphenated name")
        XCTAssertEqual(names("mega", 2), ["charizard-mega-x", "charizard-mega-y"])
        XCTAssertEqual(names("alola"), ["raichu-alola"])
        XCTAssertEqual(first("izard")?.match, .substring)
        XCTAssertEqual(names("rock", 1), ["pikachu-rock-star"])
    }

    /// A number with a sign names no Pokémon, as Detail("-1") finds none (KRunner's Match("-1")
    /// answered Bulbasaur: folding dropped the sign).
    func testASignedNumberNamesNoPokemon() {
        for q in ["-1", "+1", "\u{2212}25", "-0025", "-#25", "- 1"] { XCTAssertEqual(names(q), [], q) }
        XCTAssertEqual(names("1", 1), ["bulbasaur"])
        XCTAssertFalse(names("-rock-star").isEmpty, "a hyphen before a name is still the name")
    }

    func testEveryWordTypedInAnyOrder() {
        // PokeAPI names the form deoxys-attack "Attack Deoxys" in English; what the service
        // shows a person is what they type back.
        XCTAssertEqual(names("Mega Charizard X"), ["charizard-mega-x"])
        XCTAssertEqual(first("mega charizard x")?.match, .word)
        XCTAssertEqual(names("alolan raichu"), [], "a word the name lacks matches nothing")
        XCTAssertEqual(names("alola raichu"), ["raichu-alola"])
        XCTAssertEqual(names("star rock pika"), ["pikachu-rock-star"])
        XCTAssertEqual(names("mega mega"), [], "each word of the name serves one word typed")
        XCTAssertEqual(names("x mega", 3), ["charizard-mega-x"])
        XCTAssertEqual(names("charizard mega", 2), ["charizard-mega-x", "charizard-mega-y"], "in the name's order, a prefix")
    }

    func testFormsByTheirNamesInEveryLanguage() {
        let names: [(UInt32, String)] = [(3, "venusaur"), (386, "deoxys-normal"), (10001, "deoxys-attack"), (10033, "venusaur-mega")]
        let list = PokemonIndex(items: names.map { .init(id: $0.0, name: $0.1) }, total: 4)
        let index = SearchIndex(index: list, localized: SearchEngine.withBundledNames([:], index: list))
        func first(_ q: String) -> String? { index.search(SearchQuery(parsing: q), limit: 1).first?.item.name }
        XCTAssertEqual(first("Mega-Bisaflor"), "venusaur-mega", "as the German list shows it")
        XCTAssertEqual(first("Méga-Florizarre"), "venusaur-mega")
        XCTAssertEqual(first("メガフシギバナ"), "venusaur-mega")
        XCTAssertEqual(first("Deoxys (Angriff)"), "deoxys-attack")
        XCTAssertEqual(first("deoxys angriff"), "deoxys-attack", "brackets are separators")
        XCTAssertEqual(first("Attack Deoxys"), "deoxys-attack")
        XCTAssertEqual(first("Bisaflor"), "venusaur", "the species before its forms")
        XCTAssertEqual(index.localizedSpecies, 2, "forms are not species")
    }

    func testTyposFindTheIntendedPokemonFirst() {
        for (typo, want) in [("pikachuu", "pikachu"), ("charzard", "charizard"), ("bulbsaur", "bulbasaur"), ("mewtoo", "mewtwo"),
                             ("pikatchu", "pikachu"), ("charmandr", "charmander"), ("bulbasuar", "bulbasaur")] {
            let hit = first(typo)
            XCTAssertEqual(hit?.item.name, want, typo)
            XCTAssertEqual(hit?.match, .fuzzy, typo)
            XCTAssertGreaterThan(hit?.distance ?? 0, 0, typo)
        }
        XCTAssertEqual(names("xyzzyq"), [], "no wild guesses")
        XCTAssertEqual(index.suggestion(for: "pikachuu", language: "en"), "Pikachu", "as the games write it")
    }

    /// Issue 27: "pika" also finds the names that start almost like it, after those that hold it.
    func testATypoInTheFirstLettersOfALongerName() {
        let names: [(UInt32, String)] = [(25, "pikachu"), (172, "pichu"), (731, "pikipek"), (738, "vikavolt"), (10080, "pikachu-rock-star")]
        let index = SearchIndex(index: PokemonIndex(items: names.map { .init(id: $0.0, name: $0.1) }, total: 5))
        let hits = index.search(SearchQuery(parsing: "pika"), limit: 10)
        XCTAssertEqual(hits.map(\.item.name), ["pikachu", "pikachu-rock-star", "pikipek"],
                       "not pichu (two letters differ), nor vikavolt (people rarely miss the first)")
        XCTAssertEqual(hits.map(\.match), [.prefix, .prefix, .fuzzy])
        XCTAssertEqual(hits.map(\.distance), [0, 0, 1], "one typo is counted as one")
        XCTAssertEqual(index.search(SearchQuery(parsing: "pik"), limit: 10).map(\.item.name), ["pikachu", "pikipek", "pikachu-rock-star"],
                       "three letters: no typos in a prefix")
        // Whole names first, with as many typos or one fewer (bench/search-cases.tsv).
        let more: [(UInt32, String)] = [(9, "blastoise"), (25, "pikachu"), (10036, "blastoise-mega"), (10097, "pikachu-unova-cap")]
        let whole = SearchIndex(index: PokemonIndex(items: more.map { .init(id: $0.0, name: $0.1) }, total: 4))
        XCTAssertEqual(whole.search(SearchQuery(parsing: "pikachuu"), limit: 2).map(\.item.name), ["pikachu", "pikachu-unova-cap"])
        XCTAssertEqual(whole.search(SearchQuery(parsing: "pikachuu"), limit: 2).map(\.distance), [1, 1], "a hyphen left out counts")
        XCTAssertEqual(whole.search(SearchQuery(parsing: "blastoys"), limit: 1).map(\.item.name), ["blastoise"])
    }

    /// The evolution family comes from the bundled table, for the Pokémon it still describes.
    func testRelativesFromTheBundledTable() {
        let names: [(UInt32, String)] = [(25, "pikachu"), (26, "raichu"), (172, "pichu"), (133, "eevee"), (134, "vaporeon"),
                                         (136, "flareon"), (10100, "raichu-alola"), (83, "renamed")]
        let index = SearchIndex(index: PokemonIndex(items: names.map { .init(id: $0.0, name: $0.1) }, total: 8))
        XCTAssertEqual(index.relatives(of: .init(id: 25, name: "pikachu")).map(\.name), ["raichu", "pichu"], "Pokédex order")
        XCTAssertEqual(index.relatives(of: .init(id: 133, name: "eevee")).map(\.name), ["vaporeon", "flareon"], "those the list holds")
        XCTAssertEqual(index.relatives(of: .init(id: 10100, name: "raichu-alola")), [], "a form has none of its own")
        XCTAssertEqual(index.relatives(of: .init(id: 25, name: "renamed")), [], "a renumbered Pokémon takes no row")
        XCTAssertEqual(BundledNames.family(of: 132), [132], "Ditto is alone")
        XCTAssertEqual(BundledNames.family(of: 0), [0])
        XCTAssertEqual(BundledNames.family(of: 99_999), [99_999])
    }

    func testCaseAccentsWidthKanaAndOtherLanguages() {
        XCTAssertEqual(first("Flabébé")?.item.name, "flabebe")
        XCTAssertEqual(first("FLABEBE")?.item.name, "flabebe")
        XCTAssertEqual(first("ＰＩＫＡＣＨＵ")?.item.name, "pikachu")
        XCTAssertEqual(first("２５")?.item.name, "pikachu", "full-width digits")
        XCTAssertEqual(first("Mr. Mime")?.item.name, "mr-mime")
        let kata = first("ピカチュウ"), hira = first("ぴかちゅう")
        XCTAssertEqual(kata?.item.name, "pikachu")
        XCTAssertEqual(kata?.match, .localized)
        XCTAssertEqual(hira?.item.name, "pikachu", "hiragana finds katakana")
        let de = first("glurak")
        XCTAssertEqual(de?.item.name, "charizard")
        XCTAssertEqual(de?.match, .localized)
        XCTAssertEqual(de?.matched, "Glurak")
        XCTAssertEqual(de?.language, "de")
        XCTAssertEqual(first("Dracofeu")?.item.name, "charizard", "typos in other languages too")
    }

    func testFilters() {
        XCTAssertEqual(names("type:fire type:flying"), ["charizard"])
        XCTAssertEqual(first("type:fire")?.match, .filter)
        XCTAssertEqual(names("type:fire char"), ["charmander", "charmeleon", "charizard", "charizard-mega-y"])
        XCTAssertEqual(names("gen:1 type:electric", 10), ["pikachu", "raichu", "raichu-alola", "pikachu-rock-star"], "API order")
        XCTAssertEqual(names("gen:7 char"), ["charjabug"])
        XCTAssertEqual(names("gen:6"), ["flabebe"])
        XCTAssertEqual(names("type:nonsense"), [])
        XCTAssertEqual(names("gen:x"), [])
    }

    func testQueryParsing() {
        let q = SearchQuery(parsing: "  Type:Fire  char  GEN:1 ")
        XCTAssertEqual(q.types, ["fire"])
        XCTAssertEqual(q.generation, 1)
        XCTAssertEqual(q.text, "char")
        XCTAssertEqual(SearchQuery(parsing: "generation:iv").generation, 4)
    }

    func testEditDistance() {
        var scratch: [Int] = []
        func d(_ a: String, _ b: String, _ limit: Int = 5) -> Int? {
            EditDistance.distance(a.unicodeScalars.map(\.value), b.unicodeScalars.map(\.value), limit: limit, scratch: &scratch)
        }
        XCTAssertEqual(d("pikachu", "pikachu"), 0)
        XCTAssertEqual(d("pikahcu", "pikachu"), 1, "a swap is one edit")
        XCTAssertEqual(d("charzard", "charizard"), 1)
        XCTAssertEqual(d("mewtoo", "mewtwo"), 1)
        XCTAssertNil(d("abc", "xyz", 2))
        XCTAssertEqual(TextFolding.phonetic(TextFolding.compact("geodood")), TextFolding.phonetic(TextFolding.compact("geodude")))
    }
}

/// Issue 28: the typo allowance comes from the letters typed, each run once, with a floor of
/// similarity, so that nonsense finds nothing.
final class SearchSaysNoTests: XCTestCase {
    let index: SearchIndex = {
        let names: [(UInt32, String)] = [
            (23, "ekans"), (25, "pikachu"), (86, "seel"), (133, "eevee"), (151, "mew"), (845, "cramorant"), (173, "cleffa"),
            (146, "moltres"), (74, "geodude"), (1, "bulbasaur"), (6, "charizard"),
        ]
        let list = PokemonIndex(items: names.map { .init(id: $0.0, name: $0.1) }, total: UInt32(names.count))
        return SearchIndex(index: list, localized: [845: ["ja-roma": "Uu"], 173: ["ja-roma": "Py"], 146: ["ja-roma": "Fire"]])
    }()

    func hits(_ q: String) -> [String] { index.search(SearchQuery(parsing: q), limit: 3).map(\.item.name) }

    func testHeldKeysAreNotTypos() {
        XCTAssertEqual(hits("zzzzzzzzzz"), [], "was seel, 3 typos")
        XCTAssertEqual(hits(String(repeating: "b", count: 16)), [], "was ekans")
        XCTAssertEqual(hits(String(repeating: "é", count: 32)), [], "was seel and eevee")
        XCTAssertEqual(hits("ouououououou"), [], "a sound-alike key that collapses to one letter")
        XCTAssertEqual(hits("zszszszszs"), [])
    }

    func testRealTyposStillFind() {
        XCTAssertEqual(hits("pikachuu").first, "pikachu")
        XCTAssertEqual(hits("mewww").first, "mew")
        XCTAssertEqual(hits("geodood").first, "geodude")
        XCTAssertEqual(hits("charzard").first, "charizard")
        XCTAssertEqual(hits("bulbsaur").first, "bulbasaur")
    }

    func testRandomLettersFindNothing() {
        // Seeded: a failure prints the seed and the query, which replay it.
        for seed in UInt64(1)...3 {
            var state = seed
            func next() -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int(state >> 33) }
            for _ in 0..<500 {
                let n = 10 + next() % 11, kind = next() % 3
                let vowels = Array("aeiou"), consonants = Array("bcdfghjklmnpqrstvwxyz")
                let pair = [Character(Unicode.Scalar(UInt8(97 + next() % 26))), Character(Unicode.Scalar(UInt8(97 + next() % 26)))]
                let q = String((0..<n).map { i -> Character in
                    switch kind {
                    case 0: return Character(Unicode.Scalar(UInt8(97 + next() % 26)))
                    case 1: return i % 2 == 0 ? consonants[next() % consonants.count] : vowels[next() % vowels.count]
                    default: return pair[i % 2]
                    }
                })
                XCTAssertEqual(hits(q), [], "seed \(seed): \(q)")
            }
        }
    }
}
