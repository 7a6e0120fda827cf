import Foundation
import PokedexBusClient
import PokedexModels
import PokedexProtocol
import XCTest

/// What the desktop's shells show of a row, the first time they ask for it: GNOME Shell asks
/// for a row's metas once and KRunner draws what its first `Match` gives, so a row is whole
/// from the first answer (name, types, genus, sprite) after a restart and on a clean cache.
final class DesktopRowsTests: DaemonTestCase {
    override var daemonArguments: [String]? { ["--no-prefetch"] }

    static let ids = ["25", "6", "1", "4", "10033"]

    func metas(_ c: PokedexClient, _ ids: [String]) throws -> [DesktopResult] {
        let values = try c.call(destination: Pokedex1.busName, path: SearchProvider2.objectPath, interface: SearchProvider2.interfaceName,
                                "GetResultMetas") { w throws(BusError) in try w.append(strings: ids) }
        return try SearchProvider2.getResultMetas.decodeReply(values)
    }

    func match(_ c: PokedexClient, _ query: String) throws -> [KRunnerMatch] {
        let values = try c.call(destination: Pokedex1.busName, path: KRunner1.objectPath, interface: KRunner1.interfaceName,
                                "Match") { w throws(BusError) in try w.append(query) }
        return try KRunner1.match.decodeReply(values)
    }

    /// Whole: the number, its types (two for Charizard and Bulbasaur), and a sprite on disk.
    func assertWhole(_ rows: [DesktopResult], _ when: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(rows.map { String($0.id) }, Self.ids, when, file: file, line: line)
        for r in rows {
            XCTAssertTrue(r.description.contains(" · "), "\(when): #\(r.id) has no types: \(r.description)", file: file, line: line)
            XCTAssertFalse(r.spritePath.isEmpty, "\(when): #\(r.id) has no sprite", file: file, line: line)
            XCTAssertTrue(FileManager.default.fileExists(atPath: r.spritePath), "\(when): #\(r.id): \(r.spritePath)", file: file, line: line)
        }
        XCTAssertEqual(rows.first?.description, "#025 · Electric · Mouse Pokémon", when, file: file, line: line)
        XCTAssertEqual(rows.dropFirst().first?.description, "#006 · Fire / Flying", when, file: file, line: line)
    }

    func testTheFirstRowsAreWholeOnACleanCacheAndAfterARestartWithTheAPIGone() throws {
        let c = try PokedexClient()
        // A clean cache: the one ask GNOME makes is answered whole.
        assertWhole(try metas(c, Self.ids), "a clean cache")
        let first = try match(c, "char")
        XCTAssertEqual(first.map(\.result.id).prefix(3), [4, 5, 6])
        XCTAssertTrue(first.allSatisfy { $0.result.description.contains(" · ") }, "\(first.map(\.result.description))")
        // Restarted, as the idle exit does, with the API gone: everything from the disk.
        XCTAssertEqual(h.stopDaemon(), 0)
        try h.control(["offline": true])
        try h.resetStats()
        try h.startDaemon(["--no-prefetch"])
        let c2 = try PokedexClient()
        let started = now()
        assertWhole(try metas(c2, Self.ids), "the first ask after a restart")
        let elapsed = now() - started
        let matches = try match(c2, "char")
        XCTAssertEqual(matches.map(\.result.id).prefix(3), [4, 5, 6])
        for m in matches.prefix(3) {
            XCTAssertTrue(m.result.description.contains(" · "), "KRunner's row #\(m.result.id) after a restart: \(m.result.description)")
        }
        XCTAssertEqual(try h.stats()["requests"] as? Int, 0, "nothing asked of the API")
        print("first GetResultMetas of \(Self.ids.count) rows after a restart: \(Int(elapsed * 1000)) ms (bench/search-providers measures it)")
    }

    func testAFormWithNoSpriteOfItsOwnShowsItsSpecies() throws {
        try h.control(["no_sprite": [10033]])
        let c = try PokedexClient()
        let rows = try metas(c, ["10033", "3"])
        XCTAssertEqual(rows.map(\.id), [10033, 3])
        XCTAssertEqual(rows.first?.spritePath, rows.last?.spritePath, "Mega Venusaur shows Venusaur's sprite")
        XCTAssertTrue(rows.first?.spritePath.hasSuffix("/sprites/3.png") == true, rows.first?.spritePath ?? "")
    }
}
