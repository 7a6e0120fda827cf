import XCTest
import PokedexTestKit
@testable import PokedexCore

/// Every façade member that can answer inline (`.now`, from memory, on the bus thread) must
/// answer exactly what its deferred path (`.later`: the disk and the network) answers for
/// the same data. The two are written apart, so each member is checked here: a warm service
/// answers inline, a second one over the same disk tier, with nothing in memory, answers
/// deferred, and the two answers are compared.
final class InlineDeferredTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func makeService(_ api: FakePokeAPI) throws -> PokedexService {
        // No pre-warming: a sprite fetched between the two answers would make them differ for
        // a reason that is not theirs.
        let config = ServiceConfiguration(apiURL: FakePokeAPI.base + "/", spriteHosts: ["sprites.test"],
                                          cacheDirectory: dir + "/cache", dataDirectory: dir + "/data",
                                          spriteURLTemplate: "https://sprites.test/{id}.png", prefetch: false)
        return PokedexService(configuration: config, client: api.client,
                              store: try FileCacheStore(directory: config.cacheDirectory, capacity: 1 << 24),
                              favorites: try FavoritesBook(persistence: MemoryFavoritesPersistence()), clock: ManualClock())
    }

    /// Warms a service with `warmUp`, takes `call`'s inline answer, then asks a cold service
    /// over the same disk for the deferred one.
    func assertInlineEqualsDeferred<T: Equatable & Sendable>(
        _ member: String, warmUp: (PokedexService) async throws -> Void = { _ in },
        _ call: (PokedexService) throws -> Answer<T>, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let api = FakePokeAPI()
        // The names of Pikachu's types, ability and stats, as the API has them.
        for t in LocalizedDetailTests.terms {
            let names = t.names.map { #"{"name":"\#($0.value)","language":{"name":"\#($0.key)","url":""}}"# }.joined(separator: ",")
            api.client.route(FakePokeAPI.base + "/\(t.kind)/\(t.name)/", json: #"{"id":1,"name":"\#(t.name)","names":[\#(names)]}"#)
        }
        let warm = try makeService(api)
        try await warmUp(warm)
        _ = try await call(warm).value()
        await settle(warm)  // what the first call warmed in the background
        let inline = try XCTUnwrap(try call(warm).ready, "\(member) is not answered inline once warm", file: file, line: line)
        warm.finishWrites()
        let cold = try makeService(api)
        let answer = try call(cold)
        XCTAssertNil(answer.ready, "\(member) answered inline with nothing in memory", file: file, line: line)
        let deferred = try await answer.value()
        await settle(cold)
        XCTAssertEqual(inline, deferred, "\(member): inline and deferred answers differ", file: file, line: line)
        try? FileManager.default.removeItem(atPath: dir)
        dir = temporaryDirectory()
    }

    func testListPage() async throws {
        try await assertInlineEqualsDeferred("ListPage") { try $0.listPage(offset: 20, limit: 10) }
        // With sprites on disk: paths, not empty strings, on both paths.
        try await assertInlineEqualsDeferred("ListPage with sprites", warmUp: { s in
            for id in 21...30 { _ = try await s.spritePath(String(id)).value() }
        }) { try $0.listPage(offset: 20, limit: 10) }
    }

    func testDetail() async throws {
        try await assertInlineEqualsDeferred("Detail") { try $0.detail("pikachu") }
        try await assertInlineEqualsDeferred("Detail by number") { try $0.detail("#25") }
    }

    func testLocalizedDetail() async throws {
        try await assertInlineEqualsDeferred("LocalizedDetail ja") { try $0.localizedDetail("pikachu", language: "ja-Hrkt") }
        try await assertInlineEqualsDeferred("LocalizedDetail en") { try $0.localizedDetail("25", language: "en") }
    }

    func testSearches() async throws {
        try await assertInlineEqualsDeferred("SearchDetailed") { try $0.searchDetailed("pika", limit: 5) }
        try await assertInlineEqualsDeferred("SearchDetailed, localized") { try $0.searchDetailed("ピカ", limit: 5) }
        try await assertInlineEqualsDeferred("Search") { try $0.search("mon1", limit: 20) }
        try await assertInlineEqualsDeferred("SearchPage") { try $0.searchPage("mon", offset: 5, limit: 10) }
    }

    func testDisplayNames() async throws {
        try await assertInlineEqualsDeferred("DisplayNames", warmUp: { s in _ = try await s.listPage(offset: 0, limit: 30).value() }) {
            try $0.displayNames([25, 1, 30, 9999], language: "ja-Hrkt")
        }
    }

    func testDesktopSearch() async throws {
        try await assertInlineEqualsDeferred("GetInitialResultSet") { $0.desktopResults(["pika"]) }
        try await assertInlineEqualsDeferred("GetSubsearchResultSet") { $0.desktopSubsearch(["25", "1", "11"], ["mon1"]) }
        try await assertInlineEqualsDeferred("GetResultMetas", warmUp: { s in _ = try await s.detail("pikachu").value() }) {
            $0.desktopMetas(["25", "3"])
        }
        try await assertInlineEqualsDeferred("KRunner Match", warmUp: { s in _ = try await s.detail("pikachu").value() }) {
            $0.krunnerMatch("pika")
        }
    }
}
