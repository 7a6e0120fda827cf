import Foundation
import XCTest
import PokedexTestKit
import PokedexBusClient
@testable import PokedexCore

/// Every method and property over a real bus, against the project's mock PokeAPI.
final class BusAPITests: DaemonTestCase {
    override var daemonArguments: [String]? { [] }

    func testListPage() throws {
        let c = try PokedexClient()
        let page = try c.listPage(offset: 0, limit: 20)
        XCTAssertEqual(page.total, 46)
        XCTAssertEqual(page.entries.first?.name, "bulbasaur")
        XCTAssertEqual(page.entries.last?.name, "raticate")
        XCTAssertEqual(page.entries.map(\.id), Array(1...20))
        let tail = try c.listPage(offset: 40, limit: 100)
        XCTAssertEqual(tail.entries.map(\.name), ["zubat", "golbat", "oddish", "gloom", "deoxys-attack", "venusaur-mega"])
        XCTAssertEqual(try c.listPage(offset: 46, limit: 5).entries, [])
        XCTAssertEqual(try c.listPage(offset: .max, limit: 5).entries, [])
        for bad: UInt32 in [0, 101, .max] {
            let msg = assertBusError(errorPrefix + "InvalidArgument") { () throws(BusError) in _ = try c.listPage(offset: 0, limit: bad) }
            XCTAssertTrue(msg.contains("between 1 and 100"), msg)
        }
    }

    func testDetail() throws {
        let c = try PokedexClient()
        let d = try c.detail("  Pikachu ")
        XCTAssertEqual(d.id, 25)
        XCTAssertEqual(d.name, "pikachu")
        XCTAssertEqual(d.types, ["electric"])
        XCTAssertEqual(d.abilities, ["static", "lightning-rod"])
        XCTAssertEqual(d.stats.map(\.name), ["hp", "attack", "defense", "special-attack", "special-defense", "speed"])
        XCTAssertEqual(d.stats.first?.value, 35)
        XCTAssertEqual(d.genus, "Mouse Pokémon")
        XCTAssertEqual(d.flavorText, "It naps in the sun and wakes up to chase the wind.")
        XCTAssertEqual(d.height, 9)
        XCTAssertEqual(d.weight, 85)
        XCTAssertTrue(d.spritePath.hasPrefix(h.home + "/cache/pokedex/v2/sprites/"), d.spritePath)
        XCTAssertTrue(PNGCheck.isValid(try XCTUnwrap(FileIO.readFile(d.spritePath))))
        // Every key of the contract, with its D-Bus type.
        let raw = try XCTUnwrap(c.values(Pokedex1.detail, "6").first?.stringDict)
        for key in ["id", "name", "height", "weight", "types", "abilities", "stats", "sprite_path", "favorite", "genus", "flavor_text",
                    "color", "animated_sprite_path"] {
            XCTAssertNotNil(raw[key], key)
        }
        // The mock's sprite for #25 is one colour, (25·37, 25·91, 25·53) mod 256.
        XCTAssertEqual(d.color, "#9de32d")
        XCTAssertEqual(try c.detail("6").color, "#de223e")
        XCTAssertTrue(d.animatedSpritePath.hasSuffix("/sprites/25-animated.gif"), d.animatedSpritePath)
        XCTAssertTrue(GIFCheck.isValid(try XCTUnwrap(FileIO.readFile(d.animatedSpritePath))))
        XCTAssertEqual(try c.detail("6").types, ["fire", "flying"], "slot order")
        let form = try c.detail("deoxys-attack")
        XCTAssertEqual(form.id, 10001)
        XCTAssertEqual(form.genus, "Test Pokémon 386", "a form's species comes from its species URL")
        XCTAssertEqual(form.animatedSpritePath, "", "the API names no animated sprite for this form")
        // Warm, from memory: the same answer.
        XCTAssertEqual(try c.detail("pikachu"), d)
    }

    func testBadNamesGiveClearErrors() throws {
        let c = try PokedexClient()
        let msg = assertBusError(errorPrefix + "NotFound") { () throws(BusError) in _ = try c.detail("pikachuu") }
        XCTAssertEqual(msg, #"no Pokémon named "pikachuu"; did you mean "Pikachu"?"#)
        assertBusError(errorPrefix + "NotFound") { () throws(BusError) in _ = try c.detail("99999") }
        assertBusError(errorPrefix + "NotFound") { () throws(BusError) in _ = try c.detail("../../etc/passwd") }
        assertBusError(errorPrefix + "InvalidArgument") { () throws(BusError) in _ = try c.detail("   ") }
        assertBusError(errorPrefix + "NotFound") { () throws(BusError) in _ = try c.toggleFavorite("missingno") }
        assertBusError(errorPrefix + "NotFound") { () throws(BusError) in try c.setFavorite("missingno", true) }
        assertBusError(errorPrefix + "NotFound") { () throws(BusError) in _ = try c.spritePath("missingno") }
        assertBusError(errorPrefix + "InvalidArgument") { () throws(BusError) in _ = try c.search("", limit: 5) }
        assertBusError(errorPrefix + "InvalidArgument") { () throws(BusError) in _ = try c.search("pika", limit: 0) }
        // Over the 256-byte cap: refused as it is read, with a short message.
        let long = assertBusError(errorPrefix + "InvalidArgument") { () throws(BusError) in
            _ = try c.detail(String(repeating: "a", count: 1 << 20))
        }
        XCTAssertLessThan(long.count, 100)
        let control = assertBusError(errorPrefix + "NotFound") { () throws(BusError) in _ = try c.detail("pika\u{1}chu\n") }
        XCTAssertTrue(control.contains("\\u{1}"), control)
        // The bus itself rejects wrong signatures and unknown members.
        assertBusError("org.freedesktop.DBus.Error.InvalidArgs") { () throws(BusError) in
            _ = try c.call("ListPage") { w throws(BusError) in try w.append("0") }
        }
        assertBusError("org.freedesktop.DBus.Error.UnknownMethod") { () throws(BusError) in _ = try c.call("Nope") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.home + "/cache/pokedex/v2/records/..%2F"), "no file from a name")
    }

    func testSearch() throws {
        let c = try PokedexClient()
        XCTAssertEqual(Array(try c.search("pidgeot", limit: 5).map(\.name).prefix(2)), ["pidgeot", "pidgeotto"], "exact first, then prefix")
        XCTAssertEqual(try c.search("25", limit: 1).first?.name, "pikachu")
        XCTAssertEqual(try c.search("ORAN", limit: 5).map(\.name), ["nidoran-f", "nidoran-m"], "substring, any case")
        XCTAssertEqual(try c.search("saur", limit: 2).count, 2)
    }

    func testFavoritesSignalsAndProperty() throws {
        let c = try PokedexClient()
        let watcher = try PokedexSignalWatcher()
        XCTAssertTrue(try c.toggleFavorite("pikachu"))
        try c.setFavorite("Bulbasaur", true)
        try c.setFavorite("bulbasaur", true)  // idempotent: no signal
        XCTAssertEqual(try c.listFavorites().map(\.name), ["pikachu", "bulbasaur"])
        XCTAssertTrue(try c.listFavorites().allSatisfy(\.favorite))
        XCTAssertEqual(try c.property("Favorites").array?.compactMap(\.uint), [25, 1])
        XCTAssertTrue(try c.detail("pikachu").favorite)
        XCTAssertEqual(try c.listPage(offset: 24, limit: 1).entries.first?.favorite, true)
        XCTAssertFalse(try c.toggleFavorite("pikachu"))
        XCTAssertEqual(try c.property("Favorites").array?.compactMap(\.uint), [1])

        var changes: [BusSignal] = []
        var properties: [BusSignal] = []
        while let s = try watcher.next(timeout: 2) {
            if s.member == "FavoriteChanged" { changes.append(s) }
            if s.member == "PropertiesChanged" { properties.append(s) }
            if changes.count == 3 && properties.count == 3 { break }
        }
        XCTAssertEqual(changes.map(\.values), [
            [.uint(25), .string("pikachu"), .bool(true)],
            [.uint(1), .string("bulbasaur"), .bool(true)],
            [.uint(25), .string("pikachu"), .bool(false)],
        ])
        XCTAssertEqual(properties.count, 3)
        XCTAssertEqual(properties.first?.values.first?.string, Pokedex1.interfaceName)
        XCTAssertNil(try watcher.next(timeout: 0.3), "the idempotent SetFavorite sent nothing")
    }

    func testSpritePathStatusAndProperties() throws {
        let c = try PokedexClient()
        let path = try c.spritePath("charmander")
        XCTAssertEqual(path, h.home + "/cache/pokedex/v2/sprites/4.png")
        XCTAssertTrue(PNGCheck.isValid(try XCTUnwrap(FileIO.readFile(path))))
        XCTAssertEqual(try c.listPage(offset: 3, limit: 1).entries.first?.spritePath, path)
        let s = try c.status()
        XCTAssertEqual(s.version, ServiceConfiguration.version)
        XCTAssertEqual(s.apiURL, h.mockURL + "/api/v2")
        XCTAssertTrue(s.online)
        XCTAssertGreaterThan(s.diskBytes, 0)
        XCTAssertEqual(s.memoryCapBytes, 32 << 20)
        // The sandbox it put itself in is reported, whatever the kernel: Landlock's rights, or why not.
        XCTAssertFalse(s.sandbox.namespaces, "no service manager gave it namespaces here")
        if s.sandbox.landlockABI > 0 {
            XCTAssertEqual(Array(s.sandbox.restricted.prefix(1)), ["files"], s.sandbox.summary)
            XCTAssertTrue(s.sandbox.summary.hasPrefix("landlock ABI \(s.sandbox.landlockABI) (files"), s.sandbox.summary)
        } else {
            XCTAssertFalse(s.sandbox.missing.isEmpty, "says why Landlock is not in effect")
        }
        let raw = try XCTUnwrap(c.values(Pokedex1.status, ()).first?.stringDict)
        for key in ["sandbox", "landlock_abi", "landlock", "landlock_missing", "namespaces"] { XCTAssertNotNil(raw[key], key) }
        XCTAssertEqual(try c.property("Version").string, ServiceConfiguration.version)
        XCTAssertEqual(try c.property("ApiUrl").string, h.mockURL + "/api/v2")
    }

    func testHTTPDiscipline() throws {
        let c = try PokedexClient()
        _ = try c.listPage(offset: 0, limit: 20)
        for name in ["pikachu", "raichu", "bulbasaur", "ivysaur"] { _ = try c.detail(name) }
        let stats = try h.stats()
        XCTAssertEqual((stats["user_agents"] as? [String])?.allSatisfy { $0.hasPrefix("pokedexd/") }, true, "\(stats)")
        XCTAssertGreaterThan(stats["gzip"] as? Int ?? 0, 0, "asks for compressed bodies")
        let requests = stats["requests"] as? Int ?? 0
        let connections = stats["connections"] as? Int ?? 0
        XCTAssertLessThan(connections, requests, "connections are reused: \(connections) for \(requests) requests")
        XCTAssertEqual(try h.requests("pokemon-list"), 1, "one list request serves every page")
    }

    func testSpriteOutsideTheAllowlistIsRefused() throws {
        // Without pre-warming, whose guess from the configured template would fetch #44's
        // sprite from an allowed host before the body names the other one.
        h.stopDaemon()
        try? FileManager.default.removeItem(atPath: h.home + "/cache")
        try h.startDaemon(["--no-prefetch"])
        try h.control(["evil_sprite": true])
        let c = try PokedexClient()
        let d = try c.detail("gloom")
        XCTAssertEqual(d.id, 44)
        XCTAssertEqual(d.spritePath, "")
        let msg = assertBusError(errorPrefix + "Unavailable") { () throws(BusError) in _ = try c.spritePath("gloom") }
        XCTAssertTrue(msg.contains("evil.invalid"), msg)
    }

    func testIntrospectionMatchesInterfaceFile() throws {
        let live = try PokedexClient().introspect()
        let file = try String(contentsOfFile: Harness.packageRoot + "/dbus/io.github.pokedexd.Pokedex1.xml", encoding: .utf8)
        XCTAssertEqual(InterfaceShape(xml: file, interface: Pokedex1.interfaceName),
                       InterfaceShape(xml: live, interface: Pokedex1.interfaceName))
        XCTAssertGreaterThan(InterfaceShape(xml: file, interface: Pokedex1.interfaceName).members.count, 10)
        XCTAssertEqual(InterfaceShape(xml: live, interface: Pokedex1.interfaceName).members, Pokedex1.interface.introspectionLines,
                       "the live object is the contract")
    }
}

final class SearchBusTests: DaemonTestCase {
    override var daemonArguments: [String]? { ["--no-prefetch"] }

    func testSearchDetailedSaysWhyAndFilters() throws {
        let c = try PokedexClient()
        _ = try c.detail("charizard")  // its species record carries the German name
        let typo = try c.searchDetailed("charzard", limit: 3)
        XCTAssertEqual(typo.first?.entry.name, "charizard")
        XCTAssertEqual(typo.first?.match, "fuzzy")
        XCTAssertEqual(typo.first?.distance, 1)
        let german = try c.searchDetailed("glurak", limit: 3).first
        XCTAssertEqual(german?.entry.name, "charizard")
        XCTAssertEqual(german?.match, "localized")
        XCTAssertEqual(german?.matchedName, "Glurak")
        XCTAssertEqual(german?.language, "de")
        XCTAssertEqual(try c.search("type:fire type:flying", limit: 5).map(\.name), ["charizard"])
        XCTAssertEqual(try c.search("gen:3", limit: 5).map(\.name), ["deoxys-attack"], "forms join their species' generation")
        XCTAssertEqual(try c.search("gen:1 type:electric", limit: 5).map(\.name), ["pikachu", "raichu"])
        XCTAssertEqual(try c.search("mega", limit: 1).map(\.name), ["venusaur-mega"])
        XCTAssertEqual(try c.search("pikachuu", limit: 1).map(\.name), ["pikachu"], "Search's signature, the new ranking")
        assertBusError(errorPrefix + "InvalidArgument") { () throws(BusError) in _ = try c.searchDetailed(" ", limit: 3) }
        assertBusError(errorPrefix + "InvalidArgument") { () throws(BusError) in _ = try c.searchDetailed(String(repeating: "a", count: 1000), limit: 3) }
        if case .structure(let f) = try c.property("SearchCoverage") {
            XCTAssertEqual(f.count, 2)
            XCTAssertEqual(f.first?.uint, f.last?.uint, "every species' names are indexed from the start (the bundled table)")
            XCTAssertEqual(f.first?.uint, 44, "the mock lists 44 species, all of them real ones the table knows")
        } else { XCTFail("SearchCoverage") }
    }

    func testUnknownNamesSuggestTheClosest() throws {
        let c = try PokedexClient()
        let msg = assertBusError(errorPrefix + "NotFound") { () throws(BusError) in _ = try c.detail("pikachuu") }
        XCTAssertEqual(msg, #"no Pokémon named "pikachuu"; did you mean "Pikachu"?"#)
        let fav = assertBusError(errorPrefix + "NotFound") { () throws(BusError) in _ = try c.toggleFavorite("bulbsaur") }
        XCTAssertTrue(fav.hasSuffix(#"did you mean "Bulbasaur"?"#), "as the games write it: " + fav)
    }
}
