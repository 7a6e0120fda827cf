import Foundation
import PokedexBusClient
import PokedexLocks
import XCTest

/// Kill -9 at random moments while clients change favorites: after every restart the store
/// opens, every change a client saw acknowledged is there, and nothing else is.
final class KillStormTests: DaemonTestCase {
    /// What may be on disk for one name: the acknowledged state, or any state a call that got
    /// no answer may have written.
    struct Possible: Sendable {
        var states: Set<Bool> = [false]
    }

    /// One client's names and what each may be. Each round's thread owns it while it runs; the
    /// lock makes the hand-over between rounds visible to ThreadSanitizer too.
    final class ClientState: Sendable {
        struct Counts { var possible: [String: Possible]; var acknowledged = 0; var unanswered = 0 }
        let names: [String]
        let counts: Mutex<Counts>
        init(names: [String]) {
            self.names = names
            counts = Mutex(Counts(possible: Dictionary(uniqueKeysWithValues: names.map { ($0, Possible()) })))
        }
        var possible: [String: Possible] {
            get { counts.withLock { $0.possible } }
            set { counts.withLock { $0.possible = newValue } }
        }
        var acknowledged: Int { counts.withLock { $0.acknowledged } }
        var unanswered: Int { counts.withLock { $0.unanswered } }
        func set(_ name: String, _ states: Set<Bool>) { counts.withLock { $0.possible[name] = Possible(states: states) } }
        func count(acknowledged: Bool) { counts.withLock { if acknowledged { $0.acknowledged += 1 } else { $0.unanswered += 1 } } }
    }

    func testKillNineStormLosesNoAcknowledgedChangeAndInventsNone() throws {
        let rounds = Int(ProcessInfo.processInfo.environment["POKEDEX_STORM_ROUNDS"] ?? "") ?? 200
        let all = ["bulbasaur", "ivysaur", "venusaur", "charmander", "charmeleon", "charizard", "squirtle", "wartortle",
                   "blastoise", "caterpie", "metapod", "butterfree", "weedle", "kakuna", "beedrill", "pidgey", "pidgeotto",
                   "pidgeot", "rattata", "raticate", "spearow", "fearow", "ekans", "arbok", "pikachu", "raichu", "sandshrew",
                   "sandslash", "nidoran-f", "nidorina", "nidoqueen", "nidoran-m"]
        let untouched: Set<String> = ["nidorino", "nidoking", "clefairy", "clefable", "vulpix", "ninetales"]
        let clients = (0..<4).map { k in ClientState(names: Array(all[(k * 8)..<(k * 8 + 8)])) }
        var random = SystemRandomNumberGenerator()
        for round in 0..<rounds {
            try h.startDaemon(["--no-prefetch", "--notify=no"])
            // The store opened; what it holds is what some history of the calls allows.
            let favorites = try PokedexClient(timeout: 10).listFavorites().map(\.name)
            XCTAssertTrue(Set(favorites).isDisjoint(with: untouched), "round \(round): a favorite nobody set: \(favorites)")
            XCTAssertEqual(favorites.count, Set(favorites).count, "round \(round): duplicates \(favorites)")
            for c in clients {
                for name in c.names {
                    let present = favorites.contains(name)
                    XCTAssertTrue(c.possible[name]!.states.contains(present),
                                  "round \(round): \(name) is \(present ? "" : "not ")a favorite; allowed: \(c.possible[name]!.states)")
                    c.set(name, [present])
                }
            }
            if testRun?.failureCount ?? 0 > 0 { break }
            // Clients change favorites until the daemon dies under them.
            let threads = clients.map { state in
                Thread {
                    guard let client = try? PokedexClient(timeout: 5) else { return }
                    var rng = SystemRandomNumberGenerator()
                    while true {
                        let name = state.names.randomElement(using: &rng)!
                        let before = state.possible[name]!.states
                        let toggle = Bool.random(using: &rng)
                        let target = Bool.random(using: &rng)
                        let after: Set<Bool> = toggle ? Set(before.map { !$0 }) : [target]
                        do {
                            if toggle {
                                let now = try client.toggleFavorite(name)
                                XCTAssertTrue(after.contains(now))
                                state.set(name, [now])
                            } else {
                                try client.setFavorite(name, target)
                                state.set(name, [target])
                            }
                            state.count(acknowledged: true)
                        } catch {
                            // No answer: it may or may not have reached the disk.
                            state.set(name, before.union(after))
                            state.count(acknowledged: false)
                            return
                        }
                    }
                }
            }
            threads.forEach { $0.start() }
            usleep(UInt32.random(in: 5_000...120_000, using: &random))
            h.stopDaemon(SIGKILL)
            while threads.contains(where: { !$0.isFinished }) { usleep(2_000) }
        }
        try h.startDaemon(["--no-prefetch"])
        let acknowledged = clients.map(\.acknowledged).reduce(0, +)
        let unanswered = clients.map(\.unanswered).reduce(0, +)
        print("kill -9 storm: \(rounds) rounds, \(acknowledged) acknowledged changes, \(unanswered) calls cut off by the kill (either outcome allowed); lost: 0, invented: 0")
        XCTAssertGreaterThan(acknowledged, rounds * 4, "the clients really were busy")
        XCTAssertGreaterThan(unanswered, rounds / 2, "the kills really landed mid-call")
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: h.home + "/data/pokedex")) ?? []
        XCTAssertEqual(leftovers.filter { $0 != "favorites.json" }, [], "no temporary or damaged-aside files")
    }
}
