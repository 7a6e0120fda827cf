import XCTest
@testable import PokedexBusServer

/// The ways out, in every order: idle exit, SIGTERM, SIGTERM during an idle exit's drain.
final class ExitSequenceTests: XCTestCase {
    func testIdleExitTellsSystemdBeforeTheNameGoes() {
        var e = ExitSequence()
        XCTAssertEqual(e.idle(), [.notifyStopping, .releaseName])
        XCTAssertEqual(e.idle(), [], "once")
    }

    func testSigtermStopsAndGivesCallsTheirGrace() {
        var e = ExitSequence()
        XCTAssertEqual(e.terminate(), [.notifyStopping, .releaseName, .armGrace])
        XCTAssertEqual(e.terminate(), [], "a second signal changes nothing")
        XCTAssertEqual(e.idle(), [], "no idle exit after SIGTERM")
    }

    func testSigtermDuringAnIdleDrainStillGetsItsGrace() {
        var e = ExitSequence()
        _ = e.idle()
        XCTAssertEqual(e.terminate(), [.armGrace], "the name is already going; the calls still get their grace")
        XCTAssertEqual(e.terminate(), [])
    }
}
