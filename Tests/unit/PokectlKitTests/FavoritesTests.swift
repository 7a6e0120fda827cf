import PokedexBusClient
import XCTest
@testable import PokectlKit

/// `fav`, `unfav`, `favs` and `sprite`.
final class FavoritesTests: XCTestCase {
    private func favoring() -> FakeService {
        let fake = Fixtures.service()
        fake.on(Pokedex1.changeFavorite) { (pokemon, action) throws(BusError) in
            guard pokemon == "charizard" || pokemon == "6" else { throw Fixtures.notFound(pokemon) }
            switch action {
            case .add: return FavoriteUpdate(id: 6, name: "charizard", favorite: true, changed: true)
            case .remove: return FavoriteUpdate(id: 6, name: "charizard", favorite: false, changed: false)
            case .toggle: return FavoriteUpdate(id: 6, name: "charizard", favorite: false, changed: true)
            }
        }
        return fake
    }

    func testFavText() {
        XCTAssertEqual(Harness.run(["fav", "charizard"], favoring()).out, "★ Charizard added to favorites\n")
        XCTAssertEqual(Harness.run(["unfav", "charizard"], favoring()).out, "☆ Charizard was not a favorite\n")
        XCTAssertEqual(Harness.run(["fav", "6", "--toggle"], favoring()).out, "☆ Charizard removed from favorites\n")
    }

    func testFavInGerman() {
        let ran = Harness.run(["fav", "charizard"], favoring(), words: Harness.german, language: "de")
        XCTAssertEqual(ran.out, "★ Glurak zu den Favoriten hinzugefügt\n")
    }

    func testFavJSON() {
        let ran = Harness.run(["fav", "charizard", "--json"], favoring())
        XCTAssertEqual(ran.out, "{\"changed\":true,\"favorite\":true,\"name\":\"charizard\"}\n")
        XCTAssertEqual(Harness.run(["unfav", "charizard", "--json"], favoring()).out, "{\"changed\":false,\"favorite\":false,\"name\":\"charizard\"}\n")
    }

    func testFavOfNobodyIsNotFound() {
        let ran = Harness.run(["fav", "nobody"], favoring())
        XCTAssertEqual(ran.code, 1)
        XCTAssertEqual(ran.out, "")
        XCTAssertEqual(ran.err, "pokectl: no Pokémon named \"nobody\"; try 'pokectl search' to find the name\n")
        let de = Harness.german
        let german = Harness.run(["fav", "nobody"], favoring(), words: de, language: "de")
        XCTAssertEqual(german.code, 1)
        XCTAssertTrue(german.err.hasSuffix("; " + de.tr("try 'pokectl search' to find the name") + "\n"), german.err)
        XCTAssertNotEqual(de.tr("try 'pokectl search' to find the name"), "try 'pokectl search' to find the name")
    }

    func testFavUsage() {
        XCTAssertEqual(Harness.run(["fav"], favoring()).code, 2)
    }

    private func favorites(_ list: [ListEntry], problem: String = "", readable: Bool = true) -> FakeService {
        let fake = Fixtures.service()
        fake.on(Pokedex1.listFavorites) { _ in list }
        fake.on(Pokedex1.status) { _ in
            var s = ServiceStatus(version: "1", apiURL: "https://pokeapi.co/api/v2", cacheDirectory: "/c", dataDirectory: "/d",
                                  memoryEntries: 0, memoryBytes: 0, memoryCapBytes: 0, diskEntries: 0, diskBytes: 0, diskCapBytes: 0,
                                  favorites: list.count, online: true)
            s.favoritesProblem = problem
            s.favoritesReadable = readable
            return s
        }
        return fake
    }

    func testFavsText() {
        let ran = Harness.run(["favs"], favorites([Fixtures.pikachu]))
        XCTAssertEqual(ran.out, """
            #   ★  NAME     SPRITE
            25  ★  Pikachu  /cache/sprites/25.png

            """)
        XCTAssertEqual(Harness.run(["favs"], favorites([])).out, "no favorites yet: add one with 'pokectl fav NAME'\n")
        let de = Harness.german
        XCTAssertEqual(Harness.run(["favs"], favorites([]), words: de, language: "de").out,
                       de.tr("no favorites yet: add one with 'pokectl fav NAME'") + "\n")
    }

    func testFavsSaysTheFileProblemOnStderr() {
        let ran = Harness.run(["favs"], favorites([], problem: "the favorites file is damaged"))
        XCTAssertEqual(ran.code, 0)
        XCTAssertEqual(ran.out, "")
        XCTAssertEqual(ran.err, "pokectl: the favorites file is damaged\n")
    }

    /// A file that cannot be read is not an empty list: favs says why and exits 4 (storage),
    /// in text and in JSON; a damaged one that was salvaged is a list, with a notice.
    func testFavsExitsFourWhenTheFileCannotBeRead() {
        let why = "/d/favorites.json is a directory, not a file: pokedexd neither reads nor replaces it; move it away to start a new list"
        var ran = Harness.run(["favs"], favorites([], problem: why, readable: false))
        XCTAssertEqual(ran.code, 4)
        XCTAssertEqual(ran.out, "")
        XCTAssertEqual(ran.err, "pokectl: \(why)\n")
        ran = Harness.run(["favs", "--json"], favorites([], problem: why, readable: false))
        XCTAssertEqual(ran.code, 4)
        XCTAssertTrue(ran.out.contains("\"problem\":\"\(why)\""), ran.out)
        XCTAssertEqual(Harness.run(["favs"], favorites([Fixtures.pikachu], problem: "damaged; kept aside")).code, 0)
    }

    func testFavsJSON() {
        let ran = Harness.run(["favs", "--json"], favorites([Fixtures.pikachu]))
        XCTAssertEqual(ran.out, """
            {"favorites":[{"display_name":"Pikachu","favorite":true,"id":25,"name":"pikachu","number":25,"sprite_path":"/cache/sprites/25.png"}],"problem":""}

            """)
    }

    private func sprites() -> FakeService {
        let fake = Fixtures.service()
        fake.on(Pokedex1.spritePath) { (pokemon) throws(BusError) in
            guard pokemon == "pikachu" else { throw Fixtures.notFound(pokemon) }
            return "/cache/sprites/25.png"
        }
        fake.on(Pokedex1.searchDetailed) { _ in [SearchMatch(entry: Fixtures.pikachu, match: "exact", matchedName: "", language: "", distance: 0)] }
        return fake
    }

    func testSpriteTextAndJSON() {
        XCTAssertEqual(Harness.run(["sprite", "pikachu"], sprites()).out, "/cache/sprites/25.png\n")
        XCTAssertEqual(Harness.run(["sprite", "pikachu", "--json"], sprites()).out,
                       "{\"id\":25,\"number\":25,\"pokemon\":\"pikachu\",\"query\":\"pikachu\",\"sprite_path\":\"/cache/sprites/25.png\"}\n")
        let missing = Harness.run(["sprite", "nobody"], sprites())
        XCTAssertEqual(missing.code, 1)
        XCTAssertTrue(missing.err.contains("no Pokémon named \"nobody\""), missing.err)
    }
}
