import PokedexWidgets
import XCTest

/// ``WidgetFollow`` at the edges the property tests found (WidgetFollowProperties, seed
/// 13107991392116453342).
final class WidgetFollowTests: XCTestCase {
    /// A start is answered at once at any time: at 0.001 s, `(now - settle) + settle` rounds to
    /// just past `now`, and the start waited for the next tick.
    func testAStartIsAnsweredAtOnceWhateverTheRounding() {
        for now in [0.001, 0.002, 0.25, 1.1, 7.3, 123.456, 999.999] {
            var follow = WidgetFollow(running: false, at: now)
            XCTAssertEqual(follow.tick(at: now), [.refresh], "the first answer, at \(now)")
            XCTAssertEqual(follow.receive(.started, at: now), [.refresh], "a start at \(now)")
            XCTAssertNil(follow.deadline, "nothing left to answer at \(now)")
        }
    }

    /// A change waits until things are quiet for `settle`, exactly then and not before.
    func testAChangeIsAnsweredOnceQuiet() {
        var follow = WidgetFollow(running: true, at: 0.001)
        _ = follow.tick(at: 0.001)
        XCTAssertEqual(follow.receive(.changed, at: 0.002), [])
        XCTAssertEqual(follow.deadline, 0.002 + WidgetFollow.settle)
        XCTAssertEqual(follow.tick(at: 0.002 + WidgetFollow.settle), [.refresh])
    }

    /// Killed with no user manager to start it again, the service stayed "unavailable" for good
    /// under every widget (issue 56): one that vanished is asked again (which starts it) after
    /// 1 s, then 2, 4… while it keeps vanishing, and after 1 s again once a start held.
    func testAServiceThatVanishedIsStartedAgainLessAndLessOften() {
        var follow = WidgetFollow(running: true, at: 0)
        _ = follow.tick(at: 0)
        _ = follow.receive(.started, at: 0)
        XCTAssertEqual(follow.receive(.vanished, at: 10), [.showUnavailable])
        XCTAssertEqual(follow.deadline, 11)
        XCTAssertEqual(follow.tick(at: 10.5), [])
        XCTAssertEqual(follow.tick(at: 11), [.refresh], "asked again: the call starts it")
        XCTAssertEqual(follow.receive(.started, at: 11.2), [.refresh])
        XCTAssertEqual(follow.receive(.vanished, at: 12), [.showUnavailable])
        XCTAssertEqual(follow.deadline, 14, "it vanished again soon after: 2 s")
        _ = follow.tick(at: 14)
        _ = follow.receive(.started, at: 14.1)
        XCTAssertEqual(follow.receive(.vanished, at: 14.2 + WidgetFollow.steady), [.showUnavailable])
        XCTAssertEqual(follow.deadline, 15.2 + WidgetFollow.steady, "after a start that held: 1 s again")
        // Stopped on purpose meanwhile: not started again.
        XCTAssertEqual(follow.receive(.stopped(idle: false), at: 15.1 + WidgetFollow.steady), [.showUnavailable])
        XCTAssertNil(follow.deadline)
        XCTAssertEqual(WidgetFollow.restartDelay(20), 60)
    }
}
