import PokedexLocks
import PokedexTestKit
import XCTest
@testable import PokedexCore

/// Issue 36: a sync outlives a freeze of the service or a network blip, and its progress tells
/// done, failed and cancelled apart.
final class SyncOverTimeTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func makeService(_ client: any HTTPClient, clock: ManualClock, in folder: String = "") throws -> PokedexService {
        let config = ServiceConfiguration(apiURL: FakePokeAPI.base + "/", spriteHosts: ["sprites.test"],
                                          cacheDirectory: dir + folder + "/cache", dataDirectory: dir + folder + "/data",
                                          spriteURLTemplate: "https://sprites.test/{id}.png", prefetch: false)
        return PokedexService(configuration: config, client: client,
                              store: try FileCacheStore(directory: config.cacheDirectory, capacity: 1 << 24),
                              favorites: try FavoritesBook(persistence: MemoryFavoritesPersistence(), clock: clock), clock: clock)
    }

    /// The service as a `SIGSTOP` leaves it: from the request for Pokémon number `after` on, for
    /// `seconds` of the clock, every transfer times out (libcurl's timers all expire at the thaw),
    /// on every host.
    final class FreezingClient: HTTPClient {
        let inner: FakeHTTPClient
        let clock: ManualClock
        let after: Int
        let seconds: Double
        private let state = Mutex((requests: 0, frozeAt: Double?.none, failed: 0))
        init(_ inner: FakeHTTPClient, clock: ManualClock, after: Int, seconds: Double) {
            (self.inner, self.clock, self.after, self.seconds) = (inner, clock, after, seconds)
        }
        var failed: Int { state.withLock { $0.failed } }
        var frozeAt: Double? { state.withLock { $0.frozeAt } }

        func get(_ request: HTTPRequest) async throws -> HTTPResponse {
            let now = clock.instant().seconds
            let frozen = state.withLock { s -> Bool in
                s.requests += 1
                if s.frozeAt == nil, request.url.hasSuffix("/pokemon/\(after)/") { s.frozeAt = now }
                guard let at = s.frozeAt, now < at + seconds else { return false }
                s.failed += 1
                return true
            }
            if frozen { throw TransportFailure.timedOut("Operation timed out after 40035 milliseconds with 0 bytes received") }
            return try await inner.get(request)
        }
    }

    /// Issue 36's second report: a freeze of 40 s at a sync's 10th Pokémon ended it with most
    /// of them failed. Now what failed is tried again, after pauses, and nothing fails.
    func testAFortySecondFreezeDuringASyncEndsWithNothingFailed() async throws {
        for (after, seconds) in [(20, 40.0), (1, 40.0), (29, 55.0), (12, 5.0)] {
            let clock = ManualClock()
            let client = FreezingClient(FakePokeAPI().client, clock: clock, after: after, seconds: seconds)
            let s = try makeService(client, clock: clock, in: "/\(after)")
            let seen = Mutex<[SyncProgress]>([])
            s.observe { if case .sync(let p) = $0 { seen.withLock { $0.append(p) } } }
            let start = clock.instant().seconds
            let result = try await s.sync().value()
            let label = "freeze of \(seconds) s from Pokémon \(after)"
            XCTAssertGreaterThan(client.failed, 0, "\(label): the freeze happened")
            XCTAssertEqual(result, SyncResult(complete: 30, failed: 0), label)
            XCTAssertEqual(s.syncProgress, SyncProgress(done: 30, total: 30, state: .done), label)
            XCTAssertGreaterThanOrEqual(clock.instant().seconds - start, seconds, "\(label): it waited the freeze out")
            let states = seen.withLock { $0.map(\.state) }
            XCTAssertEqual(states.last, .done, label)
            XCTAssertFalse(states.contains(.failed), "\(label): never said failed on the way: \(states)")
            // Each step's done never goes back within one sync.
            let dones = seen.withLock { $0.map(\.done) }
            XCTAssertEqual(dones, dones.sorted(), label)
        }
    }

    /// An outage longer than the retries: the sync ends, says how many failed, and its state
    /// is `failed`, not `done`.
    ///
    /// The outage never ends. The clock moves on each sleep, and the host's probe loop sleeps
    /// as often as the machine lets it run beside the sync, so an outage of any length the
    /// probes could sleep through made this test depend on the machine's load: under load the
    /// outage ended before the last retry, and the sync was done.
    func testAnOutageLongerThanTheRetriesEndsFailed() async throws {
        let clock = ManualClock()
        let client = FreezingClient(FakePokeAPI().client, clock: clock, after: 10, seconds: .infinity)
        let s = try makeService(client, clock: clock)
        let result = try await s.sync().value()
        XCTAssertGreaterThan(result.failed, 0)
        XCTAssertEqual(result.complete + result.failed, 30)
        XCTAssertEqual(s.syncProgress.state, .failed)
        XCTAssertEqual(s.syncProgress.total, 30)
        // Every pause taken, in order, before it gave up (the probes' sleeps are among them).
        var pauses = Sync.retryPauses[...]
        for slept in clock.sleeps where slept == pauses.first { pauses.removeFirst() }
        XCTAssertEqual(Array(pauses), [], "every pause taken before it gave up")
    }

    /// Issue 36's third report: Ctrl-C at 319 of 1351 left `SyncProgress` at (30, 30), "done".
    func testACancelledSyncSaysCancelledAtHowFarItCame() async throws {
        let clock = ManualClock()
        let api = FakePokeAPI()
        // The last five Pokémon hang until the caller leaves (five, so that the host's six
        // connections are not all held and the rest can finish first).
        for id in 26...30 {
            api.client.route(FakePokeAPI.base + "/pokemon/\(id)/") { _ in
                try await Task.sleep(for: .seconds(600))
                throw TransportFailure.timedOut("never")
            }
        }
        let s = try makeService(api.client, clock: clock)
        let seen = Mutex<[SyncProgress]>([])
        s.observe { if case .sync(let p) = $0 { seen.withLock { $0.append(p) } } }
        let caller = Task { try await s.sync().value() }
        while s.syncProgress.done < 25 { try await Task.sleep(for: .milliseconds(5)) }
        caller.cancel()
        _ = try? await caller.value
        // The work ends once its last caller left: wait for its own word.
        for _ in 0..<2000 where s.syncProgress.state == .running { try await Task.sleep(for: .milliseconds(5)) }
        XCTAssertEqual(s.syncProgress.state, .cancelled)
        XCTAssertEqual(s.syncProgress.done, 25, "as far as it came, not the total")
        XCTAssertEqual(s.syncProgress.total, 30)
        XCTAssertEqual(seen.withLock { $0.last }, s.syncProgress, "and told so")
        // The network back, a sync after it resumes and ends done.
        let good = FakePokeAPI()
        for id in 26...30 {
            api.client.route(FakePokeAPI.base + "/pokemon/\(id)/") { try await good.client.get($0) }
        }
        let again = try await s.sync().value()
        XCTAssertEqual(again, SyncResult(complete: 30, failed: 0))
        XCTAssertEqual(s.syncProgress, SyncProgress(done: 30, total: 30, state: .done))
    }
}
