import XCTest
import PokedexTestKit
@testable import PokedexCore

/// `RandomSprite`: drawn among the cached sprites without the network, shiny as often as asked
/// where a shiny one is cached, favorites only when asked.
extension ServiceTests {
    /// The fake API's bodies name no shiny sprite: they are guessed beside the default ones.
    func routeShinySprites(_ api: FakePokeAPI) {
        for id in 1...30 {
            let png = makePNG((255, UInt8(id), 0))
            api.client.route("https://sprites.test/shiny/\(id).png") { _ in HTTPResponse(status: 200, body: png) }
        }
    }

    func testRandomSpriteDrawsAmongTheCachedSpritesWithoutTheNetwork() async throws {
        let api = FakePokeAPI()
        routeShinySprites(api)
        let s = try makeService(api)
        for id in ["3", "7", "25"] { _ = try await s.spritePath(id).value() }
        let before = api.client.requests.filter { !$0.url.contains("/shiny/") }.count
        var seen = Set<UInt32>()
        for _ in 0..<40 {
            let pick = try await s.randomSprite(favorites: false, shinyChance: 0).value()
            XCTAssertTrue([3, 7, 25].contains(pick.id), "\(pick)")
            XCTAssertFalse(pick.shiny)
            XCTAssertEqual(pick.path, s.sprites.still.pathOnDisk(pick.id))
            seen.insert(pick.id)
        }
        XCTAssertEqual(seen, [3, 7, 25], "every cached one is drawn")
        XCTAssertEqual(api.client.requests.filter { !$0.url.contains("/shiny/") }.count, before,
                       "warm: nothing but shiny sprites warmed in the background")
    }

    func testShinyChanceDrawsACachedShinySprite() async throws {
        let api = FakePokeAPI()
        routeShinySprites(api)
        let s = try makeService(api)
        for id in ["4", "25"] { _ = try await s.spritePath(id).value() }
        _ = try await s.sprites.ensureShiny(.init(id: 25, name: "pikachu"))
        XCTAssertEqual(api.client.count("https://sprites.test/shiny/25.png"), 1, "guessed beside the default sprite")
        for _ in 0..<10 {
            let pick = try await s.randomSprite(favorites: false, shinyChance: 1).value()
            XCTAssertTrue(pick.shiny)
            XCTAssertEqual(pick.id, 25, "the only shiny one cached")
            XCTAssertTrue(pick.path.hasSuffix("/25-shiny.png"), pick.path)
        }
        let never = try await s.randomSprite(favorites: false, shinyChance: 0).value()
        XCTAssertFalse(never.shiny)

        // Shiny sprites are cache files like the others: counted, verified, not orphans.
        let stats = try await s.cacheStats().value()
        // 25's, and maybe 4's: the draw without shiny warms the shiny sprite of what it showed.
        XCTAssertTrue((1...2).contains(stats.kinds.first { $0.kind == .shinySprites }?.count ?? 0))
        let report = try await s.verifyCache().value()
        XCTAssertEqual(report.orphans, 0)
        XCTAssertEqual(report.damaged, 0)
        XCTAssertFalse(s.sprites.shiny.pathOnDisk(25).isEmpty)
    }

    func testShinySpritesAreWarmedInTheBackgroundAfterAnAnswer() async throws {
        let api = FakePokeAPI()
        routeShinySprites(api)
        let s = try makeService(api)
        _ = try await s.spritePath("7").value()
        _ = try await s.randomSprite(favorites: false, shinyChance: 0).value()
        await settle(s)
        XCTAssertTrue(s.sprites.shiny.pathOnDisk(7).isEmpty, "a draw that cannot be shiny warms nothing")
        let pick = try await s.randomSprite(favorites: false, shinyChance: 0.001).value()
        XCTAssertEqual(pick.id, 7)
        await settle(s)
        XCTAssertFalse(s.sprites.shiny.pathOnDisk(7).isEmpty, "the next draw may be shiny")
        let shiny = try await s.randomSprite(favorites: false, shinyChance: 1).value()
        XCTAssertTrue(shiny.shiny)
    }

    func testFavoritesOnlyAndTheirAbsence() async throws {
        let api = FakePokeAPI()
        let s = try makeService(api)
        do {
            _ = try await s.randomSprite(favorites: true, shinyChance: 0).value()
            XCTFail("no favorites yet")
        } catch {
            XCTAssertEqual(error.dbusName, "io.github.pokedexd.Pokedex1.Error.NotFound")
            XCTAssertTrue(error.message.contains("pokectl fav"), error.message)
        }
        for id in ["3", "25"] { _ = try await s.spritePath(id).value() }
        try await s.setFavorite("pikachu", true).value()
        for _ in 0..<10 {
            let pick = try await s.randomSprite(favorites: true, shinyChance: 0).value()
            XCTAssertEqual(pick.id, 25)
            XCTAssertEqual(pick.name, "pikachu")
        }
    }

    func testAColdCacheFetchesOneSprite() async throws {
        let api = FakePokeAPI()
        let s = try makeService(api)
        let pick = try await s.randomSprite(favorites: false, shinyChance: 0).value()
        XCTAssertEqual(pick.path, s.sprites.still.pathOnDisk(pick.id))
        XCTAssertEqual(api.client.requests.filter { $0.url.hasPrefix("https://sprites.test/") && !$0.url.contains("/shiny/") }.count, 1)
    }

    func testShinyChanceOutsideZeroToOneIsRefused() throws {
        let s = try makeService(FakePokeAPI())
        for bad in [-0.1, 1.5, .nan, .infinity] {
            XCTAssertThrowsError(try s.randomSprite(favorites: false, shinyChance: bad)) { error in
                XCTAssertEqual((error as? PokedexError)?.dbusName, "io.github.pokedexd.Pokedex1.Error.InvalidArgument")
            }
        }
    }
}
