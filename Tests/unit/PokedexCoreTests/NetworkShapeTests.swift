import Foundation
import XCTest
import PokedexLocks
import PokedexModels
import PokedexTestKit
@testable import PokedexCore

/// Each host's health on its own, size caps, and the fetcher's treatment of a host that is down.
final class HostHealthTests: XCTestCase {
    let api = "https://pokeapi.test/api/v2/pokemon/25/"
    let sprite = "https://sprites.test/25.png"

    func testASpriteHostThatFailsLeavesOnlineAloneAndIsLoggedOnce() async throws {
        let client = FakeHTTPClient(), clock = ManualClock()
        let lines = Mutex<[String]>([])
        client.route(api) { _ in HTTPResponse(status: 200, body: [1]) }
        client.route(sprite) { _ in throw TransportFailure.connection("Could not resolve host: sprites.test") }
        let f = Fetcher(client: client, clock: clock, allowedHosts: ["pokeapi.test", "sprites.test"], apiHost: "pokeapi.test",
                        log: { level, m in if level != .debug { lines.withLock { $0.append(m) } } })
        let changes = Mutex<[String]>([])
        f.health.observe { c in changes.withLock { $0.append("\(c.host) \(c.up)") } }
        for _ in 0..<10 {
            _ = try await f.fetch(api)
            _ = try? await withPriority(.optional) { () async throws(FetchError) in try await f.fetch(sprite, as: .png) }
        }
        XCTAssertTrue(f.isOnline, "the API answers: Online does not move")
        XCTAssertEqual(changes.withLock { $0 }, ["sprites.test false"])
        XCTAssertEqual(client.count(sprite), 1, "the first fetch found it down; nobody waited on it again")
        XCTAssertEqual(lines.withLock { $0.filter { $0.contains("sprites.test") } }.count, 1, "\(lines.withLock { $0 })")
        let hosts = f.hosts
        XCTAssertEqual(hosts.map(\.host), ["pokeapi.test", "sprites.test"])
        XCTAssertEqual(hosts.map(\.up), [true, false])
        XCTAssertTrue(hosts[1].reason.contains("Could not resolve"), hosts[1].reason)
        // A caller who needs it is answered from what is known until the next try is due, then
        // makes that one attempt; an answer brings it back, logged once.
        client.route(sprite) { _ in HTTPResponse(status: 200, body: [2]) }
        _ = try await f.fetch(sprite, as: .png)
        XCTAssertEqual(client.count(sprite), 2)
        XCTAssertEqual(clock.sleeps.last ?? 0, 1.125, accuracy: 0.126, "it waited for the try a second away, then made it")
        XCTAssertEqual(changes.withLock { $0 }, ["sprites.test false", "sprites.test true"])
        XCTAssertTrue(lines.withLock { $0.last ?? "" }.contains("sprites.test answers again"))
    }

    func testABodyOverItsCapIsRefusedOnceAndTheHostStaysUp() async throws {
        let client = FakeHTTPClient(), clock = ManualClock()
        client.route(sprite) { _ in HTTPResponse(status: 200, body: [UInt8](repeating: 0, count: BodyKind.png.maxBytes + 1)) }
        let f = Fetcher(client: client, clock: clock, allowedHosts: ["sprites.test", "pokeapi.test"])
        do {
            _ = try await f.fetch(sprite, as: .png)
            XCTFail("expected tooLarge")
        } catch {
            XCTAssertEqual(error, .tooLarge(url: sprite, limit: BodyKind.png.maxBytes))
            XCTAssertTrue(error.isPermanent)
        }
        XCTAssertEqual(client.count(sprite), 1, "not retried")
        XCTAssertTrue(f.isOnline)
        // The transport's own refusal (curl counting decoded bytes) is the same permanent error.
        client.route(api) { _ in throw TransportFailure.tooLarge("the body is over 4194304 bytes") }
        do { _ = try await f.fetch(api); XCTFail() } catch { XCTAssertEqual(error, .tooLarge(url: api, limit: BodyKind.json.maxBytes)) }
        XCTAssertEqual(client.count(api), 1)
        XCTAssertTrue(f.hosts.allSatisfy(\.up))
    }

    func testRequestsInFlightWhenAHostGoesDownDoNotPushItsProbeBack() {
        let clock = ManualClock()
        let health = HostHealth(apiHost: "pokeapi.test", clock: clock)
        // Twenty sprites sent while the host was up, all failing once it is gone.
        guard case .go(let before) = health.admit("sprites.test", .optional) else { return XCTFail() }
        for _ in 0..<20 { health.failed("sprites.test", .connection("Empty reply from server"), url: sprite, sentDuring: before) }
        let first = health.snapshot().first { $0.host == "sprites.test" }!
        XCTAssertEqual(first.nextAttempt.map { $0 - clock.now().timeIntervalSince1970 } ?? -1, 1.125, accuracy: 0.126,
                       "the first probe in 1 s, not 30: only the first failure counted")
        // Nothing goes before the probe is due; a probe sent then that fails does push it back.
        guard case .waitUntil = health.admit("sprites.test", .required) else { return XCTFail() }
        clock.advance(1.25)
        guard case .once(let during) = health.admit("sprites.test", .required) else { return XCTFail() }
        health.failed("sprites.test", .connection("Empty reply from server"), url: sprite, sentDuring: during)
        let second = health.snapshot().first { $0.host == "sprites.test" }!
        XCTAssertEqual(second.nextAttempt.map { $0 - clock.now().timeIntervalSince1970 } ?? -1, 2.25, accuracy: 0.251)
        // A probe finds it back; a late failure of a request sent before the outage leaves it up.
        health.answered("sprites.test", status: 200, multiplexed: nil, sentDuring: during)
        XCTAssertTrue(health.isUp("sprites.test"))
        health.failed("sprites.test", .connection("Empty reply from server"), url: sprite, sentDuring: before)
        XCTAssertTrue(health.isUp("sprites.test"), "an old request's failure does not take it down again")
    }

    /// A caller waiting for a down host's one attempt stops waiting when its task is cancelled
    /// (a call past its deadline, a caller gone), not when the attempt's own time-out ends; the
    /// others go on waiting, and are let go when the attempt ends.
    func testACancelledCallerStopsWaitingForTheHostsAttempt() async throws {
        let clock = ManualClock()
        let health = HostHealth(apiHost: "pokeapi.test", clock: clock)
        guard case .go(let before) = health.admit("sprites.test", .optional) else { return XCTFail() }
        health.failed("sprites.test", .connection("Empty reply from server"), url: sprite, sentDuring: before)
        clock.advance(1.25)
        guard case .once = health.admit("sprites.test", .required) else { return XCTFail("the attempt") }
        guard case .wait = health.admit("sprites.test", .required) else { return XCTFail("a caller waits for it") }
        let cancelled = Task { await health.waitForAttempt("sprites.test"); return Task.isCancelled }
        let staying = Task { await health.waitForAttempt("sprites.test") }
        try await Task.sleep(nanoseconds: 20_000_000)  // both queued (the outcome holds either way)
        cancelled.cancel()
        let wasCancelled = await cancelled.value
        XCTAssertTrue(wasCancelled, "released by its cancellation, the attempt still under way")
        health.endAttempt("sprites.test")
        await staying.value
        // Cancelled before it asks: it does not wait at all.
        guard case .once = health.admit("sprites.test", .required) else { return XCTFail("the next attempt") }
        let early = Task { withUnsafeCurrentTask { $0?.cancel() }; await health.waitForAttempt("sprites.test") }
        await early.value
        health.endAttempt("sprites.test")
    }

    func testServerErrorsTakeEightInARowToDownAHost() async throws {
        let client = FakeHTTPClient(), clock = ManualClock()
        client.route(api) { _ in HTTPResponse(status: 503) }
        let f = Fetcher(client: client, clock: clock, allowedHosts: ["pokeapi.test"], apiHost: "pokeapi.test", maxAttempts: 3)
        _ = try? await f.fetch(api)
        _ = try? await f.fetch(api)
        XCTAssertTrue(f.isOnline, "six 503s: still a host that answers")
        _ = try? await f.fetch(api)
        XCTAssertFalse(f.isOnline, "eight in a row")
    }

    func testCallTraceNamesTheStepUnderWay() async throws {
        let trace = CallTrace()
        let seen = Mutex<String?>(nil)
        try await CallTrace.$current.withValue(trace) {
            _ = try await CallTrace.step("waiting for pokemon-species (x)") { () async throws -> Int in
                seen.withLock { $0 = trace.waitingFor }
                return 1
            }
        }
        XCTAssertEqual(seen.withLock { $0 }, "waiting for pokemon-species (x)")
        XCTAssertNil(trace.waitingFor, "a finished step is gone")
    }
}

/// Sprites when the sprite host is blocked: pages answer, and bodies are not fetched to find
/// sprite URLs on the same failing host.
final class BlockedSpriteHostTests: XCTestCase {
    func testFivePagesAndADetailCostAtMostTwoBodiesAndNoOnlineChange() async throws {
        let api = FakePokeAPI()
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for id in 1...30 {
            api.client.route("https://sprites.test/\(id).png") { _ in throw TransportFailure.connection("Could not resolve host: sprites.test") }
            api.client.route(ServiceConfiguration.defaultSpriteURLTemplate.replacingOccurrences(of: "{id}", with: "\(id)")) { _ in
                throw TransportFailure.connection("Could not resolve host: raw.githubusercontent.com")
            }
        }
        // The default pattern (no template configured): bodies confirm which host they name.
        let config = ServiceConfiguration(apiURL: FakePokeAPI.base, spriteHosts: ["sprites.test", "raw.githubusercontent.com"],
                                          cacheDirectory: dir + "/c", dataDirectory: dir + "/d", prefetch: true)
        let s = PokedexService(configuration: config, client: api.client,
                               store: try FileCacheStore(directory: config.cacheDirectory, capacity: 1 << 24),
                               // The real clock: probing the hosts that are down must not move a fetch's deadline.
                               favorites: try FavoritesBook(persistence: MemoryFavoritesPersistence()), clock: SystemClock())
        let events = Mutex([ServiceEvent]())
        s.observe { e in events.withLock { $0.append(e) } }
        s.start()
        for page in 0..<5 {
            let p = try await s.listPage(offset: UInt32(page * 6), limit: 6).value()
            XCTAssertEqual(p.entries.count, 6)
            try await Task.sleep(nanoseconds: 30_000_000)
        }
        let d = try await s.detail("pikachu").value()
        XCTAssertEqual(d.spritePath, "", "answered without the sprite")
        try await Task.sleep(nanoseconds: 100_000_000)
        let bodies = (1...30).map { api.client.count(FakePokeAPI.base + "/pokemon/\($0)/") }.reduce(0, +)
        XCTAssertLessThanOrEqual(bodies, 2, "one body to learn where sprites are, one for the Detail")
        XCTAssertFalse(events.withLock { $0 }.contains { if case .online = $0 { return true } else { return false } })
        XCTAssertTrue(s.isOnline)
        XCTAssertEqual(s.status().hosts.first { $0.host == "sprites.test" }?.up, false)
    }
}
