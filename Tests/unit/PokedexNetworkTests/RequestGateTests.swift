import XCTest
import PokedexLocks
@testable import PokedexNetwork

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

    /// Waits until `done` holds (each admitted task has recorded itself, say), however slowly
    /// the machine runs them (a sanitizer's build), for at most 30 s.
    func until(_ what: String, _ done: () -> Bool) async {
        for _ in 0..<6000 where !done() { try? await Task.sleep(nanoseconds: 5_000_000) }
        XCTAssertTrue(done(), "still not \(what) after 30 s")
    }

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
        // Each step waits for the admitted tasks to have recorded themselves, so that the order
        // says who was admitted last (CI run 96's sanitizer build recorded a prefetch late).
        _ = (0..<5).map { enter(g, "http://h1.test/bg\($0)", .background, order: order) }
        await until("2 admitted") { order.withLock { $0.count } == 2 && g.usage.waiting == 3 }
        await settle()
        XCTAssertEqual(g.usage.inFlight, 2, "3 connections to an HTTP/1.1 host, background work leaves one")
        _ = enter(g, "http://h1.test/caller", .required, order: order)
        _ = (0..<5).map { enter(g, "https://h2.test/p\($0)", .prefetch, order: order) }
        await until("8 admitted") { order.withLock { $0.count } == 8 }
        await settle()
        XCTAssertEqual(g.usage.inFlight, 3 + 5, "the caller takes the free connection; an HTTPS host multiplexes until it says otherwise")
        let prefetch = (0..<3).map { enter(g, "http://other.test/p\($0)", .prefetch, order: order) }
        await until("11 admitted") { order.withLock { $0.count } == 11 }
        await settle()
        XCTAssertEqual(g.usage.inFlight, 3 + 5 + 3, "pre-warming may use every connection of an HTTP/1.1 host")
        let caller = enter(g, "http://other.test/caller", .required, order: order)
        await until("the caller in line") { g.usage.waiting == 3 + 1 }
        g.release(try await prefetch[0].value)
        await until("12 admitted") { order.withLock { $0.count } == 12 }
        XCTAssertEqual(order.withLock { $0.last }, "http://other.test/caller", "a caller is next in line for the first free connection")
        g.release(try await caller.value)
    }

    /// Issue 38: a host no one has heard from yet is not a host that is down. A cold start's
    /// first screen (the list and twenty guessed sprites, pre-warming) goes at once: over HTTPS
    /// on the one connection being opened, over HTTP/1.1 on the host's connections; not one
    /// request at a time until the first answers (which cost the first screen 100 ms).
    func testAColdStartsFirstBurstGoesAtOnceToAHostNotYetHeardFrom() async throws {
        let g = gate(64, perHost: 6)
        let order = Mutex<[String]>([])
        _ = enter(g, "https://api.test/", .optional, order: order)  // the warm-up
        let https = (1...20).map { enter(g, "https://sprites.test/\($0).png", .prefetch, order: order) }
        _ = enter(g, "https://api.test/pokemon/", .prefetch, order: order)
        await until("22 admitted") { order.withLock { $0.count } >= 22 }
        await settle()
        XCTAssertEqual(g.usage.inFlight, 22, "everything of the first screen is in flight before any answer")
        let http = (1...20).map { ("http://lab.test/\($0).png", enter(g, "http://lab.test/\($0).png", .prefetch, order: order)) }
        await until("28 admitted, 14 in line") { order.withLock { $0.count } >= 28 && g.usage.waiting == 14 }
        await settle()
        XCTAssertEqual(g.usage.inFlight, 22 + 6, "an HTTP/1.1 host takes its six connections' worth, no more")
        // The six the gate let in, whichever they are: tasks start in any order, and awaiting
        // one still queued would wait for ever (the hang of CI run 43).
        let admitted = Set(order.withLock { $0 }.filter { $0.hasPrefix("http://") })
        XCTAssertEqual(admitted.count, 6)
        for t in https { g.release(try await t.value) }
        for (url, t) in http where admitted.contains(url) { g.release(try await t.value) }
        await until("the next six admitted") { order.withLock { $0.count } >= 34 }
        await settle()
        XCTAssertEqual(g.usage.inFlight, 2 + 6, "the next six go as the first six end")
        for (url, t) in http where !admitted.contains(url) { t.cancel() }
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
        await until("the second admitted") { order.withLock { $0.count } == 2 }
        XCTAssertEqual(order.withLock { $0 }, ["https://h.test/a", "https://h.test/b"])
        g.release(try await second.value)
        XCTAssertEqual(g.usage.heldBytes, 0)
        XCTAssertEqual(g.usage.inFlight, 0)
    }

    func testPromotionMovesAQueuedRequestUp() async throws {
        let g = gate(2, multiplexes: true)
        let order = Mutex<[String]>([])
        let hold = enter(g, "https://h.test/hold", .required, order: order)
        await until("the first admitted") { order.withLock { $0.count } == 1 }
        _ = enter(g, "https://h.test/bg", .background, order: order)
        _ = enter(g, "https://h.test/pre", .prefetch, order: order)
        _ = enter(g, "https://h.test/wanted", .background, order: order)
        await until("three in line") { g.usage.waiting == 3 }
        FetchPriority.$current.withValue(.required) { g.promote("https://h.test/wanted", to: .required) }
        g.release(try await hold.value)
        await until("the next admitted") { order.withLock { $0.count } >= 2 }
        XCTAssertEqual(order.withLock { $0 }.dropFirst().first, "https://h.test/wanted")
    }
}
