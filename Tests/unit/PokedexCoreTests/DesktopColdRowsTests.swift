import PokedexLocks
import PokedexNetwork
import PokedexTestKit
import XCTest
@testable import PokedexCore

/// The first rows on an empty cache over a slow network (a first day, 300 ms a request):
/// GNOME Shell asks for a row's metas once and KRunner draws its first `Match`, so each row
/// must be whole within ``DesktopSearch/completionDeadline``. That holds when a row's parts
/// are asked together, one request's time, not a chain of requests each waiting for the last.
/// Here the network answers only when the test releases a round, and the clock never reaches
/// the deadline: a row that needs a second round is never answered, and the test fails.
final class DesktopColdRowsTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// The bundled-name PokeAPI where every request waits for the test (``releaseRound()``).
    final class RoundsAPI: HTTPClient {
        private struct State {
            var waiting: [(url: String, go: CheckedContinuation<Void, Never>)] = []
            var open = false
        }
        private let table = TablePokeAPI()
        private let state = Mutex(State())

        var waitingURLs: Set<String> { state.withLock { Set($0.waiting.map(\.url)) } }

        func get(_ request: HTTPRequest) async throws -> HTTPResponse {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                let go = state.withLock { s -> Bool in
                    if s.open { return true }
                    s.waiting.append((request.url, c))
                    return false
                }
                if go { c.resume() }
            }
            return try await table.get(request)
        }

        /// Every request waiting now is answered, as a slow network answers what was asked
        /// together; those asked after wait for the next round.
        func releaseRound() {
            for w in state.withLock({ s in defer { s.waiting = [] }; return s.waiting }) { w.go.resume() }
        }

        /// Every request, now and from now on, is answered at once.
        func open() {
            state.withLock { $0.open = true }
            releaseRound()
        }

        func close() { state.withLock { $0.open = false } }
    }

    /// A clock whose time never passes: a sleep ends only when its task is cancelled.
    struct HeldClock: PokedexClock {
        func now() -> Date { Date(timeIntervalSince1970: 1_800_000_000) }
        func instant() -> Instant { Instant(seconds: 1000) }
        func sleep(seconds: Double) async throws {
            while true { try await Task.sleep(nanoseconds: 5_000_000) }
        }
    }

    /// Waits (a bound for a failure, not a timing) until every URL of `expected` is asked.
    func waitForRequests(_ api: RoundsAPI, _ expected: Set<String>, file: StaticString = #filePath, line: UInt = #line) async {
        for _ in 0..<2000 {
            if expected.isSubset(of: api.waitingURLs) { return }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        XCTFail("not asked at once: \(expected.subtracting(api.waitingURLs).sorted())", file: file, line: line)
    }

    /// A result that is expected without any further round: nil after 10 s without it.
    func answer<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async -> T? {
        let box = Mutex<T?>(nil)
        let task = Task { if let v = try? await work() { box.withLock { $0 = v } } }
        for _ in 0..<2000 {
            if let v = box.withLock({ $0 }) { return v }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        task.cancel()
        return nil
    }

    func testColdRowsAreWholeAfterOneRoundOfRequests() async throws {
        // Pikachu, Charizard, Charizard's Gigantamax form (no sprite of its own: Charizard's
        // stands in), Alolan Vulpix (a form named by the bundled table in every language).
        let ids: [UInt32] = [25, 6, 10196, 10103]
        XCTAssertTrue(TablePokeAPI.hasNoSprite(10196))
        for language in ["en", "de", "ja"] {
            let api = RoundsAPI()
            var config = ServiceConfiguration(apiURL: TablePokeAPI.base, spriteHosts: [TablePokeAPI.spriteHost],
                                              cacheDirectory: dir + "/\(language)/cache", dataDirectory: dir + "/\(language)/data",
                                              spriteURLTemplate: "https://\(TablePokeAPI.spriteHost)/{id}.png", prefetch: false)
            config.language = language
            let s = PokedexService(configuration: config, client: api, store: try FileCacheStore(directory: config.cacheDirectory, capacity: 1 << 24),
                                   favorites: try FavoritesBook(persistence: MemoryFavoritesPersistence()), clock: HeldClock(),
                                   decoder: PNGTestDecoder())
            // The list of Pokémon, as the search before the rows brought it.
            api.open()
            _ = try await s.listPage(offset: 0, limit: 1).value()
            api.close()

            let metas = Task { try await s.desktopMetas(ids.map(String.init)).value() }
            let base = TablePokeAPI.base, sprites = "https://\(TablePokeAPI.spriteHost)"
            // The whole round is waited for, or a slow run releases it without a late one: each
            // row's record, sprite and species; a form's species is another Pokémon's (Charizard's
            // for its Gigantamax form, Vulpix's for the Alolan one), and so is its sprite.
            let species: [UInt32] = [25, 6, 37]
            await waitForRequests(api, Set(ids.map { "\(base)/pokemon/\($0)/" } + species.map { "\(base)/pokemon-species/\($0)/" }
                                           + (ids + species).map { "\(sprites)/\($0).png" }))
            api.releaseRound()
            let rows = await answer { try await metas.value }
            let waitingAfterRows = api.waitingURLs
            // KRunner's first match, its rows cold but for the few above.
            let query = ["en": "charizard", "de": "glurak", "ja": "リザードン"][language]!
            let shown = try await s.desktopResults([query]).value().prefix(PokedexService.krunnerMatches).compactMap { UInt32($0) }
            let cold = shown.filter { !ids.contains($0) }
            XCTAssertFalse(cold.isEmpty, "\(language): \(shown)")
            let match = Task { try await s.krunnerMatch(query).value() }
            await waitForRequests(api, Set(cold.map { "\(base)/pokemon/\($0)/" } + cold.map { "\(sprites)/\($0).png" }))
            api.releaseRound()
            let matched = await answer { try await match.value }
            let waitingAfterMatch = api.waitingURLs
            api.open()
            s.finishWrites()

            let got = try XCTUnwrap(rows, "\(language): the rows were not answered after one round of requests; waiting: \(waitingAfterRows.sorted())")
            XCTAssertEqual(got.map(\.id), ids, language)
            for r in got {
                XCTAssertTrue(FileManager.default.fileExists(atPath: r.spritePath), "\(language): #\(r.id) has no sprite: \(r.spritePath)")
                let types = TablePokeAPI.types(of: r.id == 10196 ? 10196 : r.id).map { TypeChart.name($0, language: language) }
                XCTAssertTrue(r.description.contains(types.joined(separator: " / ")), "\(language): #\(r.id): \(r.description), not \(types)")
            }
            let expectedNames: [String: [String]] = [
                "en": ["Pikachu", "Charizard", "Gigantamax Charizard", "Alolan Vulpix"],
                "de": ["Pikachu", "Glurak", "Gigadynamax-Glurak", "Alola Vulpix"],
                "ja": ["ピカチュウ", "リザードン", "リザードン キョダイマックスのすがた", "ロコン アローラのすがた"],
            ]
            XCTAssertEqual(got.map(\.name), expectedNames[language], language)
            XCTAssertTrue(got[2].description.hasPrefix("#006"), "a form takes its species' number: \(got[2].description)")
            let m = try XCTUnwrap(matched, "\(language): KRunner's match waited for the network; waiting: \(waitingAfterMatch.sorted())")
            XCTAssertEqual(m.map(\.result.id), shown, language)
            for r in m {
                let types = TablePokeAPI.types(of: r.result.id).map { TypeChart.name($0, language: language) }
                XCTAssertNotNil(r.icon, "\(language): KRunner's #\(r.result.id) has no icon")
                XCTAssertTrue(r.result.brief.contains(types.joined(separator: "/")) || r.result.brief.contains(types.joined(separator: " / ")),
                              "\(language): KRunner's #\(r.result.id): \(r.result.brief), not \(types)")
            }
        }
    }
}
