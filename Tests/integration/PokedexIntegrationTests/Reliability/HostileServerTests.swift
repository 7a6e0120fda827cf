import Foundation
import PokedexBusClient
import PokedexCore
import XCTest

/// The mock in hostile mode (Tests/support/mockapi/mock_pokeapi.py, "Hostile mode"): escapes and markup in
/// every text field, names that are not names, `max-age` of inf, nan and -1, bodies that are too
/// big, never end or inflate to 1 GiB, a PNG that claims 100000×100000 and a GIF that lies.
/// Every method and every pokectl command, human and `--json`, runs against it.
final class HostileServerTests: DaemonTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try h.control(["hostile": true])
    }

    /// Ids the mock attacks with: oversized, endless, gzip bomb, huge PNG, lying GIF.
    static let attacks: [UInt32] = [21, 22, 23, 24, 26]

    /// The controls in `text` a terminal would act on, other than line breaks and, when
    /// `sgr`, pokectl's own colour sequences (`ESC [ digits ; … m`).
    static func foreignControls(_ text: String, sgr: Bool = false) -> [String] {
        var found: [String] = []
        var it = text.unicodeScalars.makeIterator()
        while let u = it.next() {
            guard u != "\n", UntrustedText.isControl(u) else { continue }
            if sgr, u == "\u{1B}", it.next() == "[" {
                var ok = true
                while let c = it.next(), c != "m" { if !("0"..."9").contains(c) && c != ";" { ok = false; break } }
                if ok { continue }
            }
            found.append(String(format: "U+%04X", u.value))
        }
        return found
    }

    func testEveryMethodSurvivesAndAnswersTheExactText() throws {
        try h.startDaemon(["--timeout", "3"])
        let c = try PokedexClient(timeout: 20)
        let pid = h.daemon!.processIdentifier
        let page = try c.listPage(offset: 0, limit: 20)
        XCTAssertEqual(page.entries.count, 20)
        // The hostile names at the end of the list were dropped at decode time, never stored.
        let last = try c.listPage(offset: page.total - 5, limit: 5)
        XCTAssertFalse(last.entries.contains { $0.id >= 99000 }, "\(last.entries.map(\.name))")
        XCTAssertTrue(last.entries.allSatisfy { APIName.isValid($0.name) })
        let pikachu = try c.detail("pikachu")
        XCTAssertTrue(pikachu.genus.contains("Mouse Pokémon"), "the real text survives: \(pikachu.genus.debugDescription)")
        XCTAssertTrue(pikachu.genus.contains("\u{1B}]52;"), "the bus carries the API's text exactly; its clients sanitise")
        for id in 1...30 where !Self.attacks.contains(UInt32(id)) { _ = try c.detail(String(id)) }
        for id in Self.attacks {
            // Each attack gets a clear error or a detail without its broken part, never a crash.
            do { _ = try c.detail(String(id)) } catch { XCTAssertTrue(error.name.hasPrefix(errorPrefix), "\(id): \(error)") }
            do { _ = try c.spritePath(String(id)) } catch { XCTAssertTrue(error.name.hasPrefix(errorPrefix), "\(id): \(error)") }
        }
        _ = try c.search("pika", limit: 5)
        _ = try c.searchDetailed("ピカチュウ", limit: 5)
        _ = try c.searchDetailed("type:electric", limit: 5)
        XCTAssertTrue(try c.toggleFavorite("pikachu"))
        try c.setFavorite("bulbasaur", true)
        _ = try c.changeFavorite("raichu", .add)
        XCTAssertEqual(try c.listFavorites().count, 3)
        _ = try c.status()
        _ = try c.call(Pokedex1.cacheStats)
        _ = try c.call(Pokedex1.verifyCache)
        for p in [Pokedex1.favorites.name, Pokedex1.online.name, Pokedex1.syncProgress.name, Pokedex1.searchCoverage.name] {
            _ = try c.call(destination: Pokedex1.busName, path: Pokedex1.objectPath, interface: FreedesktopBus.properties, "Get") { w throws(BusError) in
                try w.append(Pokedex1.interfaceName)
                try w.append(p)
            }
        }
        XCTAssertEqual(h.daemon?.processIdentifier, pid)
        XCTAssertTrue(h.daemonIsRunning, "0 crashes")
        let rss = h.daemonResources().rssKiB
        if !underSanitizer {  // ASan's quarantine holds freed memory on purpose
            XCTAssertLessThan(rss, 128 << 10, "bounded memory after a 1 GiB gzip bomb and a 100000×100000 PNG: \(rss) KiB")
        }
        print("hostile methods run: RSS \(rss) KiB after it; attacks served: \(try h.stats()["hostile"] ?? "none")")

        // 0 refetch loops: max-age of inf, nan, -1 and 10^20 are all "the default".
        // (A first round lets pre-warming of the next pages finish; the second must fetch nothing.)
        for round in 0..<2 {
            if round == 1 { Thread.sleep(forTimeInterval: 1); try h.resetStats() }
            for _ in 0..<5 { _ = try c.detail("pikachu"); _ = try c.detail("raichu"); _ = try c.listPage(offset: 0, limit: 20) }
            for id in 1...20 { _ = try c.detail(String(id)) }
        }
        let again = try h.stats()
        XCTAssertEqual(again["requests"] as? Int, 0, "answered from the cache, not fetched again: \(again["by_kind"] ?? "")")
        try h.resetStats()
        // The PNG that claims 100000×100000 and the GIF whose frames lie are not sprites: refused,
        // never stored, and not fetched again on every call.
        let m = assertBusError(errorPrefix + "Unavailable") { () throws(BusError) in _ = try c.spritePath("24") }
        XCTAssertTrue(m.contains("100000×100000, larger than the 512×512 any sprite is"), m)
        try h.resetStats()
        for _ in 0..<5 {
            _ = try c.listPage(offset: 20, limit: 20)  // its page: pre-warming looks at #24's sprite each time
            _ = try c.detail("24")  // and a Detail's sprite is optional
        }
        XCTAssertEqual(try h.requests("sprite"), 0, "a refused sprite is not fetched again by work nobody asked for")
        XCTAssertEqual(try c.detail("raichu").animatedSpritePath, "", "the lying GIF is not offered")
        let sprites = (try? FileManager.default.contentsOfDirectory(atPath: h.home + "/cache/pokedex/v2/sprites")) ?? []
        XCTAssertFalse(sprites.contains { $0.hasPrefix("24.") || $0.hasPrefix("26-animated") }, "\(sprites.sorted())")

        // The journal: one line per message, no control a terminal or the journal acts on.
        let log = h.daemonLog
        XCTAssertEqual(Self.foreignControls(log), [], "the log holds controls")
        XCTAssertFalse(log.split(separator: "\n").contains { $0.hasPrefix("<0>") }, "no forged emergency entry")
        XCTAssertTrue(log.contains("not a PokeAPI name"), "the dropped names were said")
        _ = try c.call(Pokedex1.clearCache)
    }

    func testEveryPokectlCommandPrintsNoForeignControls() throws {
        // A body that never ends (#22) is ended by the deadline: 1 s, as each command that meets
        // it, and each of a sync's rounds, waits it out.
        try h.startDaemon(["--timeout", "1"])
        let runs: [[String]] = [
            ["list"], ["list", "--page", "2"], ["show", "pikachu"], ["show", "--no-image", "raichu"], ["show", "1"],
            ["show", "21"], ["show", "22"], ["show", "23"], ["show", "24"], ["show", "26"],
            ["search", "pika"], ["search", "ピカチュウ"], ["search", "type:electric"], ["search", "\u{1B}[2Jx"],
            ["fav", "pikachu"], ["fav", "raichu"], ["unfav", "raichu"], ["favs"], ["sprite", "pikachu"], ["sprite", "24"],
            ["status"], ["cache", "stats"], ["cache", "verify"], ["sync"], ["cache", "clear"],
        ]
        var printed = 0
        for args in runs {
            for json in [false, true] {
                for color in json ? ["never"] : ["never", "always"] {
                    let r = try h.pokectl(args + (json ? ["--json"] : []) + ["--color", color])
                    let text = r.out + r.err
                    printed += text.utf8.count
                    XCTAssertEqual(Self.foreignControls(text, sgr: color == "always"), [],
                                   "pokectl \(args.joined(separator: " ")) \(json ? "--json" : "") --color \(color): \(text.debugDescription.prefix(600))")
                    if json, r.status == 0 {
                        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(r.out.utf8)), "valid JSON: \(args)")
                    }
                    XCTAssertLessThan(r.status, 64, "an exit, not a crash: \(args) \(r.status) \(r.err)")
                }
            }
        }
        // The real text is kept around what was dropped.
        let show = try h.pokectl(["show", "--no-image", "pikachu"])
        XCTAssertTrue(show.out.contains("Mouse Pokémon"), show.out)
        XCTAssertTrue(show.out.contains("]52;c;aGFja2Vk"), "printable remains of the escape are shown, not acted on")
        // JSON keeps the exact text, escaped.
        let json = try h.pokectl(["show", "pikachu", "--json"])
        let genus = (try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])?["genus"] as? String ?? ""
        XCTAssertTrue(genus.contains("\u{1B}]52;c;aGFja2Vk\u{07}") && genus.contains("\u{9B}"), genus.debugDescription)
        XCTAssertTrue(h.daemonIsRunning, "0 crashes")
        print("hostile pokectl run: \(runs.count) commands × human/--json × colour, \(printed) bytes printed, 0 foreign controls")
    }
}
