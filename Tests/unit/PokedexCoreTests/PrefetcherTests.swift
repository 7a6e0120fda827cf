import XCTest
import PokedexTestKit
import PokedexLocks
@testable import PokedexCore

/// Jobs that block until released, recording the order they started in.
final class GatedJobs: Sendable {
    private let state = Mutex((started: [UInt32](), gates: [UInt32: CheckedContinuation<Void, Never>]()))
    var started: [UInt32] { state.withLock { $0.started } }
    func run(_ id: UInt32) async {
        await withCheckedContinuation { c in state.withLock { $0.started.append(id); $0.gates[id] = c } }
    }
    func release(_ id: UInt32) { state.withLock { $0.gates.removeValue(forKey: id) }?.resume() }
    func releaseAll() { for c in state.withLock({ s in defer { s.gates.removeAll() }; return Array(s.gates.values) }) { c.resume() } }
    func waitForStarted(_ n: Int) async throws {
        for _ in 0..<500 where started.count < n { try await Task.sleep(nanoseconds: 2_000_000) }
    }
}

final class PrefetcherTests: XCTestCase {
    func testPageOnScreenFirstAndAConnectionLeftForCallers() async throws {
        let jobs = GatedJobs()
        let p = Prefetcher(maxConcurrent: 6, background: BackgroundWork()) { await jobs.run($0) }
        p.schedule(urgent: [1, 2, 3, 4, 5, 6, 7], ahead: [21, 22, 23, 24, 25, 26])
        try await jobs.waitForStarted(6)
        XCTAssertEqual(Set(jobs.started), [1, 2, 3, 4, 5, 6], "the page on screen first, on every connection")
        jobs.release(1)
        try await jobs.waitForStarted(7)
        XCTAssertEqual(jobs.started.last, 7)
        for id: UInt32 in [2, 3, 4, 5, 6, 7] { jobs.release(id) }
        try await jobs.waitForStarted(12)
        try await Task.sleep(nanoseconds: 20_000_000)
        XCTAssertEqual(jobs.started.count, 12, "pages ahead leave one connection free: 5 at once")
        XCTAssertEqual(p.pending.running, 5)
        jobs.releaseAll()
    }

    func testANewPageDropsWorkForPagesLeftBehind() async throws {
        let jobs = GatedJobs()
        let p = Prefetcher(maxConcurrent: 2, background: BackgroundWork()) { await jobs.run($0) }
        p.schedule(urgent: [1, 2], ahead: [21, 22, 41, 42])
        try await jobs.waitForStarted(2)
        // The caller jumped to page 10: pages 2 and 3 are no longer wanted.
        p.schedule(urgent: [201, 202], ahead: [221])
        XCTAssertEqual(p.pending.queued, [201, 202, 221])
        jobs.release(1)
        jobs.release(2)
        try await jobs.waitForStarted(4)
        XCTAssertEqual(Set(jobs.started.suffix(2)), [201, 202])
        jobs.releaseAll()
        try await jobs.waitForStarted(5)
        try await Task.sleep(nanoseconds: 20_000_000)
        jobs.releaseAll()
        XCTAssertFalse(jobs.started.contains(21) || jobs.started.contains(41))
    }

    func testPausedWhileOffline() async throws {
        let jobs = GatedJobs()
        let p = Prefetcher(maxConcurrent: 4, background: BackgroundWork()) { await jobs.run($0) }
        p.setPaused(true)
        p.schedule(urgent: [1, 2], ahead: [3])
        try await Task.sleep(nanoseconds: 20_000_000)
        XCTAssertEqual(jobs.started, [])
        p.setPaused(false)
        try await jobs.waitForStarted(3)
        XCTAssertEqual(jobs.started.count, 3)
        jobs.releaseAll()
    }
}

final class OfflineTests: XCTestCase {
    func testGoesOfflineProbesWithBackoffAndComesBack() async throws {
        let api = FakePokeAPI()
        let clock = ManualClock()
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = ServiceConfiguration(apiURL: FakePokeAPI.base, spriteHosts: ["sprites.test"], cacheDirectory: dir + "/c",
                                          dataDirectory: dir + "/d", spriteURLTemplate: "https://sprites.test/{id}.png", prefetch: false)
        let s = PokedexService(configuration: config, client: api.client,
                               store: try FileCacheStore(directory: config.cacheDirectory, capacity: 1 << 24),
                               favorites: try FavoritesBook(persistence: MemoryFavoritesPersistence()), clock: clock)
        let events = Mutex([ServiceEvent]())
        s.observe { e in events.withLock { $0.append(e) } }
        _ = try await s.listPage(offset: 0, limit: 5).value()
        // The network goes: the call's two attempts (the second once the host is known down) and
        // three probes of the URL that failed fail; the fourth probe answers.
        let down = Counter()
        let healthy = FakePokeAPI()
        api.client.route(FakePokeAPI.base + "/pokemon/7/") { req in
            if down.next() < 5 { throw TransportFailure.connection("Network is unreachable") }
            return try await healthy.client.get(req)
        }
        do {
            _ = try await s.detail("mon7").value()
            XCTFail("expected Unavailable")
        } catch {
            XCTAssertEqual(error.dbusName, "io.github.pokedexd.Pokedex1.Error.Unavailable")
        }
        XCTAssertNotNil(try s.listPage(offset: 0, limit: 5).ready, "what it has is still answered")
        await settle(s)  // the probes, until one finds the host back
        XCTAssertTrue(s.isOnline, "back online after the probes")
        XCTAssertEqual(events.withLock { $0 }, [.online(false), .online(true)])
        // The first probe is due 1 s after the host went down; each failure (a probe's, or the
        // call's own last try, which may come first) doubles the wait: the waits only grow.
        let probeWaits = Array(clock.sleeps.filter { $0 >= 1.5 }.prefix(3))
        XCTAssertEqual(probeWaits.count, 3, "probes back off gently: \(clock.sleeps)")
        XCTAssertTrue(zip(probeWaits, probeWaits.dropFirst()).allSatisfy { $1 > $0 } && (probeWaits.first ?? 0) <= 4,
                      "probes back off gently: \(clock.sleeps)")
        // The call's two attempts, then probes one at a time (the first may race the call's
        // last try), the fourth probe answering.
        let requests = down.next()
        XCTAssertTrue((6...7).contains(requests), "\(requests) requests")
    }
}
