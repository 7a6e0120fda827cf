import PokedexLocks
import PokedexTestKit
import XCTest
@testable import PokedexCore

/// Issue 58: a sync's steps run on its executor (a thread of its own, ``Sync/ownThread``, or
/// the one the service is given: the daemon's event loop), its fetches included, down to the
/// single flights a fetch joins; what a caller asks meanwhile does not.
final class SyncThreadTests: XCTestCase {
    final class ThreadRecordingClient: HTTPClient {
        let inner: FakeHTTPClient
        let onSyncExecutor: @Sendable () -> Bool
        private let state = Mutex((onSync: 0, elsewhere: [String]()))
        init(_ inner: FakeHTTPClient, onSyncExecutor: @escaping @Sendable () -> Bool) {
            self.inner = inner
            self.onSyncExecutor = onSyncExecutor
        }
        var onSync: Int { state.withLock { $0.onSync } }
        var elsewhere: [String] { state.withLock { $0.elsewhere } }
        func reset() { state.withLock { $0 = (0, []) } }
        func get(_ request: HTTPRequest) async throws -> HTTPResponse {
            let here = onSyncExecutor()
            state.withLock { if here { $0.onSync += 1 } else { $0.elsewhere.append(request.url) } }
            return try await inner.get(request)
        }
    }

    func testASyncFetchesOnItsThreadAndACallerDoesNot() async throws {
        try await checkSync(given: nil) { Sync.ownThread.isCurrent }
    }

    func testASyncRunsOnTheExecutorTheServiceIsGiven() async throws {
        let given = ThreadExecutor()
        try await checkSync(given: given) { given.isCurrent }
        XCTAssertFalse(Sync.ownThread.isCurrent)
    }

    private func checkSync(given: (any TaskExecutor)?, onSyncExecutor: @escaping @Sendable () -> Bool) async throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let clock = ManualClock()
        let client = ThreadRecordingClient(FakePokeAPI().client, onSyncExecutor: onSyncExecutor)
        let config = ServiceConfiguration(apiURL: FakePokeAPI.base + "/", spriteHosts: ["sprites.test"],
                                          cacheDirectory: dir + "/cache", dataDirectory: dir + "/data",
                                          spriteURLTemplate: "https://sprites.test/{id}.png", prefetch: false)
        let s = PokedexService(configuration: config, client: client,
                               store: try FileCacheStore(directory: config.cacheDirectory, capacity: 1 << 24),
                               favorites: try FavoritesBook(persistence: MemoryFavoritesPersistence(), clock: clock), clock: clock,
                               syncExecutor: given)
        // A caller first: its requests are its own task's.
        _ = try await s.listPage(offset: 0, limit: 2).value()
        XCTAssertGreaterThan(client.elsewhere.count, 0)
        XCTAssertEqual(client.onSync, 0)
        client.reset()
        let result = try await s.sync().value()
        XCTAssertEqual(result.failed, 0)
        XCTAssertGreaterThan(client.onSync, 20, "the sync fetched")
        XCTAssertEqual(client.elsewhere, [], "every request of the sync was made on its executor")
    }
}
