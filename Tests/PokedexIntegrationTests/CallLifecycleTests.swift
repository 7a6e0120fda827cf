import Foundation
import XCTest
import PokedexBusClient

/// A deferred call ends when nobody waits for it: its caller left, or its time ran out.
/// Its transfer is cancelled then (the mock counts requests whose client hung up while it
/// waited), unless another caller still waits for the same resource.
final class CallLifecycleTests: DaemonTestCase {
    func abandoned() throws -> Int { (try h.stats()["abandoned"] as? Int) ?? 0 }

    /// `busctl call` in the background: a caller on its own connection, which a test can kill.
    func busctl(_ member: String, _ signature: String, _ args: String...) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["busctl", "--address=" + h.busAddress, "--timeout=30", "call", Pokedex1.busName, Pokedex1.objectPath,
                       Pokedex1.interfaceName, member, signature] + args
        p.standardOutput = Pipe()
        p.standardError = Pipe()
        try p.run()
        return p
    }

    func testACallPastTheDeadlineEndsThereAndItsTransferIsCancelled() throws {
        try h.startDaemon(["--timeout", "2"])
        let c = try PokedexClient()
        _ = try c.listPage(offset: 0, limit: 20)  // the list is in memory
        // Two chained fetches (pokemon, then species) of 1.6 s each: each is within its own
        // 2 s, but the call as a whole (3.2 s) is not. Only the call's deadline can end it at 2 s;
        // the margin to the chain's end is wide enough for a busy machine.
        try h.control(["latency_ms": 1600, "latency_prefix": "/api/v2/pokemon"])
        let start = now()
        let message = assertBusError(errorPrefix + "Unavailable") { () throws(BusError) in _ = try c.detail("charizard") }
        let took = now() - start
        XCTAssertLessThan(took, 2.8, "the whole call is bounded by --timeout")
        XCTAssertGreaterThan(took, 1.9)
        XCTAssertTrue(message.contains("Detail did not finish within 2 s"), message)
        _ = try waitFor("the mock to see the species transfer abandoned", seconds: 6) { try abandoned() >= 1 ? true : nil }
        try h.control(["latency_ms": 0])
        XCTAssertEqual(try c.detail("charizard").name, "charizard", "the service goes on")
    }

    func testACallerThatLeavesCancelsItsTransfer() throws {
        try h.startDaemon()
        let c = try PokedexClient()
        _ = try c.listPage(offset: 0, limit: 20)
        try h.control(["latency_ms": 2500, "latency_prefix": "/api/v2/pokemon/7/"])
        let caller = try busctl(Pokedex1.detail.name, "s", "squirtle")
        usleep(500_000)  // the call now waits on the network
        kill(caller.processIdentifier, SIGKILL)
        caller.waitUntilExit()
        _ = try waitFor("the mock to see the transfer abandoned", seconds: 6) { try abandoned() >= 1 ? true : nil }
        try h.control(["latency_ms": 0])
        XCTAssertEqual(try c.detail("squirtle").name, "squirtle", "nothing half-done was kept")
    }

    func testWorkAnotherCallerWaitsForGoesOn() throws {
        try h.startDaemon()
        let c = try PokedexClient()
        _ = try c.listPage(offset: 0, limit: 20)
        try h.resetStats()
        try h.control(["latency_ms": 1500, "latency_prefix": "/api/v2/pokemon/4/"])
        let leaving = try busctl(Pokedex1.detail.name, "s", "charmander")
        let staying = Box("")
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do { staying.value = try PokedexClient().detail("charmander").name } catch { staying.value = "\(error)" }
            done.signal()
        }
        usleep(400_000)
        kill(leaving.processIdentifier, SIGKILL)
        leaving.waitUntilExit()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(staying.value, "charmander")
        XCTAssertEqual(try abandoned(), 0, "the shared transfer was not cancelled")
        XCTAssertEqual(try h.requests("pokemon"), 1, "both callers shared one request")
    }

    func testChangeFavoriteSaysWhatItDidInOneCall() throws {
        try h.startDaemon()
        let c = try PokedexClient()
        XCTAssertEqual(try c.changeFavorite("25", .add), FavoriteUpdate(id: 25, name: "pikachu", favorite: true, changed: true))
        XCTAssertEqual(try c.changeFavorite(" PIKACHU ", .add), FavoriteUpdate(id: 25, name: "pikachu", favorite: true, changed: false))
        XCTAssertEqual(try c.changeFavorite("pikachu", .toggle), FavoriteUpdate(id: 25, name: "pikachu", favorite: false, changed: true))
        XCTAssertEqual(try c.changeFavorite("pikachu", .remove), FavoriteUpdate(id: 25, name: "pikachu", favorite: false, changed: false))
        XCTAssertEqual(try c.listFavorites(), [])
        let bad = assertBusError(errorPrefix + "InvalidArgument") { () throws(BusError) in
            // As a script may send it: any string as the action.
            let untyped = Method("ChangeFavorite", args: .two("pokemon", Coding.argument, "action", Coding.argument),
                                 reply: Pokedex1.changeFavorite.reply, errors: Pokedex1.changeFavorite.errors)
            _ = try c.call(untyped, ("pikachu", "maybe"))
        }
        XCTAssertTrue(bad.contains("add, remove or toggle"), bad)
        assertBusError(errorPrefix + "NotFound") { () throws(BusError) in _ = try c.changeFavorite("pikachuu", .add) }
        XCTAssertEqual(try c.listFavorites(), [], "nothing changed by the failed calls")
    }
}
