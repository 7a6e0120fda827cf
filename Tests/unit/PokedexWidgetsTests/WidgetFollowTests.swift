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
}
