import Foundation
import XCTest
import PokedexBusClient
import PokedexCore

/// Issue 4 over a real bus against the mock: pre-warming, single flight, revalidation,
/// retries, Retry-After, offline and back, and sync.
final class NetworkDisciplineTests: DaemonTestCase {
    func spritesOnDisk() -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: h.home + "/cache/pokedex/v2/sprites")) ?? [])
    }

    func testPrewarmsThePageAndTheNextTwoWithoutBodies() throws {
        try h.startDaemon()
        let c = try PokedexClient()
        _ = try c.listPage(offset: 10, limit: 5)
        let wanted = Set((11...25).map { "\($0).png" })
        // What a person sees: the next pages' rows with their sprites, with no call that asked
        // for them. (A file on disk is a moment ahead of the rows: it is written, then known.)
        _ = try waitFor("pages 10–24 pre-warmed", seconds: 20) {
            try c.listPage(offset: 10, limit: 15).entries.allSatisfy { !$0.spritePath.isEmpty } ? true : nil
        }
        XCTAssertTrue(wanted.isSubset(of: spritesOnDisk()), "\(spritesOnDisk().sorted())")
        XCTAssertEqual(try h.requests("pokemon"), 0, "sprites need no 300–600 KB pokemon body")
        XCTAssertEqual(try h.requests("pokemon-list"), 1)
    }

    func testHundredConcurrentDetailsMakeOneRequestEach() throws {
        try h.startDaemon(["--no-prefetch"])
        _ = try PokedexClient().listPage(offset: 0, limit: 1)
        try h.control(["latency_ms": 300, "latency_prefix": "/api/v2/pokemon"])
        let clients = try (0..<100).map { _ in try PokedexClient() }
        XCTAssertEqual(try PokedexClient.concurrent(clients.map { ($0, "Detail", "pikachu") }), 100)
        XCTAssertEqual(try h.requests("pokemon"), 1)
        XCTAssertEqual(try h.requests("pokemon-species"), 1)
    }

    func testStaleEntriesAreAnsweredAtOnceAndRevalidatedWithETags() throws {
        // max-age=0: stale as soon as it is stored, with no second to wait.
        try h.control(["max_age": 0])
        try h.startDaemon(["--no-prefetch"])
        let c = try PokedexClient()
        _ = try c.detail("pikachu")
        // The revalidation is held at the server: the answer cannot have waited for it.
        try h.control(["hold_prefix": "/api/v2/pokemon/25"])
        XCTAssertEqual(try c.detail("pikachu").name, "pikachu", "stale: answered at once, not after the revalidation")
        _ = try waitFor("the revalidation to be asked", seconds: 10) { (try h.stats()["held"] as? Int ?? 0) >= 1 ? true : nil }
        try h.control(["hold_prefix": ""])
        _ = try waitFor("a 304", seconds: 10) { (try h.stats()["not_modified"] as? Int ?? 0) >= 1 ? true : nil }
        XCTAssertGreaterThanOrEqual(try h.stats()["if_none_match"] as? Int ?? 0, 1)
    }

    func testServerErrorsAreRetriedAndRetryAfterIsHonoured() throws {
        try h.startDaemon(["--no-prefetch"])
        let c = try PokedexClient()
        _ = try c.listPage(offset: 0, limit: 1)
        try h.control(["fail_status": 503, "fail_count": 2])
        XCTAssertEqual(try c.detail("raichu").name, "raichu", "two 503s, then data")
        // Retry-After: 50 is half a second at the tests' schedule scale (a floor: a busy machine
        // only makes it longer).
        try h.control(["fail_status": 429, "fail_count": 1, "retry_after": 50])
        let start = now()
        XCTAssertEqual(try c.detail("zubat").name, "zubat")
        XCTAssertGreaterThanOrEqual(now() - start, 50 * Harness.scheduleScale - 0.01, "waited Retry-After")
        try h.control(["fail_status": 500, "fail_count": NSNull()])
        let msg = assertBusError(errorPrefix + "Unavailable") { () throws(BusError) in _ = try c.detail("oddish") }
        // Ended by its attempts running out, with the server's answer, not by the deadline.
        XCTAssertTrue(msg.contains("500") && !msg.contains("did not finish within"), msg)
        try h.control(["fail_status": 0])
    }

    func testRepeatedTyposAndMissingResourcesDoNotHitTheAPI() throws {
        try h.startDaemon(["--no-prefetch"])
        let c = try PokedexClient()
        _ = try c.listPage(offset: 0, limit: 1)
        try h.resetStats()
        for _ in 0..<20 { assertBusError(errorPrefix + "NotFound") { () throws(BusError) in _ = try c.detail("pikachuu") } }
        XCTAssertEqual(try h.stats()["requests"] as? Int, 0, "names are resolved against the cached list")
    }

    func testGoesOfflineAnnouncesItAndComesBackOnItsOwn() throws {
        try h.startDaemon(["--no-prefetch"])
        let c = try PokedexClient()
        _ = try c.listPage(offset: 0, limit: 20)
        let watcher = try PokedexSignalWatcher()
        XCTAssertEqual(try c.property("Online").bool, true)
        try h.control(["offline": true])
        assertBusError(errorPrefix + "Unavailable") { () throws(BusError) in _ = try c.detail("raichu") }
        XCTAssertEqual(try c.property("Online").bool, false)
        XCTAssertEqual(try c.listPage(offset: 0, limit: 20).entries.count, 20, "still answers what it has")
        try h.control(["offline": false])
        _ = try waitFor("back online", seconds: 8) { try c.property("Online").bool == true ? true : nil }
        var changed: [String] = []
        while let s = try watcher.next(timeout: 1) {
            if s.member == "PropertiesChanged", case .dict(let d)? = s.values.dropFirst().first {
                changed += d.compactMap { $0.key.string }
            }
        }
        XCTAssertEqual(changed.filter { $0 == "Online" }.count, 2, "\(changed)")
        XCTAssertEqual(try c.detail("raichu").name, "raichu")
    }

    func testSyncFetchesEverythingForOffline() throws {
        try h.startDaemon(["--no-prefetch"])
        let c = try PokedexClient()
        var seen: [(UInt32, UInt32)] = []
        let result = try c.sync(every: 0.05) { seen.append(($0, $1)); _ = $2 }
        XCTAssertEqual(result.complete, 46)
        XCTAssertEqual(result.failed, 0)
        XCTAssertEqual(seen.last?.1 ?? 46, 46)
        let again = try c.sync { _, _, _ in }
        XCTAssertEqual(again.complete, 46, "a second sync finds everything and fetches nothing")
        try h.control(["offline": true])
        h.stopDaemon()
        try h.startDaemon(["--no-prefetch"])
        let offline = try PokedexClient()
        for id in 1...44 { XCTAssertFalse(try offline.detail(String(id)).spritePath.isEmpty, "#\(id)") }
        XCTAssertEqual(try offline.detail("deoxys-attack").genus, "Test Pokémon 386")
        // In another language too: the names of types, abilities, stats and forms came with the sync.
        let de = try offline.call(Pokedex1.localizedDetail, ("charizard", "de"))
        XCTAssertEqual(de.typeNames, ["Feuer", "Flug"])
        XCTAssertEqual(de.abilityNames, ["Statik", "Blitzfänger"])
        XCTAssertEqual(de.statNames.last, "Initiative")
        XCTAssertEqual(try offline.call(Pokedex1.localizedDetail, ("deoxys-attack", "de")).displayName, "Deoxys (Angriff)")
        for offset: UInt32 in stride(from: 0, to: 46, by: 20) {
            XCTAssertTrue(try offline.listPage(offset: offset, limit: 20).entries.allSatisfy { !$0.spritePath.isEmpty })
        }
    }
}
