import PokedexModels
@testable import PokedexTerminal
import XCTest

/// Issue 36: browse comes back by itself. After an outage, a cleared cache or a resize, the
/// screen converges on what the service has, with no key pressed.
final class BrowseRecoveryTests: XCTestCase {
    typealias T = BrowseModelTests

    /// A model with the first page in.
    func started(width: Int = 80, height: Int = 24) -> (BrowseModel, [BrowseEffect]) { T.started(width: width, height: height) }

    func sprites(_ effects: [BrowseEffect]) -> [UInt32] {
        effects.compactMap { if case .spritePath(let id, _) = $0 { return id } else { return nil } }
    }

    /// Issue 36's first report: offline, a page on (its tiles without sprites, their asks
    /// failed), then the API back: every tile on screen is asked again, without a key.
    func testTilesLeftWithoutSpritesAreAskedAgainWhenTheAPIIsBack() {
        var (m, _) = started()
        _ = m.handle(.online(false))
        for _ in 0..<3 { _ = m.handle(.input(.key(.pageDown))) }
        let offset = (m.visible.lowerBound / BrowseModel.pageSize) * BrowseModel.pageSize
        var asked = Set(sprites(m.handle(.page(offset: offset, T.page(offset, sprite: false)))))
        asked.formUnion(sprites(m.handle(.page(offset: offset + 20, T.page(offset + 20, sprite: false)))))
        let onScreen = Set(m.visible.compactMap { m.entry($0)?.id })
        XCTAssertTrue(onScreen.isSubset(of: asked), "the tiles on screen are asked for once")
        _ = m.handle(.failed(""))  // what the lane answers a failed ask: the placeholders stay
        XCTAssertEqual(sprites(m.handle(.input(.key(.right)))), [], "not asked again at every key while offline")
        let back = Set(sprites(m.handle(.online(true))))
        XCTAssertEqual(back, Set(m.visible.compactMap { m.entry($0)?.id }), "the API back: every tile on screen asked again")
        for id in back { _ = m.handle(.sprite(id: id, path: "/cache/\(id).png")) }
        XCTAssertTrue(m.visible.allSatisfy { m.entry($0)?.spritePath.isEmpty == false }, "all filled, no key pressed")
        XCTAssertEqual(sprites(m.handle(.online(true))), [], "online again while online asks nothing")
    }

    func testTheServiceComingBackAsksForTheTilesToo() {
        var m = BrowseModel()
        _ = m.handle(.resized(width: 80, height: 24))
        _ = m.start()
        _ = m.handle(.page(offset: 0, T.page(0, sprite: false)))
        _ = m.handle(.service(down: "service stopped"))
        let back = m.handle(.service(down: nil))
        XCTAssertEqual(Set(sprites(back)), Set(m.visible.compactMap { m.entry($0)?.id }))
        XCTAssertNil(m.message, "what the outage said goes with it")
    }

    func testAClearedCacheAsksForEverySpriteShownAndTheCardsSprite() {
        var (m, _) = started()
        XCTAssertFalse(m.visible.isEmpty)
        XCTAssertTrue(m.visible.allSatisfy { m.entry($0)?.spritePath.isEmpty == false })
        let again = Set(sprites(m.handle(.cacheCleared)))
        XCTAssertEqual(again, Set(m.visible.compactMap { m.entry($0)?.id }), "the paths shown are gone: asked again")
        XCTAssertTrue(m.visible.allSatisfy { m.entry($0)?.spritePath.isEmpty == true }, "no tile draws a file that is gone")

        _ = m.handle(.input(.key(.enter)))
        _ = m.handle(.detail(PokemonDetail(id: 1, name: "mon-1", height: 1, weight: 1, types: [], abilities: [], stats: [],
                                           spritePath: "/cache/1.png", favorite: false, genus: "", flavorText: "")))
        let card = m.handle(.cacheCleared)
        XCTAssertTrue(card.contains(.loadDetail(name: "mon-1")), "the card asks for its sprite again: \(card)")
        XCTAssertEqual(m.detail?.spritePath, "", "and draws none meanwhile")
    }

    func testAFailedSearchIsAskedAgainWhenTheServiceIsBack() {
        var (m, _) = started()
        _ = m.handle(.input(.key(.char("/"))))
        for c in "pika" { _ = m.handle(.input(.key(.char(c)))) }
        _ = m.handle(.input(.key(.enter)))
        guard case .search(let q, let g)? = m.handle(.searchDue(generation: m.searchGeneration)).first else { return XCTFail() }
        _ = m.handle(.searchFailed(generation: g, "the service is not running"))
        _ = m.handle(.service(down: "service stopped"))
        let back = m.handle(.service(down: nil))
        XCTAssertTrue(back.contains { if case .search(q, let g2) = $0 { g2 > g } else { false } }, "\(back)")
    }

    /// Issue 36's ninth report: the end of the list, a small window, then a big one.
    func testGrowingTheWindowAtTheEndOfTheListFillsIt() {
        var (m, _) = started(width: 100, height: 32)
        let total = 1351
        for offset in stride(from: 0, to: total, by: 20) { _ = m.handle(.page(offset: offset, T.page(offset, total: total))) }
        _ = m.handle(.input(.key(.end)))
        for (w, h) in [(30, 10), (100, 32), (250, 70), (28, 9), (250, 70)] {
            _ = m.handle(.resized(width: w, height: h))
            // Every row of the screen holds tiles: the last row of the list is the last on
            // screen, and no row above it is left off while the screen has room.
            let rows = (total - 1) / m.layout.columns + 1
            let shown = (m.visible.count - 1) / m.layout.columns + 1
            XCTAssertEqual(m.visible.upperBound, total, "\(w)×\(h): down to the end")
            XCTAssertEqual(shown, min(rows, m.layout.rows), "\(w)×\(h): as many rows as fit")
            XCTAssertEqual(m.visible.lowerBound % m.layout.columns, 0, "\(w)×\(h): whole rows")
            XCTAssertTrue(m.visible.contains(m.selected), "\(w)×\(h): the selection stays in sight")
            XCTAssertEqual(m.selected, total - 1)
        }
    }
}
