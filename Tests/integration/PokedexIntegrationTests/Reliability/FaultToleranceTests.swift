import Foundation
import PokedexBusClient
import PokedexCore
import XCTest

/// A flaky API and a vanishing network: every call ends in data or a typed error (the reply
/// says whether the deadline ended it), retries turn nearly all faults into data, and nothing
/// cut off is ever cached. The daemon's retry schedule runs at the tests' scale (Harness).
final class FaultToleranceTests: DaemonTestCase {
    /// The name the mock gives Pokémon number `id` in a 1351-entry list.
    static func expectedName(_ id: Int) -> String? {
        let real = ["bulbasaur", "ivysaur", "venusaur", "charmander", "charmeleon", "charizard", "squirtle", "wartortle",
                    "blastoise", "caterpie", "metapod", "butterfree", "weedle", "kakuna", "beedrill", "pidgey", "pidgeotto",
                    "pidgeot", "rattata", "raticate", "spearow", "fearow", "ekans", "arbok", "pikachu", "raichu", "sandshrew",
                    "sandslash", "nidoran-f", "nidorina", "nidoqueen", "nidoran-m", "nidorino", "nidoking", "clefairy",
                    "clefable", "vulpix", "ninetales", "jigglypuff", "wigglytuff", "zubat", "golbat", "oddish", "gloom"]
        return id <= real.count ? real[id - 1] : "mon-\(id)"
    }

    enum Outcome: Equatable { case data, typedError(String), otherError(String) }

    /// The typed errors' messages, in order: what a failed run prints.
    var typedMessages: [String] = []

    /// Runs a call, returning what it ended in and how long it took.
    func timed(_ body: () throws(BusError) -> Void) -> (Outcome, Double) {
        let start = now()
        do {
            try body()
            return (.data, now() - start)
        } catch {
            let outcome: Outcome = error.name.hasPrefix(errorPrefix) ? .typedError(error.name) : .otherError("\(error.name): \(error.message)")
            if case .typedError = outcome { typedMessages.append("\(error.name): \(error.message)") }
            return (outcome, now() - start)
        }
    }

    func testScrollingAndDetailsThroughServerErrorsCutBodiesAndRateLimits() throws {
        let deadline = 10.0
        try h.control(["total": 1351, "fault_500": 0.2, "fault_cut": 0.1, "fault_429": 0.03, "retry_after": 1, "seed": 7])
        try h.startDaemon(["--timeout", String(deadline)])
        let c = try PokedexClient(timeout: 60)
        var outcomes: [Outcome] = []
        var slowest = 0.0
        var pages: [[ListEntry]] = []
        for page in 0..<68 {
            var entries: [ListEntry] = []
            let (o, t) = timed { () throws(BusError) in entries = try c.listPage(offset: UInt32(page * 20), limit: 20).entries }
            outcomes.append(o)
            slowest = max(slowest, t)
            if o == .data { pages.append(entries) }
        }
        var details: [Int: PokemonDetail] = [:]
        for id in 1...151 {
            var d: PokemonDetail?
            let (o, t) = timed { () throws(BusError) in d = try c.detail(String(id)) }
            outcomes.append(o)
            slowest = max(slowest, t)
            if let d { details[id] = d }
        }
        XCTAssertTrue(h.daemonIsRunning, "no crash")
        let faults = try XCTUnwrap(try h.stats()["faults"] as? [String: Int])
        let data = outcomes.filter { $0 == .data }.count
        let untyped = outcomes.filter { if case .otherError = $0 { return true } else { return false } }
        print("faults injected: \(faults); calls: \(outcomes.count), data: \(data), typed errors: \(outcomes.count - data - untyped.count), slowest: \(String(format: "%.2f", slowest)) s")
        for m in typedMessages { print("typed error: \(m)") }
        XCTAssertGreaterThan(faults["500"] ?? 0, 50)
        XCTAssertGreaterThan(faults["cut"] ?? 0, 25)
        XCTAssertGreaterThan(faults["429"] ?? 0, 5)
        // A call the service did not end (within its deadline, by its own timer) would end at the
        // client's 60 s as an untyped timeout.
        XCTAssertEqual(untyped, [], "every failure is one of the service's typed errors")
        XCTAssertGreaterThanOrEqual(Double(data) / Double(outcomes.count), 0.99, "retries turn faults into data")
        // What came back is right: pages in order, details for the right Pokémon.
        for entries in pages { for e in entries where e.id < 10000 { XCTAssertEqual(e.name, Self.expectedName(Int(e.id))) } }
        for (id, d) in details {
            XCTAssertEqual(d.name, Self.expectedName(id))
            XCTAssertEqual(d.stats.count, 6, d.name)
        }

        // Nothing cut off was cached: offline, after a restart, everything answered comes back whole.
        h.stopDaemon()
        try h.control(["fault_500": 0, "fault_cut": 0, "fault_429": 0, "offline": true])
        try h.startDaemon(["--timeout", "3", "--no-prefetch"])
        let offline = try PokedexClient(timeout: 30)
        for (id, d) in details {
            let again = try offline.detail(String(id))
            XCTAssertEqual(again.name, d.name)
            XCTAssertEqual(again.stats, d.stats)
            XCTAssertEqual(again.genus, d.genus)
        }
        XCTAssertEqual(try offline.listPage(offset: 1340, limit: 20).entries.count, 11)
    }

    func testVanishingHangingAndUnresolvableNetworksEndInTypedErrorsAndRecover() throws {
        try h.startDaemon(["--timeout", "1", "--no-prefetch"])
        let c = try PokedexClient(timeout: 30)
        _ = try c.listPage(offset: 0, limit: 20)
        func online() throws -> Bool { try c.property("Online").bool ?? false }

        // Mid-transfer: every body cut off halfway.
        try h.control(["fault_cut": 1.0])
        var (outcome, _) = timed { () throws(BusError) in _ = try c.detail("pikachu") }
        XCTAssertEqual(outcome, .typedError(errorPrefix + "Unavailable"))
        XCTAssertFalse(try online(), "the service says it is offline")
        XCTAssertEqual(try c.listPage(offset: 0, limit: 20).entries.count, 20, "what is cached is still answered")
        try h.control(["fault_cut": 0.0])
        _ = try waitFor("the service to come back online on its own", seconds: 20) { try online() ? true : nil }
        XCTAssertEqual(try c.detail("pikachu").name, "pikachu")

        // A server that accepts and never answers: a timer, not the server, ends the call, and
        // says so. The call's deadline and the transfer's timeout are both 1 s here; which of the
        // two fires first is the machine's to decide, and both words say what happened.
        try h.control(["hold_prefix": "/api/v2/pokemon/"])
        (outcome, _) = timed { () throws(BusError) in _ = try c.detail("raichu") }
        XCTAssertEqual(outcome, .typedError(errorPrefix + "Unavailable"))
        let ending = typedMessages.last ?? ""
        XCTAssertTrue(ending.contains("Detail did not finish within 1 s") || ending.contains("timed out after 1000 milliseconds"),
                      "\(typedMessages)")
        try h.control(["hold_prefix": ""])
        XCTAssertEqual(try c.detail("raichu").name, "raichu", "and it answers once the server does")

        // Nothing answers at all: connections refused.
        try h.control(["offline": true])
        (outcome, _) = timed { () throws(BusError) in _ = try c.detail("zubat") }
        XCTAssertEqual(outcome, .typedError(errorPrefix + "Unavailable"))
        XCTAssertFalse(try online())
        try h.control(["offline": false])
        _ = try waitFor("online again", seconds: 20) { try online() ? true : nil }
        XCTAssertTrue(h.daemonIsRunning)
        h.stopDaemon()

        // A host that does not resolve.
        try h.startDaemon(["--timeout", "1", "--api-url", "http://pokeapi.invalid/api/v2", "--cache-dir", h.home + "/empty-cache"])
        let unresolved = try PokedexClient(timeout: 30)
        var message = ""
        (outcome, _) = timed { () throws(BusError) in
            do throws(BusError) { _ = try unresolved.detail("pikachu") } catch { message = error.message; throw error }
        }
        XCTAssertEqual(outcome, .typedError(errorPrefix + "Unavailable"))
        XCTAssertTrue(message.contains("pokeapi.invalid"), message)
        XCTAssertFalse(try unresolved.property("Online").bool ?? true)
    }
}
