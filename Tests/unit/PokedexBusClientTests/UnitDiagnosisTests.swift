import PokedexBusClient
import XCTest

/// The line pokectl prints when the service does not answer, from the unit's state as systemd
/// reports it (no bus needed: the states are the ones seen on systemd 252).
final class UnitDiagnosisTests: XCTestCase {
    let unit = PokedexClient.unitName
    let more = "; see 'journalctl --user -u pokedex'"

    func testAUserNamespaceRefusedIsNamedInWords() {
        let s = UnitState(loadState: "loaded", activeState: "failed", subState: "failed", result: "exit-code", execMainCode: 1, execMainStatus: 217)
        XCTAssertEqual(s.explanation(unit: unit), "pokedex.service failed to start (exit 217/USER: could not set up its user namespace)" + more)
    }

    func testABinaryHiddenBySandboxIsExec() {
        let s = UnitState(loadState: "loaded", activeState: "failed", subState: "failed", result: "exit-code", execMainCode: 1, execMainStatus: 203)
        XCTAssertTrue(s.explanation(unit: unit)?.contains("exit 203/EXEC: could not execute its binary") == true)
    }

    func testAFailureBeingRetriedIsStillAFailure() {
        let s = UnitState(loadState: "loaded", activeState: "activating", subState: "auto-restart", result: "exit-code", execMainCode: 1, execMainStatus: 1)
        XCTAssertFalse(s.isStarting)
        XCTAssertEqual(s.explanation(unit: unit),
                       "pokedex.service failed to start (exit 1/FAILURE: it exited with an error), systemd retries it" + more)
    }

    /// Read while systemd restarts it: failed (auto-restart), yet the new start already cleared
    /// the last exit. Never "exit 0": the reading is taken again, and said in words if it stays so.
    func testAReadingAcrossARestartIsTakenAgainAndNeverSaysExitZero() {
        let torn = UnitState(loadState: "loaded", activeState: "activating", subState: "auto-restart", result: "", execMainCode: 0, execMainStatus: 0)
        XCTAssertTrue(torn.isTorn)
        XCTAssertEqual(torn.explanation(unit: unit),
                       "pokedex.service failed to start (it exited with an error), systemd retries it" + more)
        XCTAssertFalse(UnitState(loadState: "loaded", activeState: "activating", subState: "auto-restart", result: "exit-code",
                                 execMainCode: 1, execMainStatus: 1).isTorn)
        XCTAssertFalse(UnitState(loadState: "loaded", activeState: "failed", subState: "failed", result: "timeout").isTorn,
                       "a start that timed out has no exit of its own")
        var pre = torn
        pre.failedPre = ("/usr/bin/mkdir", 1, 226)
        XCTAssertFalse(pre.isTorn)
    }

    func testAFailedStartPreCommandIsNamed() {
        var s = UnitState(loadState: "loaded", activeState: "failed", subState: "failed", result: "exit-code", execMainCode: 0, execMainStatus: 0)
        s.failedPre = ("/usr/bin/mkdir", 1, 226)
        XCTAssertEqual(s.explanation(unit: unit),
                       "pokedex.service failed to start (its ExecStartPre= /usr/bin/mkdir failed: exit 226/NAMESPACE: could not set up its mount namespace)" + more)
    }

    func testSignalsStartLimitsAndTimeouts() {
        let killed = UnitState(loadState: "loaded", activeState: "failed", subState: "failed", result: "signal", execMainCode: 2, execMainStatus: 31)
        XCTAssertTrue(killed.explanation(unit: unit)?.contains("killed by signal 31/SYS") == true)
        let limit = UnitState(loadState: "loaded", activeState: "failed", subState: "failed", result: "start-limit-hit")
        XCTAssertTrue(limit.explanation(unit: unit)?.contains("reset-failed") == true)
        let timeout = UnitState(loadState: "loaded", activeState: "failed", subState: "failed", result: "timeout")
        XCTAssertTrue(timeout.explanation(unit: unit)?.contains("did not report ready in time") == true)
    }

    func testNotInstalledAndMasked() {
        XCTAssertEqual(UnitState(loadState: "not-found", activeState: "inactive", subState: "dead").explanation(unit: unit),
                       "pokedex.service is not installed; run 'make install' (or install the package)")
        XCTAssertTrue(UnitState(loadState: "masked", activeState: "inactive", subState: "dead").explanation(unit: unit)?
            .contains("systemctl --user unmask pokedex") == true)
    }

    func testStartingOrRunningIsNotAFailure() {
        XCTAssertNil(UnitState(loadState: "loaded", activeState: "activating", subState: "start", result: "success").explanation(unit: unit))
        XCTAssertNil(UnitState(loadState: "loaded", activeState: "active", subState: "running", result: "success").explanation(unit: unit))
        XCTAssertTrue(UnitState(loadState: "loaded", activeState: "activating", subState: "start", result: "success").isStarting)
    }
}
