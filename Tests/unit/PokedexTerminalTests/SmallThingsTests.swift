import PokedexModels
@testable import PokedexTerminal
import XCTest

/// Issue 28's small things that live in the terminal layer.
final class SmallThingsTests: XCTestCase {
    func testTheSyncBarStartsAtThisSyncAndClearsItsLine() {
        var bar = ProgressBar()
        // The service still shows the last sync's end before this one starts: not drawn.
        XCTAssertNil(bar.line(done: 1351, total: 1351))
        XCTAssertFalse(bar.started)
        let first = bar.line(done: 0, total: 1351)
        XCTAssertEqual(first, "\r" + String(repeating: "░", count: 30) + " 0/1351\u{1B}[K")
        // Every line clears what a longer one left (`130/13511` in issue 28).
        XCTAssertTrue(bar.line(done: 130, total: 1351)!.hasSuffix("130/1351\u{1B}[K"))
        XCTAssertTrue(bar.line(done: 1351, total: 1351)!.hasSuffix("1351/1351\u{1B}[K"), "the end, once this sync's own progress was seen")
        XCTAssertNil(bar.line(done: 0, total: 0))
    }

    func testTheKeysHelpWrapsEveryLineAtEverySize() {
        for (width, height) in [(40, 30), (50, 26), (64, 24), (80, 24), (100, 32), (200, 60)] {
            var m = BrowseModel()
            _ = m.handle(.resized(width: width, height: height))
            _ = m.handle(.input(.key(.char("?"))))
            let screen = BrowseView(model: m, mode: .none, art: { _ in nil }, image: { _ in nil }).render()
            let text = screen.lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
            for (key, what) in BrowseView.keys {
                for word in (key + " " + what).split(separator: " ") {
                    XCTAssertTrue(text.contains(word), "\(width)×\(height): “\(word)” of “\(what)” is cut")
                }
            }
            XCTAssertTrue(text.contains("back to the grid (Esc: back to the whole list)") || text.contains("list)"), "\(width)×\(height)")
        }
    }
}
