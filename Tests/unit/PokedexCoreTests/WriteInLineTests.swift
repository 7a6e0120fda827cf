import Dispatch
import PokedexLocks
import PokedexTestKit
import XCTest
@testable import PokedexCore

/// Issue 58: a record a caller waits for is answered from memory and written behind; one that
/// nobody waits for (a sync's, a pre-warm's) is written in the task that fetched it, so no
/// thread is woken to write it, and it is on disk when its load returns. No clock is waited
/// for: the writer's task is told by what it sees of the fetch's priority, and a write behind
/// is held at a gate while the answer is checked.
final class WriteInLineTests: XCTestCase {
    func loader(_ dir: String) throws -> (ResourceLoader, FaultyCacheStore) {
        let clock = ManualClock()
        let store = FaultyCacheStore(try FileCacheStore(directory: dir, capacity: 1 << 22))
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
        // A task written in sees the fetch's priority; a detached one, the default.
        let seen = Mutex<[FetchPriority]>([])
        store.onWrite { _ in seen.withLock { $0.append(FetchPriority.current) } }
        let routes = APIRoutes(api: FakePokeAPI.base)
        let key = APIRoutes.namesKey(.type, "electric")
        for priority in [FetchPriority.background, .prefetch] {
            store.inner.removeRecord(key)
            loader.memory.removeAll()
            let before = store.keysWritten.count
            let names = try await withPriority(priority) { try await loader.load(key, url: routes.named(.type, "electric"), .names) }
            XCTAssertEqual(names.names["en"], "Electric")
            XCTAssertEqual(store.keysWritten.count, before + 1, "\(priority): on disk at the return")
            XCTAssertEqual(seen.withLock { $0.last }, priority, "\(priority): written in the task that fetched it")
            XCTAssertNotNil(loader.memory.get(key), "and in memory")
        }
    }

    func testWhatACallerWaitsForIsAnsweredBeforeItIsWritten() async throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (loader, store) = try loader(dir)
        // The write is held until the answer was checked (a deadline only if it never comes).
        let gate = DispatchSemaphore(value: 0)
        store.onWrite { _ in _ = gate.wait(timeout: .now() + 30) }
        let key = APIRoutes.namesKey(.type, "electric")
        let names = try await loader.load(key, url: APIRoutes(api: FakePokeAPI.base).named(.type, "electric"), .names)
        XCTAssertEqual(names.names["en"], "Electric")
        XCTAssertEqual(store.keysWritten, [], "answered from memory while the write waits")
        gate.signal()
        await loader.writesFinished()
        XCTAssertEqual(store.keysWritten, [key])
    }
}
