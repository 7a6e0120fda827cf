import Foundation
import PokedexBusClient
import XCTest

/// Issue 36, against the real service: a sync outlives a freeze of the service (`SIGSTOP`, then
/// `SIGCONT` once every time limit in it has passed) with nothing failed, and Ctrl-C in
/// `pokectl sync` leaves `SyncState` "cancelled" with `SyncProgress` as far as it came, not "done".
final class SyncOverTimeTests: XCTestCase {
    var h: Harness!
    override func setUpWithError() throws { h = try Harness() }
    override func tearDown() { h.shutdown() }

    /// Waits (up to `seconds`) until `condition` holds; false if it never did.
    func eventually(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if try condition() { return true }
            usleep(50_000)
        }
        return try condition()
    }

    /// The freeze outlasts every clock in the service four times over, as issue 36's 40 s did
    /// with its defaults: the deadline (0.5 s here, 10 s there), the longest probe pause and the
    /// sync's last retry pause (30 s there; 0.3 s at the tests' schedule scale). On the thaw
    /// every timer is due at once.
    static let deadline = 0.5
    static let freeze = 4 * deadline

    func testAFreezePastEveryTimeLimitDuringASyncEndsWithNothingFailed() throws {
        XCTAssertGreaterThan(Self.freeze, 30 * Harness.scheduleScale * 1.25, "past the longest probe pause too")
        try h.startDaemon(["--no-prefetch", "--timeout", String(Self.deadline)])
        try h.control(["latency_ms": 100])  // a sync of some seconds, so the freeze falls inside it
        let c = try PokedexClient()
        let log = URL(fileURLWithPath: h.home + "/sync.out")
        let sync = try h.startPokectl(["sync", "--json"], output: log)
        XCTAssertTrue(try eventually(20) { try c.get(Pokedex1.syncProgress).0 >= 5 }, "the sync got going")
        let pid = h.daemon!.processIdentifier
        let frozeAt = try c.get(Pokedex1.syncProgress)
        kill(pid, SIGSTOP)
        usleep(UInt32(Self.freeze * 1_000_000))
        // The server is quick again when the service thaws: its retries come a hundred times
        // sooner than a service's would, sooner than a 100 ms answer.
        try h.control(["latency_ms": 0])
        kill(pid, SIGCONT)
        let thawed = Date()
        sync.waitUntilExit()
        let took = Date().timeIntervalSince(thawed)
        let out = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        XCTAssertEqual(sync.terminationStatus, 0, out)
        let result = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any]
        XCTAssertEqual(result?["failed"] as? Int, 0, "nothing failed: \(out)")
        XCTAssertEqual(result?["complete"] as? Int, 46, out)
        XCTAssertEqual(try c.get(Pokedex1.syncState), "done")
        let p = try c.get(Pokedex1.syncProgress)
        XCTAssertEqual(p.0, p.1)
        print("freeze of \(Self.freeze) s at \(frozeAt.0)/\(frozeAt.1): the sync ended \(String(format: "%.1f", took)) s after the thaw, \(out.trimmingCharacters(in: .whitespacesAndNewlines))")
    }

    func testCtrlCInASyncLeavesItCancelledAsFarAsItCame() throws {
        try h.startDaemon(["--no-prefetch"])
        try h.control(["latency_ms": 200])
        let c = try PokedexClient()
        XCTAssertEqual(try c.get(Pokedex1.syncState), "idle")
        let log = URL(fileURLWithPath: h.home + "/sync.out")
        let sync = try h.startPokectl(["sync"], output: log)
        XCTAssertTrue(try eventually(20) { try c.get(Pokedex1.syncProgress).0 >= 5 }, "the sync got going")
        kill(sync.processIdentifier, SIGINT)
        sync.waitUntilExit()
        let pressed = Date()
        XCTAssertTrue(try eventually(10) { try c.get(Pokedex1.syncState) != "running" }, "the service saw its caller leave")
        let after = Date().timeIntervalSince(pressed)
        XCTAssertEqual(try c.get(Pokedex1.syncState), "cancelled")
        let p = try c.get(Pokedex1.syncProgress)
        XCTAssertLessThan(p.0, p.1, "as far as it came, not the total: \(p)")
        XCTAssertGreaterThanOrEqual(p.0, 5)
        print("Ctrl-C at \(p.0)/\(p.1): SyncState cancelled \(String(format: "%.2f", after)) s later")
        // A sync after it resumes and ends done.
        try h.control(["latency_ms": 0])
        let again = try h.pokectl(["sync", "--json"])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertEqual(try c.get(Pokedex1.syncState), "done")
    }
}
