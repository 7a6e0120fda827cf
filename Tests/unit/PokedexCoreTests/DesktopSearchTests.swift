import PokedexLocks
import PokedexTestKit
import XCTest
@testable import PokedexCore

/// Numbers as people write them, and what the desktop's search providers get.
final class DesktopSearchTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    final class Recorder: DesktopNotifier, DesktopLauncher, @unchecked Sendable {
        let cards = Mutex<[(DesktopNotification, [String], @Sendable (String) -> Void)]>([])
        let opened = Mutex<[String]>([])
        let canOpen: Bool, failsLater: Bool
        init(canOpen: Bool, failsLater: Bool = false) { self.canOpen = canOpen; self.failsLater = failsLater }
        func show(_ notification: DesktopNotification) {}
        func showCard(_ n: DesktopNotification, actions: [(key: String, label: String)], onAction: @escaping @Sendable (String) -> Void) {
            cards.withLock { $0.append((n, actions.map(\.key), onAction)) }
        }
        func openBrowse(_ launch: BrowseLaunch, caller: String?, failed: @escaping @Sendable () -> Void) -> Bool {
            opened.withLock { $0.append(launch.arguments.joined(separator: " ")) }
            if failsLater { failed() }
            return canOpen
        }
        func copy(_ text: String, caller: String?) -> Bool { false }
        func setActivationToken(_ token: String, caller: String) {}
    }

    func makeService(_ recorder: Recorder? = nil, client: FakeHTTPClient = FakePokeAPI().client) throws -> PokedexService {
        let config = ServiceConfiguration(apiURL: FakePokeAPI.base + "/", spriteHosts: ["sprites.test"],
                                          cacheDirectory: dir + "/cache", dataDirectory: dir + "/data",
                                          spriteURLTemplate: "https://sprites.test/{id}.png", prefetch: false)
        return PokedexService(configuration: config, client: client,
                              store: try FileCacheStore(directory: config.cacheDirectory, capacity: 1 << 24),
                              favorites: try FavoritesBook(persistence: MemoryFavoritesPersistence()),
                              decoder: PNGTestDecoder(), notifier: recorder, launcher: recorder)
    }

    func testNumbersAsPeopleWriteThem() {
        for text in ["25", "025", "#025", "#25", "No. 25", "no25", "No.25", "N°25", "Nº 25", "№25", "２５", "#０２５", " 25 "] {
            XCTAssertEqual(PokedexNumber.parse(text), 25, text)
        }
        for text in ["", "#", "No.", "pikachu", "25a", "2 5", "①", "½", "n25x", "99999999999"] {
            XCTAssertNil(PokedexNumber.parse(text), text)
        }
    }

    func testEveryMethodThatTakesAPokemonUnderstandsThem() async throws {
        let s = try makeService()
        for text in ["#025", "No. 25", "N°25", "２５", "no25"] {
            let d = try await s.detail(text).value()
            XCTAssertEqual(d.name, "pikachu", text)
        }
        for text in ["#25", "No. 25", "２５"] {
            let got1 = try await s.search(text, limit: 5).value()
            XCTAssertEqual(got1.first?.id, 25, text)
        }
    }

    func testResultsMatchEveryTermAndASubsearchIsASearch() async throws {
        let s = try makeService()
        let got2 = try await s.desktopResults(["pika"]).value()
        XCTAssertEqual(got2, ["25"])
        let mon1 = try await s.desktopResults(["mon1"]).value()
        XCTAssertTrue(mon1.contains("1") && mon1.contains("13"), "\(mon1)")
        let got3 = try await s.desktopResults(["mon1", "mon13"]).value()
        XCTAssertEqual(got3, ["13"], "every term must match")
        let got4 = try await s.desktopResults(["No.", "25"]).value()
        XCTAssertEqual(got4, ["25"], "a number split into terms")
        // Whatever GNOME Shell says it found before (empty when that search was still pending,
        // stale after a backspace, capped at 20), a subsearch answers what a search does.
        for previous in [mon1, [], ["25"], ["2"], Array(repeating: "1", count: 64)] {
            let sub = try await s.desktopSubsearch(previous, ["mon13"]).value()
            XCTAssertEqual(sub, ["13"], "previous \(previous.prefix(3))")
            let number = try await s.desktopSubsearch(previous, ["#25"]).value()
            XCTAssertEqual(number, ["25"], "previous \(previous.prefix(3))")
        }
        // Once the index is built, a result set is answered from memory (within a keystroke).
        XCTAssertNotNil(s.desktopResults(["mon2"]).ready)
        XCTAssertNotNil(s.desktopSubsearch([], ["mon2"]).ready)
    }

    /// What browse lists when the shell opened it on a search (`DesktopSearchPage`): the shell's
    /// own list, in its order and paged, whichever terms, not what the search line finds.
    func testTheDesktopsListAsPagesIsTheListTheShellShowed() async throws {
        let s = try makeService()
        for terms in [["pika"], ["mon1"], ["mon1", "mon13"], ["No.", "25"], ["mon"], ["mon", "2"], ["zzzz"]] {
            let ids = try await s.desktopResults(terms).value()
            let page = try await s.desktopSearchPage(terms, offset: 0, limit: 100).value()
            XCTAssertEqual(page.entries.map { String($0.id) }, ids, "\(terms)")
            XCTAssertEqual(Int(page.total), ids.count, "\(terms)")
            var paged: [String] = []
            for offset in stride(from: 0, to: ids.count + 3, by: 3) {
                let p = try await s.desktopSearchPage(terms, offset: UInt32(offset), limit: 3).value()
                XCTAssertEqual(Int(p.total), ids.count)
                paged += p.entries.map { String($0.id) }
            }
            XCTAssertEqual(paged, ids, "\(terms) three at a time")
        }
        let both = try await s.desktopSearchPage(["mon1", "mon13"], offset: 0, limit: 100).value()
        let typed = try await s.searchPage("mon1 mon13", offset: 0, limit: 100).value()
        XCTAssertEqual(both.entries.map(\.id), [13], "every term must match")
        XCTAssertNotEqual(typed.entries.map(\.id), [13], "the search line reads the words as one query")
        XCTAssertNotNil(try s.desktopSearchPage(["mon2"], offset: 0, limit: 20).ready, "from memory once the index is built")
        for limit: UInt32 in [0, 101] {
            XCTAssertThrowsError(try s.desktopSearchPage(["mon"], offset: 0, limit: limit)) {
                XCTAssertEqual(($0 as? PokedexError)?.kind, .invalidArgument)
            }
        }
    }

    func testATypeFilterNamesTheTypeInAnyLanguage() async throws {
        var config = ServiceConfiguration(apiURL: TablePokeAPI.base, spriteHosts: [TablePokeAPI.spriteHost],
                                          cacheDirectory: dir + "/cache", dataDirectory: dir + "/data", prefetch: false)
        config.language = "de"
        let s = PokedexService(configuration: config, client: TablePokeAPI(), store: try FileCacheStore(directory: config.cacheDirectory, capacity: 1 << 26),
                               favorites: try FavoritesBook(persistence: MemoryFavoritesPersistence()))
        _ = try await s.search("type:fire", limit: 1).value()  // the filters, and the types' names with them
        let fire = try await s.desktopResults(["type:fire"]).value()
        XCTAssertFalse(fire.isEmpty)
        for name in ["type:feuer", "type:Feuer", "type:ほのお", "TYPE:FIRE"] {
            let got = try await s.desktopResults([name]).value()
            XCTAssertEqual(got, fire, name)
        }
        let none = try await s.desktopResults(["type:nothing"]).value()
        XCTAssertEqual(none, [])
    }

    func testTheFirstMetasAreWholeOnACleanCacheAndAfterARestart() async throws {
        let s = try makeService()
        _ = try await s.listPage(offset: 0, limit: 30).value()
        XCTAssertNil(s.desktopMetas(["25"]).ready, "nothing known yet: the row is completed before the answer")
        let cold = try await s.desktopMetas(["25", "nope", "999"]).value()
        XCTAssertEqual(cold.map(\.id), [25])
        XCTAssertEqual(cold[0].name, "Pikachu")
        XCTAssertEqual(cold[0].description, "#025 · Electric / Flying", "number and types first; the genus where it fits 32 characters")
        XCTAssertTrue(FileManager.default.fileExists(atPath: cold[0].spritePath))
        let warm = try XCTUnwrap(s.desktopMetas(["25"]).ready?.first, "whole in memory: answered inline")
        XCTAssertEqual(warm, cold[0])
        let match = try await s.krunnerMatch("pika").value()
        XCTAssertEqual(match.first?.result.id, 25)
        XCTAssertNotNil(match.first?.icon, "the sprite's pixels for KRunner")
        let got7 = try await s.krunnerMatch("p").value()
        XCTAssertEqual(got7.count, 0, "fewer letters than KRunner's minimum")
        s.finishWrites()
        // Restarted with everything on disk: the first answer is whole, from the disk alone.
        let offline = FakeHTTPClient()
        let restarted = try makeService(client: offline)
        _ = try await restarted.listPage(offset: 0, limit: 30).value()
        let first = try await restarted.desktopMetas(["25"]).value()
        XCTAssertEqual(first, cold)
        let firstMatch = try await restarted.krunnerMatch("pika").value()
        XCTAssertEqual(firstMatch.first?.result.description, "#025 · Electric / Flying")
        XCTAssertNotNil(firstMatch.first?.icon)
        XCTAssertEqual(offline.requests.map(\.url), [], "nothing asked of the network")
    }

    func testActivationOpensBrowseOrShowsACardWithButtons() async throws {
        let terminal = Recorder(canOpen: true)
        let s = try makeService(terminal)
        _ = try await s.listPage(offset: 0, limit: 30).value()
        try await s.openResult("25", terms: ["pika"]).value()
        XCTAssertEqual(terminal.opened.withLock { $0 }, ["--open 25 --desktop-search -- pika"], "that row's card, the search behind it")
        XCTAssertEqual(terminal.cards.withLock { $0.count }, 0)

        let none = Recorder(canOpen: false)
        let t = try makeService(none)
        _ = try await t.listPage(offset: 0, limit: 30).value()
        try await t.openResult("25").value()
        let card = try XCTUnwrap(none.cards.withLock { $0.first })
        XCTAssertEqual(card.0.summary, "Pikachu")
        XCTAssertEqual(card.0.body, "#025 · Electric / Flying · Mouse Pokémon",
                       "the card has room for the genus that the search row's 32 characters cut")
        XCTAssertEqual(card.1, ["favorite", "open"])
        card.2("favorite")
        await settle(t)
        XCTAssertEqual(t.favoriteIDs, [25], "the card's button kept the favorite")
        try await t.runDesktopAction("25", "unfavorite").value()
        XCTAssertEqual(t.favoriteIDs, [])

        // A start that went ahead and failed later (no user manager took the unit, under Landlock): the card.
        let failing = Recorder(canOpen: true, failsLater: true)
        let u = try makeService(failing)
        _ = try await u.listPage(offset: 0, limit: 30).value()
        try await u.openResult("25").value()
        XCTAssertEqual(failing.opened.withLock { $0 }, ["--open 25"])
        XCTAssertEqual(failing.cards.withLock { $0.map(\.0.summary) }, ["Pikachu"])
        // It says why nothing opened and where to read more, and offers no Open that would fail the same way.
        XCTAssertEqual(failing.cards.withLock { $0.first?.0.body.split(separator: "\n").last },
                       "No terminal could be opened; pokedexd's log says why (journalctl --user -t pokedexd).")
        XCTAssertEqual(failing.cards.withLock { $0.first?.1 }, ["favorite"])
        // Should that card not show either, its warning says the terminal failed, not that none was found.
        let unshown = try XCTUnwrap(failing.cards.withLock { $0.first?.0.unshown })
        XCTAssertEqual(unshown.message(card: "no notification server answered"),
                       "nothing could open Pikachu: its terminal could not be started (see above), and no notification server answered")
        XCTAssertEqual(none.cards.withLock { $0.first?.0.unshown?.message(card: "notifications are off (--notify=no)") },
                       "nothing could open Pikachu: no terminal or gtk-launch was found, and notifications are off (--notify=no); "
                       + "install a terminal (gnome-terminal, konsole, xterm, …) or set TERMINAL")
    }
}

/// Reads the PNGs `makePNG` writes (stored, unfiltered), for the icon tests.
struct PNGTestDecoder: ImageDecoder {
    func decode(_ bytes: [UInt8]) -> RGBAImage? {
        PNGCheck.isValid(bytes) ? RGBAImage(width: 1, height: 1, pixels: [1, 2, 3, 255]) : nil
    }
}
