import Foundation
import XCTest
import PokedexLocks
import PokedexModels
import PokedexTestKit
@testable import PokedexCore

/// The request gate: callers first, room kept for them, per-host connections where a host
/// does not multiplex, and the budget of bytes held for decoding.
final class RequestGateTests: XCTestCase {
    func gate(_ max: Int = 8, perHost: Int = 3, bytes: Int = 1 << 20, multiplexes: Bool? = nil) -> RequestGate {
        RequestGate(limits: .init(maxInFlight: max, perHostConnections: perHost, maxHeldBytes: bytes), multiplexes: { _ in multiplexes })
    }

    /// Enters in the background and records the order of admission.
    func enter(_ g: RequestGate, _ url: String, _ p: FetchPriority, bytes: Int = 0, order: Mutex<[String]>) -> Task<RequestGate.Ticket, any Error> {
        Task {
            let t = try await g.enter(host: HostHealth.authority(url)!, url: url, priority: p, bytes: bytes)
            order.withLock { $0.append(url) }
            return t
        }
    }

    func settle() async { for _ in 0..<50 { await Task.yield() }; try? await Task.sleep(nanoseconds: 5_000_000) }

    func testCallersGoBeforeQueuedPrefetchAndKeepTheirReserve() async throws {
        let g = gate(8, multiplexes: true)
        let order = Mutex<[String]>([])
        // Background work may take 8 - 1 slots; the eighth stays for callers.
        let background = (0..<9).map { enter(g, "https://h.test/bg\($0)", .background, order: order) }
        await settle()
        XCTAssertEqual(g.usage.inFlight, 7, "one slot kept for callers")
        let caller = enter(g, "https://h.test/caller", .required, order: order)
        await settle()
        XCTAssertEqual(order.withLock { $0.last }, "https://h.test/caller", "a caller never waits behind prefetch")
        XCTAssertEqual(g.usage.inFlight, 8)
        // A slot frees: the next background job gets it only because no caller waits.
        let late = enter(g, "https://h.test/caller2", .optional, order: order)
        await settle()
        // Tasks start in no set order: the job that frees its slot is one that was admitted
        // (awaiting one of the two still queued would wait for ever).
        let admitted = try XCTUnwrap(order.withLock { $0.first })
        let first = try XCTUnwrap(background.indices.first { "https://h.test/bg\($0)" == admitted })
        g.release(try await background[first].value)
        await settle()
        XCTAssertEqual(order.withLock { $0.last }, "https://h.test/caller2")
        for t in [caller, late] { g.release(try await t.value) }
        for (i, t) in background.enumerated() where i != first { t.cancel() }
        await settle()
        XCTAssertEqual(g.usage.waiting, 0, "cancelled waiters leave the queue")
    }

    func testHTTP1HostsGetAFewConnectionsAndBackgroundWorkLeavesOneFree() async throws {
        let g = gate(64, perHost: 3)
        let order = Mutex<[String]>([])
        _ = (0..<5).map { enter(g, "http://h1.test/bg\($0)", .background, order: order) }
        await settle()
        XCTAssertEqual(g.usage.inFlight, 2, "3 connections to an HTTP/1.1 host, background work leaves one")
        _ = enter(g, "http://h1.test/caller", .required, order: order)
        _ = (0..<5).map { enter(g, "https://h2.test/p\($0)", .prefetch, order: order) }
        await settle()
        XCTAssertEqual(g.usage.inFlight, 3 + 5, "the caller takes the free connection; an HTTPS host multiplexes until it says otherwise")
        let prefetch = (0..<3).map { enter(g, "http://other.test/p\($0)", .prefetch, order: order) }
        await settle()
        XCTAssertEqual(g.usage.inFlight, 3 + 5 + 3, "pre-warming may use every connection of an HTTP/1.1 host")
        let caller = enter(g, "http://other.test/caller", .required, order: order)
        await settle()
        g.release(try await prefetch[0].value)
        await settle()
        XCTAssertEqual(order.withLock { $0.last }, "http://other.test/caller", "a caller is next in line for the first free connection")
        g.release(try await caller.value)
    }

    func testTheByteBudgetHoldsBackNewBodiesUntilDecoded() async throws {
        let g = gate(64, bytes: 1 << 20, multiplexes: true)
        let order = Mutex<[String]>([])
        let first = enter(g, "https://h.test/a", .required, bytes: 600 << 10, order: order)
        await settle()
        let second = enter(g, "https://h.test/b", .required, bytes: 600 << 10, order: order)
        await settle()
        XCTAssertEqual(order.withLock { $0 }, ["https://h.test/a"], "600 + 600 KiB is over the 1 MiB budget")
        let a = try await first.value
        g.transferEnded(a, bodyBytes: 700 << 10)
        await settle()
        XCTAssertEqual(order.withLock { $0.count }, 1, "its body is still held until decoded")
        g.release(a)
        await settle()
        XCTAssertEqual(order.withLock { $0 }, ["https://h.test/a", "https://h.test/b"])
        g.release(try await second.value)
        XCTAssertEqual(g.usage.heldBytes, 0)
        XCTAssertEqual(g.usage.inFlight, 0)
    }

    func testPromotionMovesAQueuedRequestUp() async throws {
        let g = gate(2, multiplexes: true)
        let order = Mutex<[String]>([])
        let hold = enter(g, "https://h.test/hold", .required, order: order)
        await settle()
        _ = enter(g, "https://h.test/bg", .background, order: order)
        _ = enter(g, "https://h.test/pre", .prefetch, order: order)
        _ = enter(g, "https://h.test/wanted", .background, order: order)
        await settle()
        FetchPriority.$current.withValue(.required) { g.promote("https://h.test/wanted", to: .required) }
        g.release(try await hold.value)
        await settle()
        XCTAssertEqual(order.withLock { $0 }.dropFirst().first, "https://h.test/wanted")
    }
}

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
                        log: { _, m in lines.withLock { $0.append(m) } })
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
