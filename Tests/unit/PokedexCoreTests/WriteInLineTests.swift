import PokedexLocks
import PokedexTestKit
import XCTest
@testable import PokedexCore

/// Issue 58: a record a caller waits for is answered from memory and written behind; one that
/// nobody waits for (a sync's, a pre-warm's) is written in the task that fetched it, so no
/// thread is woken to write it, and it is on disk when its load returns.
final class WriteInLineTests: XCTestCase {
    func loader(_ dir: String) throws -> (ResourceLoader, FaultyCacheStore) {
        let clock = ManualClock()
        let store = FaultyCacheStore(try FileCacheStore(directory: dir, capacity: 1 << 22))
        store.slowWrites(20_000)  // a slow disk: a write behind is still under way at the return
        let client = FakeHTTPClient()
        client.route(APIRoutes(api: FakePokeAPI.base).named(.type, "electric"),
                     json: #"{"name":"electric","names":[{"name":"Electric","language":{"name":"en"}},{"name":"Elektro","language":{"name":"de"}}]}"#)
        let fetcher = Fetcher(client: client, clock: clock, allowedHosts: ["pokeapi.test"], apiHost: "pokeapi.test")
        return (ResourceLoader(memory: MemoryTier(capacity: 1 << 20), store: store, fetcher: fetcher, clock: clock,
                               background: BackgroundWork(), log: { _, _ in }), store)
    }

    func testWhatNobodyWaitsForIsWrittenBeforeItsLoadReturns() async throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (loader, store) = try loader(dir)
        let routes = APIRoutes(api: FakePokeAPI.base)
        let key = APIRoutes.namesKey(.type, "electric")
        for priority in [FetchPriority.background, .prefetch] {
            store.inner.removeRecord(key)
            loader.memory.removeAll()
            let before = store.keysWritten.count
            let names = try await withPriority(priority) { try await loader.load(key, url: routes.named(.type, "electric"), .names) }
            XCTAssertEqual(names.names["en"], "Electric")
            XCTAssertEqual(store.keysWritten.count, before + 1, "\(priority): on disk at the return")
            XCTAssertNotNil(loader.memory.get(key), "and in memory")
        }
    }

    func testWhatACallerWaitsForIsAnsweredBeforeItIsWritten() async throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (loader, store) = try loader(dir)
        let key = APIRoutes.namesKey(.type, "electric")
        let names = try await loader.load(key, url: APIRoutes(api: FakePokeAPI.base).named(.type, "electric"), .names)
        XCTAssertEqual(names.names["en"], "Electric")
        XCTAssertEqual(store.keysWritten, [], "answered from memory while the slow write goes on")
        await loader.writesFinished()
        XCTAssertEqual(store.keysWritten, [key])
    }
}
