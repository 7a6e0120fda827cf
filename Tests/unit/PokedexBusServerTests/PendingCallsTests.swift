import Foundation
import PokedexBusClient
@testable import PokedexBusServer
@testable import PokedexCore
import XCTest

/// Calls answered off the loop, each exactly once: random sequences of callers arriving,
/// leaving, the network answering and time passing, checked after every step against a model
/// of what each caller must have heard by then, and at the end against every reply on the bus
/// (dbus-monitor sees a second reply the bus would drop). A failure prints its seed;
/// POKEDEX_SEED=N replays that sequence.
final class PendingCallsTests: XCTestCase {
    var bus: PrivateBus!
    override func setUpWithError() throws { bus = try PrivateBus() }
    override func tearDown() { bus = nil }

    func testACallerThatLeavesHasItsWorkCancelledAndTheNextOneStartsAfresh() throws {
        let s = try ServedService(bus: bus, idleTimeout: 0)
        s.api.hold("/7.png")
        let caller = try BusCaller(bus: bus, Pokedex1.spritePath.name, "s", ["squirtle"])
        try eventually("the call to wait on the network") { s.api.waiting == 1 }
        caller.leave()
        try eventually("the transfer to be cancelled") { s.api.cancelled == 1 && s.api.waiting == 0 }
        try eventually("the call to be gone") { s.pendingCalls == 0 }
        s.api.release("/7.png")
        XCTAssertTrue(try PokedexClient().spritePath("squirtle").hasSuffix(".png"), "nothing half-done was kept")
    }

    func testWorkAnotherCallerWaitsForGoesOn() throws {
        let s = try ServedService(bus: bus, idleTimeout: 0)
        s.api.hold("/4.png")
        let leaving = try BusCaller(bus: bus, Pokedex1.spritePath.name, "s", ["4"])
        let staying = try BusCaller(bus: bus, Pokedex1.spritePath.name, "s", ["charmander"])
        try eventually("both calls to be pending") { s.pendingCalls == 2 }
        leaving.leave()
        try eventually("the leaving call to be gone") { s.pendingCalls == 1 }
        XCTAssertEqual(s.api.cancelled, 0, "the transfer the other caller waits for goes on")
        s.api.release("/4.png")
        let answer = staying.answer()
        XCTAssertEqual(answer.status, 0, answer.err)
        XCTAssertEqual(s.api.requests.filter { $0.hasSuffix("/4.png") }.count, 1, "one request for both callers")
    }

    /// Following a caller (to cancel its work when it leaves) asks the bus nothing the loop
    /// waits for: with dbus-daemon stopped as the call starts, the loop still turns (a blocking
    /// GetNameOwner would hold it for sd-bus's 25 s), and the caller is followed all the same.
    func testFollowingACallerDoesNotWaitForTheBus() throws {
        let s = try ServedService(bus: bus, idleTimeout: 0)
        s.api.hold("/7.png")
        s.onLoop { s.server.queue.paused = true }
        let caller = try BusCaller(bus: bus, Pokedex1.spritePath.name, "s", ["squirtle"])
        try eventually("the call to be queued") { s.onLoop { s.server.queue.count } == 1 }
        bus.freeze()
        defer { bus.thaw() }
        s.onLoop { s.server.queue.paused = false }
        try eventually("the call to wait on the network") { s.api.waiting == 1 }
        let turned = DispatchSemaphore(value: 0)
        Thread.detachNewThread { _ = s.onLoop { 1 }; turned.signal() }
        XCTAssertEqual(turned.wait(timeout: .now() + 10), .success, "the loop waited for the bus")
        bus.thaw()
        caller.leave()
        try eventually("the transfer to be cancelled") { s.api.cancelled == 1 && s.api.waiting == 0 }
        try eventually("the call to be gone") { s.pendingCalls == 0 }
    }

    // MARK: Random sequences

    /// What the test knows of one call.
    struct Call {
        let caller: BusCaller
        let id: Int
        let arrived: Double
        /// What it must have heard by now: nil while it must still wait.
        var expected: Outcome?
        var left = false
    }

    enum Outcome: Equatable { case path, timedOut, shuttingDown }

    // Time moves in steps of 0.5 s, and calls arrive on them: their deadlines are never due
    // at the same instant as the grace's end (a quarter past), so which comes first is
    // never a tie.
    static let deadline = 30.0
    static let grace = 5.25

    func testRandomSequencesAnswerEveryCallExactlyOnce() throws {
        // Each run's seed is drawn from this one; POKEDEX_SEED=N replays the run of seed N alone.
        let replay = ProcessInfo.processInfo.environment["POKEDEX_SEED"].flatMap(UInt64.init)
        let seed = UInt64.random(in: 1...UInt64(UInt32.max))
        var rng = SplitMix64(seed: seed)
        let seeds = replay.map { [$0] } ?? (0..<16).map { _ in rng.next() }
        print("PendingCallsTests: \(seeds.count) sequences from seed \(seed)")
        for (run, runSeed) in seeds.enumerated() {
            if run > 0 { bus = try PrivateBus() }
            do {
                try sequence(seed: runSeed, steps: 40)
            } catch {
                return XCTFail("run \(run), POKEDEX_SEED=\(runSeed) replays it: \(error)")
            }
        }
    }

    /// One sequence on a fresh service; throws what went wrong, with the steps so far.
    func sequence(seed: UInt64, steps: Int) throws {
        var rng = SplitMix64(seed: seed)
        try bus.startMonitor()
        let s = try ServedService(bus: bus, idleTimeout: 0, deadline: Self.deadline, grace: Self.grace)
        let ids = Array(1...6)
        for id in ids { s.api.hold("/\(id).png") }
        var released: Set<Int> = []
        var calls: [Call] = []
        var now = 0.0
        var log: [String] = []
        var shutDown = false

        func fail(_ what: String) -> TestFailure { TestFailure("\(what)\nsteps:\n" + log.joined(separator: "\n")) }
        /// Calls still waiting for the network: arrived, not answered, caller still there.
        func waiting() -> [Int] { calls.indices.filter { calls[$0].expected == nil && !calls[$0].left } }

        /// Waits for every call the model says is answered to be answered as it says, then
        /// checks the rest still wait, the server holds exactly those, and the network is asked
        /// for exactly the resources someone still waits for.
        func settle() throws {
            for (i, c) in calls.enumerated() where c.expected != nil && !c.left {
                do {
                    try eventually("call \(i) (\(c.id)) to be answered") { c.caller.answered }
                } catch {
                    throw fail("\(error) (expected: \(c.expected.map { "\($0)" } ?? "nothing"))")
                }
            }
            let live = waiting()
            do {
                try eventually("the server to hold \(live.count) calls") { s.pendingCalls == live.count }
            } catch {
                throw fail("\(error): it holds \(s.pendingCalls)")
            }
            let wanted = Set(live.map { calls[$0].id })
            func asked() -> Set<Int> { Set(s.api.waitingURLs.compactMap { url in ids.first { url.hasSuffix("/\($0).png") } }) }
            do {
                try eventually("transfers for exactly \(wanted.sorted())") { asked() == wanted }
            } catch {
                throw fail("the network is asked for \(asked().sorted()) (\(s.api.waitingURLs)), not \(wanted.sorted())")
            }
            for i in live where calls[i].caller.answered { throw fail("call \(i) (\(calls[i].id)) was answered early") }
        }

        for step in 0..<steps where !shutDown {
            let roll = Int.random(in: 0..<100, using: &rng)
            switch roll {
            case 0..<40:
                let id = ids.randomElement(using: &rng)!
                log.append("\(step): call \(id) at \(now)")
                let caller = try BusCaller(bus: bus, Pokedex1.spritePath.name, "s", [String(id)])
                calls.append(Call(caller: caller, id: id, arrived: now, expected: released.contains(id) ? .path : nil))
                // Taken by the server (its deadline counts from then) before time moves on: on
                // the bus is not enough, a busy machine's loop may not have read it yet, nor is
                // the server's queue (its deadline is armed when the queue's turn gives it to
                // the pending calls); a clock moved meanwhile gives the call a later deadline
                // than the model's.
                try eventually("call \(id) to arrive") { bus.calls.filter { $0.member == Pokedex1.spritePath.name }.count == calls.count }
                let held = waiting().count
                try eventually("call \(id) to reach the server") { released.contains(id) ? caller.answered : s.takenCalls == held }
            case 40..<55:
                let id = ids.randomElement(using: &rng)!
                log.append("\(step): release \(id)")
                released.insert(id)
                s.api.release("/\(id).png")
                for i in waiting() where calls[i].id == id { calls[i].expected = .path }
            case 55..<85:
                let dt = [0.5, 5, 12, 29.5, 31].randomElement(using: &rng)!
                now += dt
                log.append("\(step): advance \(dt) to \(now)")
                s.advance(dt)
                for i in waiting() where now >= calls[i].arrived + Self.deadline { calls[i].expected = .timedOut }
            case 85..<97:
                guard let i = waiting().randomElement(using: &rng) else { continue }
                log.append("\(step): caller of call \(i) (\(calls[i].id)) leaves")
                calls[i].caller.leave()
                calls[i].left = true
            default:
                log.append("\(step): SIGTERM at \(now)")
                shutDown = true
                s.onLoop { s.server.shutdown() }
                // Within the grace, calls still end at their deadlines and nothing else is
                // failed; then whatever still waits is.
                now += Self.grace - 0.25
                s.advance(Self.grace - 0.25)
                for i in waiting() where now >= calls[i].arrived + Self.deadline { calls[i].expected = .timedOut }
                try settle()
                now += 0.25
                s.advance(0.25)
                for i in waiting() { calls[i].expected = .shuttingDown }
            }
            try settle()
        }
        if !shutDown {
            for id in ids { s.api.release("/\(id).png") }
            for i in waiting() { calls[i].expected = .path }
            try settle()
        }
        // Every answer as the model says.
        for (i, c) in calls.enumerated() where !c.left {
            let a = c.caller.answer()
            switch c.expected {
            case .path?:
                guard a.status == 0, a.out.hasPrefix("s \""), a.out.contains(".png") else { throw fail("call \(i): \(a)") }
            case .timedOut?:
                guard a.status != 0, a.err.contains("SpritePath did not finish within 30 s") else { throw fail("call \(i): \(a)") }
            case .shuttingDown?:
                guard a.status != 0, a.err.contains(ServiceMessages.shuttingDown) else { throw fail("call \(i): \(a)") }
            case nil:
                throw fail("call \(i) was never expected an answer")
            }
        }
        // On the bus: each call replied to at most once, and every caller that stayed answered
        // (each busctl is a connection of its own: its unique name stands for its call).
        let stayed = calls.filter { !$0.left }.count
        func spriteCalls() -> [(sender: String, serial: String, destination: String, member: String)] {
            bus.calls.filter { $0.member == Pokedex1.spritePath.name }
        }
        func repliedTo() -> Int {
            let replies = bus.replies
            return spriteCalls().filter { c in replies.contains { $0.destination == c.sender && $0.replySerial == c.serial } }.count
        }
        try eventually("the monitor to see \(stayed) replies") { repliedTo() >= stayed }
        let replies = bus.replies
        for call in spriteCalls() {
            let n = replies.filter { $0.destination == call.sender && $0.replySerial == call.serial }.count
            if n > 1 { throw fail("\(call.sender) serial \(call.serial) got \(n) replies") }
        }
        if shutDown && !s.hasExited(within: 10) { throw fail("the service did not exit after SIGTERM") }
        if ProcessInfo.processInfo.environment["POKEDEX_SEED"] != nil { print("steps:\n" + log.joined(separator: "\n")) }
    }
}
