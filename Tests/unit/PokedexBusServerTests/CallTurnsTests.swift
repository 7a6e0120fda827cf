import Dispatch
import PokedexBusClient
@testable import PokedexBusServer
import XCTest

/// The calls the loop has read are worked on in turns between senders (``CallQueue``): a new
/// caller's one call is answered among the first, not behind every call busy callers sent
/// before it. Checked by the order of the replies on the bus, not by a time.
final class CallTurnsTests: XCTestCase {
    var bus: PrivateBus!
    override func setUpWithError() throws { bus = try PrivateBus() }
    override func tearDown() { bus = nil }

    func testANewCallerIsAnsweredAheadOfWhatBusyCallersQueued() throws {
        try bus.startMonitor()
        let s = try ServedService(bus: bus, idleTimeout: 0)
        let status = Pokedex1.status.name
        // Every call read and queued before the first batch, however dbus-daemon delivers them.
        s.onLoop { s.server.queue.paused = true }
        let busy = try (0..<20).map { _ in try RawCaller(address: bus.address) }
        for caller in busy { for _ in 0..<16 { try caller.send(status) } }
        let newcomer = try RawCaller(address: bus.address)
        try newcomer.send(status)
        let total = busy.count * 16 + 1
        try eventually("all \(total) calls to be queued") { s.onLoop { s.server.queue.count } == total }
        s.onLoop { s.server.queue.paused = false }
        let callers = Set(busy.map(\.name) + [newcomer.name])
        // The service's replies (not the bus's to each Hello), in the order it sent them.
        func answered() -> [String] { bus.serviceReplies.filter { callers.contains($0) } }
        try eventually("every call to be answered") { answered().count == total }
        let order = answered()
        let position = order.firstIndex(of: newcomer.name)!
        // Fresh senders alternate with the rotation: at most one call of each busy caller, and as
        // many of the rotation, before the newcomer's (in arrival order, the 321st).
        XCTAssertLessThanOrEqual(position, 2 * busy.count, "the newcomer's call was answered \(position + 1)th of \(total)")
        // The busy callers in turns: every one has half its calls answered before any has all.
        var lastEighth = 0, firstSixteenth = order.count
        for caller in busy {
            let mine: [Int] = order.indices.filter { order[$0] == caller.name }
            XCTAssertEqual(mine.count, 16, "each of \(caller.name)'s calls answered once")
            guard mine.count == 16 else { continue }
            lastEighth = max(lastEighth, mine[7])
            firstSixteenth = min(firstSixteenth, mine[15])
        }
        XCTAssertLessThan(lastEighth, firstSixteenth, "a caller had all 16 calls answered before another had 8")
    }
}
