import PokedexLocks
import XCTest
import PokedexTestKit
@testable import PokedexCore

/// A tiny PokeAPI in the fake client: 30 Pokémon, bodies shaped like the API's.
struct FakePokeAPI {
    static let base = "https://pokeapi.test/api/v2"
    static let names = (1...30).map { $0 == 25 ? "pikachu" : "mon\($0)" }
    let client = FakeHTTPClient()

    init(maxAge: Int = 86400) {
        let results = Self.names.enumerated().map { i, n in #"{"name":"\#(n)","url":"\#(Self.base)/pokemon/\#(i + 1)/"}"# }
        client.route(Self.base + "/pokemon/?offset=0&limit=100000",
                     json: #"{"count":30,"next":null,"previous":null,"results":[\#(results.joined(separator: ","))]}"#, maxAge: maxAge)
        for (i, n) in Self.names.enumerated() {
            let id = i + 1
            client.route(Self.base + "/pokemon/\(id)/", json: """
                {"id":\(id),"name":"\(n)","height":4,"weight":60,"moves":[{"move":{"name":"x"}}],
                 "types":[{"slot":2,"type":{"name":"flying"}},{"slot":1,"type":{"name":"electric"}}],
                 "abilities":[{"slot":1,"ability":{"name":"static"},"is_hidden":false}],
                 "stats":[{"base_stat":35,"stat":{"name":"hp"}},{"base_stat":90,"stat":{"name":"speed"}}],
                 "sprites":{"front_default":"https://sprites.test/\(id).png"},
                 "species":{"name":"\(n)","url":"\(Self.base)/pokemon-species/\(id)/"}}
                """, maxAge: maxAge)
            client.route(Self.base + "/pokemon-species/\(id)/", json: """
                {"id":\(id),"name":"\(n)","genera":[{"genus":"Mouse Pokémon","language":{"name":"en"}}],
                 "flavor_text_entries":[{"flavor_text":"It naps in the sun\\nand wakes\\fup.","language":{"name":"en"}}],
                 "names":[{"name":"ピカチュウ","language":{"name":"ja-hrkt"}}]}
                """, maxAge: maxAge)
            let png = makePNG((UInt8(id), 100, 200))
            client.route("https://sprites.test/\(id).png") { _ in HTTPResponse(status: 200, body: png) }
        }
    }
}

final class ServiceTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func makeService(_ api: FakePokeAPI, clock: ManualClock = ManualClock(), favorites: MemoryFavoritesPersistence = .init()) throws -> PokedexService {
        let config = ServiceConfiguration(apiURL: FakePokeAPI.base + "/", spriteHosts: ["sprites.test"],
                                          cacheDirectory: dir + "/cache", dataDirectory: dir + "/data",
                                          spriteURLTemplate: "https://sprites.test/{id}.png")
        return PokedexService(configuration: config, client: api.client,
                              store: try FileCacheStore(directory: config.cacheDirectory, capacity: 1 << 24),
                              favorites: try FavoritesBook(persistence: favorites, clock: clock), clock: clock)
    }

    func testListPageInAPIOrderAndLimits() async throws {
        let s = try makeService(FakePokeAPI())
        XCTAssertNil(try s.listPage(offset: 0, limit: 20).ready, "cold: needs the network")
        let page = try await s.listPage(offset: 20, limit: 20).value()
        XCTAssertEqual(page.total, 30)
        XCTAssertEqual(page.entries.map(\.id), Array(21...30))
        XCTAssertEqual(page.entries[4].name, "pikachu")
        let past = try await s.listPage(offset: 30, limit: 5).value()
        XCTAssertEqual(past.entries, [])
        let farPast = try await s.listPage(offset: .max, limit: 100).value()
        XCTAssertEqual(farPast.entries, [])
        for bad: UInt32 in [0, 101, .max] {
            do {
                _ = try await s.listPage(offset: 0, limit: bad).value()
                XCTFail("limit \(bad)")
            } catch {
                XCTAssertEqual(error.dbusName, "io.github.pokedexd.Pokedex1.Error.InvalidArgument")
                XCTAssertTrue(error.message.contains("between 1 and 100"))
            }
        }
        XCTAssertNotNil(try s.listPage(offset: 20, limit: 20).ready, "warm: answered from memory")
        XCTAssertNil(try s.listPage(offset: 0, limit: 20).ready, "sprites of 1-20 not checked on disk yet")
    }

    func testDetailAssemblesRecordSpeciesAndSprite() async throws {
        let api = FakePokeAPI()
        let s = try makeService(api)
        let d = try await s.detail("  PikaChu ").value()
        XCTAssertEqual(d.id, 25)
        XCTAssertEqual(d.types, ["electric", "flying"], "slot order")
        XCTAssertEqual(d.stats.map(\.name), ["hp", "speed"])
        XCTAssertEqual(d.genus, "Mouse Pokémon")
        XCTAssertEqual(d.flavorText, "It naps in the sun and wakes up.")
        XCTAssertTrue(PNGCheck.isValid(try XCTUnwrap(FileIO.readFile(d.spritePath))))
        XCTAssertEqual(try s.detail("25").ready, d, "second time from memory")
        let byNumber = try await s.detail("25").value()
        XCTAssertEqual(byNumber.name, "pikachu")
    }

    func testUnknownNamesAndEmptyInput() async throws {
        let s = try makeService(FakePokeAPI())
        for (query, message) in [("pikachuu", #"no Pokémon named "pikachuu"; did you mean "Pikachu"?"#), ("9999", "no Pokémon with number 9999; Pokédex numbers run from 1 to 30"),
                                 ("../../etc/passwd", #"no Pokémon named "../../etc/passwd""#)] {
            do {
                _ = try await s.detail(query).value()
                XCTFail(query)
            } catch {
                XCTAssertEqual(error, .notFound(message))
            }
        }
        do {
            _ = try await s.toggleFavorite(" ").value()
            XCTFail()
        } catch {
            XCTAssertEqual(error.dbusName, "io.github.pokedexd.Pokedex1.Error.InvalidArgument")
        }
        let huge = String(repeating: "x", count: 1 << 20)
        do {
            _ = try await s.detail(huge).value()
        } catch {
            XCTAssertLessThan(error.message.count, 100, "a 1 MB name does not become a 1 MB message")
        }
    }

    func testSingleFlightMergesConcurrentCallers() async throws {
        let api = FakePokeAPI()
        let s = try makeService(api)
        _ = try await s.listPage(offset: 0, limit: 1).value()
        try await withThrowingTaskGroup(of: PokemonDetail.self) { group in
            for _ in 0..<100 { group.addTask { try await s.detail("pikachu").value() } }
            for try await d in group { XCTAssertEqual(d.id, 25) }
        }
        XCTAssertEqual(api.client.count(FakePokeAPI.base + "/pokemon/25/"), 1)
        XCTAssertEqual(api.client.count(FakePokeAPI.base + "/pokemon-species/25/"), 1)
        XCTAssertEqual(api.client.count("https://sprites.test/25.png"), 1)
    }

    func testStaleIsServedAtOnceAndRevalidatedWithETag() async throws {
        let api = FakePokeAPI(maxAge: 60)
        let clock = ManualClock()
        let s = try makeService(api, clock: clock)
        _ = try await s.detail("pikachu").value()
        clock.advance(120)
        XCTAssertNotNil(try s.detail("pikachu").ready, "stale, but answered from memory")
        await settle(s)
        let revalidations = api.client.requests.filter { $0.ifNoneMatch == "\"v1\"" }
        XCTAssertGreaterThanOrEqual(revalidations.count, 2, "\(api.client.requests.map(\.url))")
    }

    func testOfflineAnswersFromDiskAfterRestart() async throws {
        let api = FakePokeAPI()
        let favorites = MemoryFavoritesPersistence()
        let first = try makeService(api, favorites: favorites)
        _ = try await first.listPage(offset: 0, limit: 30).value()
        let d = try await first.detail("pikachu").value()
        _ = try await first.toggleFavorite("pikachu").value()
        first.finishWrites()
        // A new service on the same directories, with the network gone.
        let dead = FakePokeAPI()
        for i in 1...30 { dead.client.route(FakePokeAPI.base + "/pokemon/\(i)/") { _ in throw TransportFailure.connection("Connection refused") } }
        dead.client.route(FakePokeAPI.base + "/pokemon/?offset=0&limit=100000") { _ in throw TransportFailure.connection("Connection refused") }
        // Its probing while offline sleeps too: time must not jump past the fetch's deadline.
        let second = try makeService(dead, clock: ManualClock(advancesOnSleep: false), favorites: favorites)
        let page = try await second.listPage(offset: 0, limit: 30).value()
        XCTAssertEqual(page.entries.count, 30)
        var again = try await second.detail("pikachu").value()
        XCTAssertTrue(again.favorite)
        again.favorite = false
        XCTAssertEqual(again, d)
        do {
            _ = try await second.detail("mon3").value()
            XCTFail("nothing cached for mon3")
        } catch {
            XCTAssertEqual(error.dbusName, "io.github.pokedexd.Pokedex1.Error.Unavailable")
            XCTAssertTrue(error.message.contains("cannot reach pokeapi.test"), error.message)
        }
    }

    func testDamagedDiskRecordIsFetchedAgainNotServed() async throws {
        let api = FakePokeAPI()
        let s1 = try makeService(api)
        _ = try await s1.detail("pikachu").value()
        s1.finishWrites()
        try CacheRecordDamage.flippedPayload.apply(to: APIRoutes.pokemonKey(25), in: dir + "/cache/v2")
        let sprite = dir + "/cache/v2/sprites/25.png"
        try FileIO.writeAtomically(Array(try XCTUnwrap(FileIO.readFile(sprite)).prefix(20)), to: sprite, durable: false)
        let s2 = try makeService(api)
        let d = try await s2.detail("pikachu").value()
        XCTAssertEqual(d.name, "pikachu")
        XCTAssertEqual(d.height, 4)
        XCTAssertTrue(PNGCheck.isValid(try XCTUnwrap(FileIO.readFile(d.spritePath))))
        XCTAssertEqual(api.client.count(FakePokeAPI.base + "/pokemon/25/"), 2)
        XCTAssertEqual(api.client.count("https://sprites.test/25.png"), 2)
    }

    func testFavoritesAnnounceAndSearch() async throws {
        let s = try makeService(FakePokeAPI())
        let seen = Counter()
        s.observe { event in if case .favorite = event { _ = seen.next() } }
        let on = try await s.toggleFavorite("PIKACHU").value()
        XCTAssertTrue(on)
        try await s.setFavorite("pikachu", true).value()
        try await s.setFavorite("mon3", true).value()
        XCTAssertEqual(s.favoriteIDs, [25, 3])
        XCTAssertEqual(seen.next(), 2, "the idempotent set announced nothing")
        let favs = try await s.listFavorites().value()
        XCTAssertEqual(favs.map(\.name), ["pikachu", "mon3"])
        XCTAssertTrue(favs.allSatisfy(\.favorite))
        let found = try await s.search("mon2", limit: 5).value()
        XCTAssertEqual(found.map(\.name), ["mon2", "mon20", "mon21", "mon22", "mon23"])
        let byNumber = try await s.search("25", limit: 3).value()
        XCTAssertEqual(byNumber.first?.name, "pikachu")
        let sub = try await s.search("kach", limit: 3).value()
        XCTAssertEqual(sub.map(\.name), ["pikachu"])
    }

    /// Names in every language are searchable before any species record arrives: the bundled
    /// table (tools/gen-name-table.py) supplies them, for the Pokémon the API still calls so.
    func testSearchInEveryLanguageBeforeAnyRecord() async throws {
        let api = FakePokeAPI()
        let s = try makeService(api)
        for query in ["皮卡丘", "피카츄", "ピカチュウ"] {
            let found = try await s.searchDetailed(query, limit: 3).value()
            XCTAssertEqual(found.first?.entry.name, "pikachu", query)
            XCTAssertEqual(found.first?.matchedName, query, query)
        }
        XCTAssertEqual(api.client.requests.filter { $0.url.contains("/pokemon-species/") }.count, 0, "no species record was needed")
        XCTAssertEqual(s.searchCoverage.localized, 1, "pikachu; the table knows no \"mon3\", whatever its id")
        XCTAssertEqual(s.searchCoverage.species, 30)
        let mon = try await s.search("Bisaknosp", limit: 3).value()
        XCTAssertFalse(mon.contains { $0.name == "mon2" }, "id 2's German name is Ivysaur's, not this list's mon2's")
    }

    func testFlavorTextCleaning() {
        XCTAssertEqual(APIDecoding.cleanFlavorText("When a few of\nthese POKéMON\nnap, their\u{0C}tails twitch"),
                       "When a few of these POKéMON nap, their tails twitch")
        XCTAssertEqual(APIDecoding.cleanFlavorText("  a \n\n b\u{AD} "), "a b")
    }

    /// Issue 28: a second sync's progress starts at its own 0, not at the first one's end
    /// (pokectl's bar showed `1351/1351` before anything happened).
    func testASecondSyncReportsFromZero() async throws {
        let api = FakePokeAPI()
        let s = try makeService(api)
        let seen = Mutex<[SyncProgress]>([])
        s.observe { if case .sync(let p) = $0 { seen.withLock { $0.append(p) } } }
        _ = try await s.sync().value()
        let total = s.syncProgress.total
        XCTAssertGreaterThan(total, 0)
        XCTAssertEqual(s.syncProgress.done, total)
        seen.withLock { $0 = [] }
        _ = try await s.sync().value()
        let second = seen.withLock { $0 }
        XCTAssertEqual(second.first, SyncProgress(done: 0, total: total, state: .running), "\(second.prefix(3))")
    }

}
