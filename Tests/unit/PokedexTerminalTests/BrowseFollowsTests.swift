import PokedexModels
@testable import PokedexTerminal
import XCTest

/// Issue 28: browse never asks again at once for what failed, follows the service's coming and
/// going, clears an error line when its cause clears, and pages search results past 100.
final class BrowseFollowsTests: XCTestCase {
    typealias T = BrowseModelTests

    func started() -> BrowseModel {
        var m = BrowseModel()
        _ = m.handle(.resized(width: 80, height: 24))
        _ = m.start()
        return m
    }

    func loads(_ effects: [BrowseEffect]) -> [Int] {
        effects.compactMap { if case .loadPage(let o) = $0 { return o } else { return nil } }
    }

    func testAFailedPageWaitsLongerEachTimeBeforeItIsAskedAgain() {
        var m = started()
        var delays: [Double] = []
        for _ in 0..<8 {
            let out = m.handle(.pageFailed(offset: 0, "the Pokémon list is not available"))
            XCTAssertEqual(loads(out), [], "not asked again at once (the storm of issue 28)")
            guard case .retryPage(0, let after)? = out.first(where: { if case .retryPage = $0 { true } else { false } }) else {
                return XCTFail("\(out)")
            }
            delays.append(after)
            // Nothing else asks for it meanwhile: not a resize, not a key.
            XCTAssertEqual(loads(m.handle(.resized(width: 100, height: 30))), [])
            XCTAssertEqual(loads(m.handle(.input(.key(.down)))), [])
            XCTAssertEqual(loads(m.handle(.pageDue(offset: 0))), [0], "asked again when its pause is over")
        }
        XCTAssertEqual(delays, [1, 2, 4, 8, 16, 30, 30, 30])
    }

    func testTheAPIComingBackAsksAtOnceAndTheErrorLineGoesWhenThePageArrives() {
        var m = started()
        _ = m.handle(.online(false))
        _ = m.handle(.pageFailed(offset: 0, "the Pokémon list is not available"))
        XCTAssertNotNil(m.message)
        XCTAssertEqual(loads(m.handle(.online(true))), [0], "back online: the failed page is asked now")
        _ = m.handle(.page(offset: 0, T.page(0)))
        XCTAssertNil(m.message, "its condition cleared, the line goes without a key")
        // Another kind of error stays until a key.
        _ = m.handle(.failed("favorite not saved"))
        _ = m.handle(.page(offset: 20, T.page(20)))
        XCTAssertEqual(m.message, "favorite not saved")
    }

    func testTheServiceStoppingAndComingBack() {
        var m = started()
        _ = m.handle(.service(down: "waiting for the service"))
        XCTAssertEqual(m.serviceDown, "waiting for the service")
        _ = m.handle(.pageFailed(offset: 0, "the service is not running"))
        let back = m.handle(.service(down: nil))
        XCTAssertNil(m.serviceDown)
        XCTAssertEqual(loads(back), [0], "reconnected: what failed is asked again now")
        XCTAssertTrue(back.contains(.loadFavorites))
        _ = m.handle(.page(offset: 0, T.page(0)))
        XCTAssertNil(m.message)
        _ = m.handle(.service(down: "service stopped"))
        let view = BrowseView(model: m, mode: .none, art: { _ in nil }, image: { _ in nil }).render()
        XCTAssertTrue(view.lines[23].contains("service stopped"), view.lines[23])
    }

    func testSearchResultsPastAHundredPageAsTheGridDoes() {
        var m = started()
        _ = m.handle(.input(.key(.char("/"))))
        for c in "type:water" { _ = m.handle(.input(.key(.char(c)))) }
        let due = m.handle(.searchDue(generation: m.searchGeneration))
        guard case .search(let q, let g)? = due.first else { return XCTFail("\(due)") }
        XCTAssertEqual(q, "type:water")
        let first = ListPage(total: 160, entries: (1...100).map { T.entry($0) })
        XCTAssertEqual(m.handle(.searchPage(generation: g, offset: 0, first)).filter { if case .searchMore = $0 { true } else { false } }, [])
        XCTAssertEqual(m.count, 160, "the title and the grid count every match")
        _ = m.handle(.input(.key(.enter)))
        var more: [BrowseEffect] = []
        for _ in 0..<30 { more += m.handle(.input(.key(.down))) }
        XCTAssertEqual(more.filter { if case .searchMore = $0 { true } else { false } }, [.searchMore(query: "type:water", generation: g, offset: 100)],
                       "asked once, as the screen nears the end of what is here")
        _ = m.handle(.searchPage(generation: g, offset: 100, ListPage(total: 160, entries: (101...160).map { T.entry($0) })))
        XCTAssertEqual(m.results?.count, 160)
        XCTAssertEqual(m.entry(159)?.id, 160)
        let title = BrowseView(model: m, mode: .none, art: { _ in nil }, image: { _ in nil }).render().lines[0]
        XCTAssertTrue(title.contains("160 found"), title)
    }
}
