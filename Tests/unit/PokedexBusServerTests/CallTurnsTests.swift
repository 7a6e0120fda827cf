import Dispatch
import Glibc
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

    /// A served service with the queue paused, and `count` callers that each sent it 16
    /// `Status` calls, then `extra` more callers one each: every call read and queued before
    /// the first batch, however dbus-daemon delivers them. The queue stays paused.
    private func queuedBurst(callers count: Int, extra: Int = 0) throws -> (ServedService, busy: [RawCaller], extra: [RawCaller]) {
        try bus.startMonitor()
        let s = try ServedService(bus: bus, idleTimeout: 0)
        let status = Pokedex1.status.name
        s.onLoop { s.server.queue.paused = true }
        let busy = try (0..<count).map { _ in try RawCaller(address: bus.address) }
        for caller in busy { for _ in 0..<16 { try caller.send(status) } }
        let more = try (0..<extra).map { _ in try RawCaller(address: bus.address) }
        for caller in more { try caller.send(status) }
        let total = busy.count * 16 + extra
        try eventually("all \(total) calls to be queued") { s.onLoop { s.server.queue.count } == total }
        return (s, busy, more)
    }

    func testANewCallerIsAnsweredAheadOfWhatBusyCallersQueued() throws {
        let (s, busy, extra) = try queuedBurst(callers: 20, extra: 1)
        let newcomer = extra[0]
        let total = busy.count * 16 + 1
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

    /// Replies leave in the order they were made: while the bus daemon reads none of them, the
    /// service stops starting calls once a backlog's worth waits, rather than lining every reply
    /// up in front of the next Ping's; and works on the rest once the bus reads again.
    func testNoCallStartsWhileTheBusIsBehindWithReplies() throws {
        let (s, callers, _) = try queuedBurst(callers: 40)
        let total = callers.count * 16
        bus.freeze()
        defer { bus.thaw() }
        s.onLoop { s.server.queue.paused = false }
        try eventually("the service to wait for the bus") { (s.onLoop { s.server.queue.backlogWaits } ?? 0) >= 3 }
        let left = try XCTUnwrap(s.onLoop { s.server.queue.count })
        let unsent = try XCTUnwrap(s.onLoop { CallQueue.unsentBytes(on: s.server.bus!) })
        XCTAssertGreaterThan(left, 0, "every call was worked on while the bus read no reply")
        XCTAssertGreaterThan(unsent, CallQueue.backlogLimit)
        // Three more looks at the backlog, and still no call started.
        try eventually("the service to look again") { (s.onLoop { s.server.queue.backlogWaits } ?? 0) >= 6 }
        XCTAssertEqual(s.onLoop { s.server.queue.count }, left, "calls were started while the bus read no reply")
        bus.thaw()
        let names = Set(callers.map(\.name))
        try eventually("every call to be answered") { bus.serviceReplies.filter { names.contains($0) }.count == total }
        XCTAssertEqual(s.onLoop { s.server.queue.count }, 0)
    }

    /// What the backlog is read from: the bytes a socket's peer has not read yet.
    func testUnsentBytesAreWhatThePeerHasNotRead() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        XCTAssertEqual(CallQueue.unsentBytes(fd: fds[0]), 0)
        let chunk = [UInt8](repeating: 7, count: 10_000)
        XCTAssertEqual(write(fds[0], chunk, chunk.count), chunk.count)
        XCTAssertGreaterThanOrEqual(CallQueue.unsentBytes(fd: fds[0]), chunk.count)
        var sink = [UInt8](repeating: 0, count: chunk.count)
        XCTAssertEqual(read(fds[1], &sink, sink.count), chunk.count)
        XCTAssertEqual(CallQueue.unsentBytes(fd: fds[0]), 0)
        XCTAssertEqual(CallQueue.unsentBytes(fd: -1), 0)
    }
}
