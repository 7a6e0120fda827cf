import Glibc
import PokedexBusClient
import PokedexTerminal
import XCTest
@testable import PokectlKit

/// A terminal that keeps what browse wrote.
final class FakeTerminal: BrowseTerminal {
    var written = ""
    var width = 80, height = 24
    var suspended = 0
    func size() -> (width: Int, height: Int) { (width, height) }
    func write(_ text: String) { written += text }
    func noteKittyImages(upTo last: UInt32, tmux: Bool) {}
    var suspendByte: UInt8? { 0x1A }
    func suspend() { suspended += 1 }
    func resume() {}
}

/// browse's loop driven by hand (its ``BrowseApp``, without `poll`): keys and signals made up,
/// the lanes' calls answered by a fake service on their own threads, the frames kept.
final class BrowseAppTests: XCTestCase {
    private var inbox: Inbox!
    private var lanes: Lanes!
    private var terminal: FakeTerminal!

    private func app(_ fake: FakeService, query: String = "", desktopSearch: Bool = false) -> BrowseApp {
        inbox = Inbox()
        terminal = FakeTerminal()
        let names = BrowseNames(language: "en")
        lanes = Lanes(inbox: inbox, names: names, words: .english, environment: [:], desktopSearch: desktopSearch ? query : nil,
                      connect: { () throws(BusError) -> any PokedexService in fake })
        let graphics = TileGraphics(protocolUsed: .blocks, tmuxPassthrough: false, fit: { _, _, _ in nil }, png: { _ in nil })
        return BrowseApp(query: query, open: nil, mode: .none, graphics: graphics, terminal: terminal, lanes: lanes, names: names,
                         words: .english, environment: [:])
    }

    override func tearDown() {
        lanes?.stop(within: 1)
    }

    /// The lanes' results, once some come (at most 5 s).
    private func results() -> [BrowseResult] {
        var pfd = pollfd(fd: inbox.wake.read, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&pfd, 1, 5000), 1, "a lane answers")
        return inbox.take()
    }

    private func service() -> FakeService {
        let fake = Fixtures.service()
        fake.on(Pokedex1.listPage) { (offset, limit) in
            ListPage(total: 3, entries: offset == 0 ? [Fixtures.bulbasaur, Fixtures.charizard, Fixtures.pikachu] : [])
        }
        fake.on(Pokedex1.listFavorites) { _ in [Fixtures.pikachu] }
        fake.on(Pokedex1.localizedDetail) { (_, language) in ServiceCommandsTests.charizard(german: language == "de") }
        fake.on(Pokedex1.spritePath) { _ in "" }
        return fake
    }

    func testTheFirstPageArrivesThroughALaneAndIsDrawn() {
        let fake = service()
        var app = app(fake)
        XCTAssertNil(app.start())
        XCTAssertTrue(terminal.written.contains("\u{1B}["), "a first frame")
        var drawn = false
        for _ in 0..<5 where !drawn {
            XCTAssertNil(app.step(BrowseWake(results: results())))
            drawn = terminal.written.contains("Charizard")
        }
        XCTAssertTrue(drawn, "the tiles' names, as the service gave them")
        XCTAssertTrue(fake.calls.contains("ListPage"), "\(fake.calls)")
    }

    func testKeysMoveAndQQuits() {
        var app = app(service())
        XCTAssertNil(app.start())
        // The lanes answer in any order: until the first page is in.
        for _ in 0..<5 where app.model.entry(0) == nil { XCTAssertNil(app.step(BrowseWake(results: results()))) }
        XCTAssertNotNil(app.model.entry(0))
        XCTAssertNil(app.step(BrowseWake(keyboard: .bytes(Array("l".utf8)))))
        XCTAssertEqual(app.model.selected, 1)
        XCTAssertEqual(app.step(BrowseWake(keyboard: .bytes(Array("q".utf8)))), .quit)
    }

    func testSignalsAndTheTerminalGoingAway() {
        var app = app(service())
        XCTAssertNil(app.start())
        terminal.width = 100
        XCTAssertNil(app.step(BrowseWake(signals: [SIGWINCH])))
        XCTAssertEqual(app.model.layout.width, 100)
        XCTAssertNil(app.step(BrowseWake(keyboard: .bytes([0x1A]))), "Ctrl-Z suspends")
        XCTAssertEqual(terminal.suspended, 1)
        XCTAssertEqual(app.step(BrowseWake(signals: [SIGINT])), .signal(SIGINT))
        XCTAssertEqual(app.step(BrowseWake(keyboard: .closed)), .quit)
        XCTAssertEqual(app.step(BrowseWake(results: [.fatal("bus gone")])), .serviceGone("bus gone"))
    }

    func testALoneEscapeIsAKeyOnceTheWaitTimesOut() {
        var app = app(service())
        XCTAssertNil(app.start())
        XCTAssertNil(app.step(BrowseWake(keyboard: .bytes(Array("/".utf8)))))
        XCTAssertEqual(app.model.mode, .searching)
        XCTAssertNil(app.step(BrowseWake(keyboard: .bytes([0x1B]))))
        XCTAssertEqual(app.timeout(), 30, "the rest of an escape sequence is waited for")
        XCTAssertNil(app.step(BrowseWake(timedOut: true)))
        XCTAssertEqual(app.model.mode, .grid)
    }

    /// The search's pause after typing is kept on browse's clock, here moved by hand: the
    /// query is sent once the clock passes it, never before, whatever the wall says.
    func testASearchIsSentWhenItsPauseHasPassedOnTheClock() {
        let fake = service()
        fake.on(Pokedex1.searchPage) { (_, _, _) in ListPage(total: 1, entries: [Fixtures.pikachu]) }
        var app = app(fake)
        var now = 1000.0
        app.clock = { now }
        XCTAssertNil(app.start())
        for _ in 0..<5 where app.model.entry(0) == nil { XCTAssertNil(app.step(BrowseWake(results: results()))) }
        XCTAssertNil(app.step(BrowseWake(keyboard: .bytes(Array("/pika".utf8)))))
        XCTAssertEqual(app.timeout(), Int32((BrowseModel.searchDebounce * 1000).rounded(.up)), "the loop sleeps until the pause ends")
        now += BrowseModel.searchDebounce / 2
        XCTAssertNil(app.step(BrowseWake()))
        XCTAssertFalse(fake.calls.contains("SearchPage"), "not before its time")
        XCTAssertNil(app.step(BrowseWake(keyboard: .bytes(Array("c".utf8)))), "another key starts the pause again")
        now += BrowseModel.searchDebounce * 0.99
        XCTAssertNil(app.step(BrowseWake()))
        XCTAssertFalse(fake.calls.contains("SearchPage"), "the pause counts from the last key")
        now += BrowseModel.searchDebounce * 0.02
        XCTAssertEqual(app.timeout(), 0)
        XCTAssertNil(app.step(BrowseWake()))
        XCTAssertNil(app.step(BrowseWake(results: results())))
        XCTAssertEqual(fake.calls.filter { $0 == "SearchPage" }.count, 1, "one query, the whole of it: \(fake.calls)")
    }

    /// Opened by the shell on its search (`--desktop-search`): the grid lists the shell's list
    /// (`DesktopSearchPage`, the terms as the shell split them), and a search typed afterwards
    /// is browse's own; a service from before that member gives its search instead.
    func testTheShellsSearchListsWhatTheShellShowed() {
        for older in [false, true] {
            let fake = service()
            var terms: [[String]] = []
            if !older {
                fake.on(Pokedex1.desktopSearchPage) { (t, _, _) in
                    terms.append(t)
                    return ListPage(total: 2, entries: [Fixtures.charizard, Fixtures.pikachu])
                }
            }
            fake.on(Pokedex1.searchPage) { (_, _, _) in ListPage(total: 1, entries: [Fixtures.bulbasaur]) }
            var app = app(fake, query: "char  pika", desktopSearch: true)
            var now = 1000.0
            app.clock = { now }
            XCTAssertNil(app.start())
            for _ in 0..<8 where app.model.entry(0)?.id != (older ? Fixtures.bulbasaur.id : Fixtures.charizard.id) {
                XCTAssertNil(app.step(BrowseWake(results: results())))
            }
            if older {
                XCTAssertEqual(fake.calls.filter { $0.hasSuffix("SearchPage") }, ["DesktopSearchPage", "SearchPage"])
                XCTAssertEqual(app.model.entry(0)?.id, Fixtures.bulbasaur.id, "the service's search")
                lanes.stop(within: 1)
                continue
            }
            XCTAssertEqual(terms, [["char", "pika"]])
            XCTAssertEqual([app.model.entry(0)?.id, app.model.entry(1)?.id], [Fixtures.charizard.id, Fixtures.pikachu.id])
            XCTAssertFalse(fake.calls.contains("SearchPage"))
            // A search typed over it is browse's own.
            XCTAssertNil(app.step(BrowseWake(keyboard: .bytes(Array("/".utf8) + [0x7F]))))
            now += BrowseModel.searchDebounce * 2
            XCTAssertNil(app.step(BrowseWake()))
            XCTAssertNil(app.step(BrowseWake(results: results())))
            XCTAssertEqual(fake.calls.filter { $0 == "SearchPage" }.count, 1, "\(fake.calls)")
            XCTAssertEqual(app.model.entry(0)?.id, Fixtures.bulbasaur.id)
            lanes.stop(within: 1)
        }
    }

    func testTheLanesEndAndAreJoined() {
        _ = app(service())
        let started = monotonic()
        lanes.stop(within: 2)
        XCTAssertLessThan(monotonic() - started, 2, "idle lanes end at once")
        lanes = nil
    }
}
