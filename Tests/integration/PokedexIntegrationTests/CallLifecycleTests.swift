import Foundation
import XCTest
import PokedexBusClient

/// A deferred call ends when nobody waits for it: its caller left, or its time ran out.
/// Its transfer is cancelled then (the mock counts requests whose client hung up while it
/// waited); PendingCallsTests shows it goes on while another caller still waits for it.
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
        try h.startDaemon(["--timeout", "1"])
        let c = try PokedexClient()
        _ = try c.listPage(offset: 0, limit: 20)  // the list is in memory
        // Two chained fetches (pokemon, then species) of 0.6 s each: each is within its own
        // 1 s, but the call as a whole (1.2 s) is not. The reply says which ended it: the call's
        // deadline, while it waited for the species (a fetch's own would name no call).
        try h.control(["latency_ms": 600, "latency_prefix": "/api/v2/pokemon"])
        let message = assertBusError(errorPrefix + "Unavailable") { () throws(BusError) in _ = try c.detail("charizard") }
        XCTAssertTrue(message.hasPrefix("Detail did not finish within 1 s: it was still waiting for pokemon-species"), message)
        _ = try waitFor("the mock to see the species transfer abandoned", seconds: 6) { try abandoned() >= 1 ? true : nil }
        try h.control(["latency_ms": 0])
        XCTAssertEqual(try c.detail("charizard").name, "charizard", "the service goes on")
    }

    func testACallerThatLeavesCancelsItsTransfer() throws {
        try h.startDaemon()
        let c = try PokedexClient()
        _ = try c.listPage(offset: 0, limit: 20)
        try h.control(["hold_prefix": "/api/v2/pokemon/7/"])
        let caller = try busctl(Pokedex1.detail.name, "s", "squirtle")
        _ = try waitFor("the call to wait on the network", seconds: 10) { (try h.stats()["held"] as? Int ?? 0) >= 1 ? true : nil }
        kill(caller.processIdentifier, SIGKILL)
        caller.waitUntilExit()
        _ = try waitFor("the mock to see the transfer abandoned", seconds: 10) { try abandoned() >= 1 ? true : nil }
        try h.control(["hold_prefix": ""])
        XCTAssertEqual(try c.detail("squirtle").name, "squirtle", "nothing half-done was kept")
    }

    // A transfer another caller still waits for going on when one caller leaves: in
    // PendingCallsTests.testWorkAnotherCallerWaitsForGoesOn, where the test can see both calls
    // pending before the first caller leaves (from outside, only a guessed sleep could).

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
