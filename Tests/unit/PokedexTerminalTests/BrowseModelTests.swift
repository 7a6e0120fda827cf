import PokedexModels
@testable import PokedexTerminal
import XCTest

/// `pokectl browse`'s model: what each key and each answer does, and what it asks next.
final class BrowseModelTests: XCTestCase {
    static func entry(_ id: Int, sprite: Bool = true, favorite: Bool = false) -> ListEntry {
        ListEntry(id: UInt32(id), name: "mon-\(id)", spritePath: sprite ? "/cache/\(id).png" : "", favorite: favorite)
    }
    static func page(_ offset: Int, total: Int = 1351, sprite: Bool = true) -> ListPage {
        ListPage(total: UInt32(total), entries: (offset..<min(total, offset + 20)).map { entry($0 + 1, sprite: sprite) })
    }

    /// A model at 80×24 (5 columns, 3 rows) with the first page in.
    func started(width: Int = 80, height: Int = 24) -> (BrowseModel, [BrowseEffect]) { Self.started(width: width, height: height) }

    static func started(width: Int = 80, height: Int = 24) -> (BrowseModel, [BrowseEffect]) {
        var m = BrowseModel()
        _ = m.handle(.resized(width: width, height: height))
        let first = m.start()
        let more = m.handle(.page(offset: 0, Self.page(0)))
        return (m, first + more)
    }

    func key(_ m: inout BrowseModel, _ k: Key) -> [BrowseEffect] { m.handle(.input(.key(k))) }

    func testStartAsksForTheFirstPageAndTheFavorites() {
        var m = BrowseModel()
        _ = m.handle(.resized(width: 80, height: 24))
        let effects = m.start()
        XCTAssertEqual(effects, [.loadFavorites, .loadPage(offset: 0)])
        XCTAssertEqual(m.layout.columns, 5)
        XCTAssertEqual(m.layout.rows, 3)
    }

    func testScrollingPastTheLoadedRowsAsksForTheNextPagesOnce() {
        var (m, effects) = started()
        // With the total known, the screen and the next one: pages 0 and 1 (tiles 0–29).
        XCTAssertTrue(effects.contains(.loadPage(offset: 20)), "\(effects)")
        var asked: [BrowseEffect] = []
        for _ in 0..<10 { asked += key(&m, .down) }
        XCTAssertEqual(m.selected, 50)
        XCTAssertEqual(m.top, 8, "the selected row is the last on screen")
        let pages = asked.filter { if case .loadPage = $0 { return true } else { return false } }
        XCTAssertEqual(pages, [.loadPage(offset: 40), .loadPage(offset: 60)], "each page once, ahead of the screen")
        XCTAssertNil(m.entry(50), "not here yet: the tile shows a placeholder, input did not wait")
        _ = m.handle(.page(offset: 40, Self.page(40)))
        XCTAssertEqual(m.entry(50)?.id, 51)
        _ = key(&m, .end)
        XCTAssertEqual(m.selected, 1350)
        _ = key(&m, .home)
        XCTAssertEqual(m.selected, 0)
        _ = key(&m, .pageDown)
        XCTAssertEqual(m.selected, 15)
        _ = key(&m, .up)
        XCTAssertEqual(m.selected, 10)
        _ = key(&m, .char("l"))
        XCTAssertEqual(m.selected, 11)
    }

    func testMissingSpritesAreAskedForOnceAndFilledIn() {
        var m = BrowseModel()
        _ = m.handle(.resized(width: 80, height: 24))
        _ = m.start()
        let effects = m.handle(.page(offset: 0, Self.page(0, sprite: false)))
        let sprites = effects.filter { if case .spritePath = $0 { return true } else { return false } }
        XCTAssertEqual(sprites.count, 15, "the tiles on screen")
        XCTAssertTrue(m.handle(.page(offset: 0, Self.page(0, sprite: false))).allSatisfy { if case .spritePath = $0 { return false } else { return true } })
        _ = m.handle(.sprite(id: 3, path: "/cache/3.png"))
        XCTAssertEqual(m.entry(2)?.spritePath, "/cache/3.png")
    }

    func testSearchFollowsTypingDebouncedAndEscGoesBack() {
        var (m, _) = started()
        XCTAssertEqual(key(&m, .char("/")), [])
        XCTAssertEqual(m.mode, .searching)
        XCTAssertEqual(key(&m, .char("c")), [.scheduleSearch(generation: 1, after: BrowseModel.searchDebounce)])
        XCTAssertEqual(key(&m, .char("h")), [.scheduleSearch(generation: 2, after: BrowseModel.searchDebounce)])
        XCTAssertEqual(m.handle(.searchDue(generation: 1)), [], "an older debounce is stale")
        XCTAssertEqual(m.handle(.searchDue(generation: 2)), [.search(query: "ch", generation: 2)])
        _ = m.handle(.searchPage(generation: 1, offset: 0, ListPage(total: 1, entries: [Self.entry(999)])))
        XCTAssertNil(m.results, "stale results are dropped")
        _ = m.handle(.searchPage(generation: 2, offset: 0, ListPage(total: 3, entries: [Self.entry(4), Self.entry(5), Self.entry(6)])))
        XCTAssertEqual(m.count, 3)
        _ = key(&m, .enter)
        XCTAssertEqual(m.mode, .grid, "Enter keeps the results")
        XCTAssertEqual(m.source, .search("ch"))
        _ = key(&m, .escape)
        XCTAssertEqual(m.source, .all, "Esc goes back to the full list")
        XCTAssertEqual(m.count, 1351)
    }

    func testAQueryGivenAtStartIsSearchedAtOnce() {
        var m = BrowseModel(query: "char")
        _ = m.handle(.resized(width: 80, height: 24))
        XCTAssertEqual(m.start(), [.loadFavorites, .search(query: "char", generation: 1)])
        XCTAssertEqual(m.source, .search("char"))
    }

    func testACardGivenAtStartOpensFirstWithItsSearchBehindIt() {
        // What the desktop's search opens on a row: that Pokémon's card, a form included.
        var m = BrowseModel(query: "mega charizard x", open: "10034")
        _ = m.handle(.resized(width: 80, height: 24))
        XCTAssertEqual(m.start(), [.loadFavorites, .search(query: "mega charizard x", generation: 1), .loadDetail(name: "10034")])
        XCTAssertEqual(m.mode, .detail)
        let d = PokemonDetail(id: 10034, name: "charizard-mega-x", height: 17, weight: 1105, types: ["fire", "dragon"], abilities: [],
                              stats: [], spritePath: "", favorite: false, genus: "Flame Pokémon", flavorText: "")
        _ = m.handle(.detail(d))
        XCTAssertEqual(m.detail, d, "the card of that id")
        _ = key(&m, .escape)
        XCTAssertEqual(m.mode, .grid)
        XCTAssertEqual(m.source, .search("mega charizard x"), "Esc: the search it was found by")
        // With nothing behind it: the whole list.
        var alone = BrowseModel(open: "25")
        _ = alone.handle(.resized(width: 80, height: 24))
        XCTAssertEqual(alone.start().filter { if case .loadDetail = $0 { return true } else { return false } }, [.loadDetail(name: "25")])
        _ = key(&alone, .escape)
        XCTAssertEqual(alone.source, .all)
    }

    func testDetailOpensAndGoesBackToTheSamePlace() {
        var (m, _) = started()
        _ = m.handle(.page(offset: 20, Self.page(20)))
        for _ in 0..<4 { _ = key(&m, .down) }
        let (selected, top) = (m.selected, m.top)
        XCTAssertEqual(key(&m, .enter), [.loadDetail(name: "mon-21")])
        XCTAssertEqual(m.mode, .detail)
        let d = PokemonDetail(id: 21, name: "mon-21", height: 3, weight: 20, types: ["normal"], abilities: [], stats: [],
                              spritePath: "", favorite: false, genus: "Tiny Bird Pokémon", flavorText: "")
        _ = m.handle(.detail(d))
        XCTAssertEqual(m.detail, d)
        XCTAssertEqual(key(&m, .char("f")), [.toggleFavorite(name: "mon-21")])
        _ = m.handle(.favoriteChanged(id: 21, name: "mon-21", favorite: true))
        XCTAssertEqual(m.detail?.favorite, true)
        _ = key(&m, .backspace)
        XCTAssertEqual(m.mode, .grid)
        XCTAssertEqual(m.selected, selected)
        XCTAssertEqual(m.top, top)
        XCTAssertEqual(m.entry(20)?.favorite, true)
    }

    func testFavoritesLiveAndTheFavoritesOnlyView() {
        var (m, _) = started()
        _ = m.handle(.favorites([Self.entry(7, favorite: true)]))
        XCTAssertEqual(key(&m, .char("f")), [.toggleFavorite(name: "mon-1")])
        // Another client's change arrives as a signal.
        _ = m.handle(.favoriteChanged(id: 2, name: "mon-2", favorite: true))
        XCTAssertEqual(m.entry(1)?.favorite, true)
        XCTAssertEqual(key(&m, .char("F")), [.loadFavorites])
        XCTAssertEqual(m.source, .favorites)
        XCTAssertEqual(m.count, 2)
        _ = m.handle(.favoriteChanged(id: 7, name: "mon-7", favorite: false))
        XCTAssertEqual(m.count, 1)
        _ = key(&m, .char("F"))
        XCTAssertEqual(m.source, .all)
    }

    func testMouseWheelScrollsAndAClickSelectsThenOpens() {
        var (m, _) = started()
        _ = m.handle(.input(.mouse(MouseEvent(.wheelDown, x: 5, y: 5))))
        XCTAssertEqual(m.selected, 5)
        // The tile in column 2, row 1 of the screen: x 33–45 (the grid starts at column 5), y 8–14.
        _ = m.handle(.input(.mouse(MouseEvent(.press, x: 35, y: 9))))
        XCTAssertEqual(m.selected, 7)
        XCTAssertEqual(m.handle(.input(.mouse(MouseEvent(.press, x: 35, y: 9)))), [.loadDetail(name: "mon-8")])
    }

    func testResizeLaysOutAgainAndKeepsTheSelectionOnScreen() {
        var (m, _) = started(width: 120, height: 40)
        XCTAssertEqual(m.layout.columns, 8)
        XCTAssertEqual(m.layout.rows, 5)
        _ = m.handle(.page(offset: 20, Self.page(20)))
        _ = m.handle(.page(offset: 40, Self.page(40)))
        for _ in 0..<5 { _ = key(&m, .down) }
        _ = m.handle(.resized(width: 80, height: 24))
        XCTAssertTrue(m.visible.contains(m.selected), "\(m.visible) \(m.selected)")
    }

    func testQuitAndHelp() {
        var (m, _) = started()
        XCTAssertEqual(key(&m, .char("?")), [])
        XCTAssertEqual(m.mode, .help)
        _ = key(&m, .char("x"))
        XCTAssertEqual(m.mode, .grid)
        XCTAssertEqual(key(&m, .char("q")), [.quit])
        XCTAssertEqual(key(&m, .control("c")), [.quit])
    }
}

/// Bytes from a terminal in raw mode.
final class InputDecoderTests: XCTestCase {
    func testKeysSequencesAndMouse() {
        var d = InputDecoder()
        XCTAssertEqual(d.feed(Array("jk/".utf8)), [.key(.char("j")), .key(.char("k")), .key(.char("/"))])
        XCTAssertEqual(d.feed([0x1B, 0x5B, 0x41, 0x1B, 0x4F, 0x42]), [.key(.up), .key(.down)])
        XCTAssertEqual(d.feed(Array("\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[4~".utf8)), [.key(.pageUp), .key(.pageDown), .key(.home), .key(.end)])
        XCTAssertEqual(d.feed(Array("\u{1B}[<0;31;10M\u{1B}[<0;31;10m\u{1B}[<65;1;1M".utf8)),
                       [.mouse(MouseEvent(.press, x: 30, y: 9)), .mouse(MouseEvent(.release, x: 30, y: 9)), .mouse(MouseEvent(.wheelDown, x: 0, y: 0))])
        XCTAssertEqual(d.feed([0x0D, 0x7F, 0x03]), [.key(.enter), .key(.backspace), .key(.control("c"))])
        XCTAssertEqual(d.feed(Array("é".utf8)), [.key(.char("é"))])
    }

    func testALoneEscapeWaitsThenIsTheEscKey() {
        var d = InputDecoder()
        XCTAssertEqual(d.feed([0x1B]), [])
        XCTAssertTrue(d.pendingEscape)
        XCTAssertEqual(d.flush(), [.key(.escape)])
        // A sequence split across reads is put together.
        XCTAssertEqual(d.feed([0x1B, 0x5B]), [])
        XCTAssertEqual(d.feed([0x43]), [.key(.right)])
        // Esc and a key in one read (tmux's send-keys, a fast typist): both.
        XCTAssertEqual(d.feed(Array("\u{1B}/x".utf8)), [.key(.escape), .key(.char("/")), .key(.char("x"))])
    }
}
