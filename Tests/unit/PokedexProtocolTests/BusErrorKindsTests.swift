import PokedexProtocol
import XCTest

/// Clients read a bus error by its name alone: the same answer whatever the message says, and
/// each name in one class.
final class BusErrorKindsTests: XCTestCase {
    func testEachNameMeansOneThing() {
        typealias N = BusError.Name
        let cases: [(String, gone: Bool, start: Bool, timeout: Bool, bus: Bool)] = [
            (N.serviceUnknown, true, false, false, false), (N.nameHasNoOwner, true, false, false, false),
            (N.spawnChildExited, true, true, false, false), (N.spawnFailed, true, true, false, false),
            (N.noSuchUnit, true, true, false, false), (N.noReply, true, false, false, false),
            (N.timeout, false, false, true, false), (N.timedOut, false, false, true, false),
            (N.disconnected, false, false, false, true), (N.noServer, false, false, false, true),
            ("io.github.pokedexd.Pokedex1.Error.Unavailable", false, false, false, false),
            (N.unknownMethod, false, false, false, false),
        ]
        for c in cases {
            // A message that reads like another class changes nothing.
            let e = BusError(name: c.0, message: "lost the bus connection; did not answer in time; NoReply")
            XCTAssertEqual(e.isServiceGone, c.gone, c.0)
            XCTAssertEqual(e.isStartFailure, c.start, c.0)
            XCTAssertEqual(e.isTimeout, c.timeout, c.0)
            XCTAssertEqual(e.isBusGone, c.bus, c.0)
            XCTAssertLessThanOrEqual([e.isServiceGone, e.isTimeout, e.isBusGone].filter { $0 }.count, 1, "one class: \(c.0)")
        }
        let dropped = BusError.disconnected(errno: -ECONNRESET)
        XCTAssertTrue(dropped.isBusGone)
        XCTAssertEqual(dropped.message, "lost the bus connection: Connection reset by peer")
    }
}
