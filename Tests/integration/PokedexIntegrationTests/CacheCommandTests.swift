import Foundation
import PokedexBusClient
@testable import PokedexCore
import XCTest

/// `pokectl cache stats|verify|clear`, the pokectl built next to pokedexd, against the real
/// daemon on a private bus: damage on disk is reported and fetched again through the mock,
/// the numbers are what is on disk, and a clear keeps favorites.
final class CacheCommandTests: DaemonTestCase {
    var v1: String { h.home + "/cache/pokedex/v1/" }

    /// Runs pokectl on the test's bus; its exit status, stdout and stderr.
    @discardableResult
    func pokectl(_ args: String...) throws -> (status: Int32, out: String, err: String) { try h.pokectl(args) }

    /// `pokectl ARGS --json`, which must succeed, as an object.
    func json(_ args: String...) throws -> [String: Any] {
        let r = try h.pokectl(args + ["--json"])
        let data = Data(r.out.utf8)
        XCTAssertEqual(r.status, 0, "pokectl \(args.joined(separator: " ")) --json: \(r.err)")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any], String(decoding: data, as: UTF8.self))
    }

    /// Every file under records/ and sprites/: its path under v1 → size.
    func filesOnDisk() -> [String: Int] {
        var out: [String: Int] = [:]
        for sub in ["records", "sprites"] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: v1 + sub)) ?? [] {
                out[sub + "/" + name] = FileIO.fileInfo(v1 + sub + "/" + name)?.size
            }
        }
        return out
    }

    /// Waits until the list and these Pokémon's records are on disk (written after the answer).
    func waitForRecords(_ ids: ClosedRange<Int>) throws {
        let paths = ["records/index_pokemon.rec"] + ids.flatMap { ["records/pokemon_\($0).rec", "records/species_\($0).rec"] }
        _ = try waitFor("records on disk", seconds: 10) { paths.allSatisfy { FileIO.fileInfo(v1 + $0) != nil } ? true : nil }
    }

    /// The families of those Pokémon (their chains' ids), written after their callers were answered.
    func waitForFamilies(_ chains: [Int]) throws {
        _ = try waitFor("families on disk", seconds: 10) { chains.allSatisfy { FileIO.fileInfo(v1 + "records/evolution_\($0).rec") != nil } ? true : nil }
    }

    func flip(_ path: String) throws {
        var d = try Data(contentsOf: URL(fileURLWithPath: path))
        d[d.count - 4] ^= 0x5A
        try d.write(to: URL(fileURLWithPath: path))
    }
    func truncate(_ path: String) throws {
        let d = try Data(contentsOf: URL(fileURLWithPath: path))
        try d.prefix(d.count / 2).write(to: URL(fileURLWithPath: path))
    }

    func testVerifyReportsDamageAndFetchesItAgain() throws {
        try h.startDaemon(["--no-prefetch", "--notify=no"])
        let c = try PokedexClient()
        for id in 1...6 { _ = try c.detail(String(id)) }
        try waitForRecords(1...6)
        try waitForFamilies([1, 2])
        try flip(v1 + "records/pokemon_2.rec")
        try Data(count: 200).write(to: URL(fileURLWithPath: v1 + "records/species_5.rec"))
        try truncate(v1 + "sprites/3.png")
        try truncate(v1 + "sprites/4-animated.gif")
        // Orphans: a sprite whose metadata record is gone, a temporary file a killed writer left.
        try FileManager.default.removeItem(atPath: v1 + "records/sprite_6.rec")
        try Data("half".utf8).write(to: URL(fileURLWithPath: v1 + "records/.pokemon_9.rec.tmp.4000000.1"))
        try h.resetStats()

        let r = try json("cache", "verify")
        print("pokectl cache verify --json: \(r)")
        XCTAssertEqual(r["checked"] as? Int, 26, "15 records (list, 6 pokemon, 6 species, 2 families), 5 sprites and 6 animated ones")
        XCTAssertEqual(r["damaged"] as? Int, 4)
        XCTAssertEqual(r["repaired"] as? Int, 4)
        XCTAssertEqual(r["failed"] as? Int, 0)
        XCTAssertEqual(r["orphans"] as? Int, 2)
        XCTAssertEqual((r["failures"] as? [Any])?.count, 0)
        let fetched = try XCTUnwrap(try h.stats()["by_kind"] as? [String: Int])
        XCTAssertEqual(fetched, ["pokemon": 1, "pokemon-species": 1, "sprite": 1, "animated-sprite": 1],
                       "each damaged file fetched again, once, and nothing else")
        XCTAssertTrue(PNGCheck.isValid(try XCTUnwrap(FileIO.readFile(v1 + "sprites/3.png"))))
        XCTAssertTrue(GIFCheck.isValid(try XCTUnwrap(FileIO.readFile(v1 + "sprites/4-animated.gif"))))
        XCTAssertNil(FileIO.fileInfo(v1 + "sprites/6.png"), "an orphan is removed, not fetched")
        XCTAssertNil(FileIO.fileInfo(v1 + "records/.pokemon_9.rec.tmp.4000000.1"))
        XCTAssertEqual(try c.detail("2").name, "ivysaur")
        XCTAssertEqual(try c.detail("3").spritePath, v1 + "sprites/3.png")

        let human = try pokectl("cache", "verify")
        print("pokectl cache verify:\n\(human.out)")
        XCTAssertEqual(human.status, 0, human.err)
        XCTAssertTrue(human.out.hasPrefix("checked 26 cached items: none damaged"), human.out)
    }

    func testVerifySaysWhatCouldNotBeFetchedAgainAndExits3() throws {
        try h.startDaemon(["--no-prefetch", "--notify=no"])
        let c = try PokedexClient()
        for id in 1...2 { _ = try c.detail(String(id)) }
        try waitForRecords(1...2)
        try flip(v1 + "records/pokemon_2.rec")
        try h.control(["fail_status": 404])
        let r = try pokectl("cache", "verify")
        print("pokectl cache verify, API answering 404:\n\(r.out)")
        XCTAssertEqual(r.status, 3, "nothing to report on stderr, but something could not be fetched")
        XCTAssertTrue(r.out.contains("1 damaged, 0 fetched again, 1 failed"), r.out)
        XCTAssertTrue(r.out.contains("pokemon/2  PokeAPI answered 404 Not Found for \(h.mockURL)/api/v2/pokemon/2/"), r.out)
        XCTAssertEqual(try c.detail("2").name, "ivysaur", "the copy in memory still answers")
    }

    func testStatsAreWhatIsOnDisk() throws {
        try h.startDaemon(["--no-prefetch", "--notify=no"])
        let c = try PokedexClient()
        for id in 1...4 { _ = try c.detail(String(id)) }
        _ = try c.search("type:fire", limit: 5)
        try waitForRecords(1...4)
        try waitForFamilies([1, 2])
        _ = try waitFor("the filters on disk", seconds: 10) { FileIO.fileInfo(v1 + "records/meta_search-filters.rec") }

        let s = try json("cache", "stats")
        let disk = filesOnDisk()
        func bytes(_ match: (String) -> Bool) -> Int { disk.filter { match($0.key) }.values.reduce(0, +) }
        func count(_ match: (String) -> Bool) -> Int { disk.keys.filter(match).count }
        let kinds = try XCTUnwrap(s["kinds"] as? [String: [String: Any]])
        XCTAssertEqual(Set(kinds.keys), ["list", "pokemon", "species", "filters", "names", "evolution_chains", "moves", "sprites",
                                         "animated_sprites", "shiny_sprites", "cries", "other"])
        let expected: [String: (count: Int, bytes: Int)] = [
            "list": (1, bytes { $0 == "records/index_pokemon.rec" }),
            "pokemon": (4, bytes { $0.hasPrefix("records/pokemon_") }),
            "species": (4, bytes { $0.hasPrefix("records/species_") }),
            "filters": (1, bytes { $0 == "records/meta_search-filters.rec" }),
            // Each type's names, kept from the filters' bodies.
            "names": (count { $0.hasPrefix("records/names-type_") }, bytes { $0.hasPrefix("records/names-") }),
            "sprites": (count { $0.hasSuffix(".png") }, bytes { $0.hasSuffix(".png") || $0.hasPrefix("records/sprite_") }),
            // Bulbasaur's and Charmander's.
            "evolution_chains": (2, bytes { $0.hasPrefix("records/evolution_") }),
            "animated_sprites": (4, bytes { $0.hasSuffix("-animated.gif") || $0.hasPrefix("records/sprite-animated_") }),
            "cries": (0, 0),
            // A card asks for none: `Moves` does.
            "moves": (0, 0),
            "other": (0, 0),
        ]
        XCTAssertGreaterThan(count { $0.hasPrefix("records/names-type_") }, 0, "the types' names are on disk")
        let now = try XCTUnwrap(s["now"] as? Int)
        XCTAssertEqual(Double(now), Date().timeIntervalSince1970, accuracy: 60)
        for (name, e) in expected {
            let k = try XCTUnwrap(kinds[name], name)
            XCTAssertEqual(k["count"] as? Int, e.count, name)
            XCTAssertEqual(k["bytes"] as? Int, e.bytes, name)
            XCTAssertEqual(k["stale"] as? Int, 0, name)
            if e.count > 0 {
                let oldest = try XCTUnwrap(k["oldest_fetched_at"] as? Int, name), newest = try XCTUnwrap(k["newest_fetched_at"] as? Int, name)
                XCTAssertLessThanOrEqual(oldest, newest, name)
                XCTAssertLessThanOrEqual(newest, now, name)
                XCTAssertGreaterThan(oldest, now - 60, name)
            } else {
                XCTAssertTrue(k["oldest_fetched_at"] is NSNull, name)
            }
        }
        XCTAssertEqual(s["files"] as? Int, disk.count)
        XCTAssertEqual(s["bytes"] as? Int, disk.values.reduce(0, +))
        XCTAssertEqual(s["disk_cap_bytes"] as? Int, 256 << 20)
        XCTAssertEqual(s["cache_dir"] as? String, h.home + "/cache/pokedex")
        let status = try c.status()
        XCTAssertEqual(s["memory_entries"] as? Int, status.memoryEntries)
        XCTAssertEqual(status.diskEntries, disk.count, "the store's own accounting agrees")
        XCTAssertEqual(status.diskBytes, disk.values.reduce(0, +))

        let human = try pokectl("cache", "stats")
        print("pokectl cache stats:\n\(human.out)")
        XCTAssertEqual(human.status, 0, human.err)
        let lines = human.out.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix("KIND") == true, human.out)
        XCTAssertTrue(lines.contains { $0.hasPrefix("pokémon") && $0.contains(" 4 ") && $0.contains(" s ago") }, human.out)
        XCTAssertTrue(lines.contains { $0.hasPrefix("disk") && $0.contains("\(disk.count) files") && $0.contains("of 256 MiB") }, human.out)
        // The ages may tick between the two runs.
        func withoutAges(_ text: String) -> String {
            text.replacingOccurrences(of: #"\d+ (s|min|h|d) ago *"#, with: "", options: .regularExpression)
        }
        XCTAssertEqual(withoutAges(try pokectl("cache").out), withoutAges(human.out), "stats is the default")
    }

    func testClearKeepsFavoritesAndEverythingIsFetchedAgain() throws {
        try h.startDaemon(["--no-prefetch", "--notify=no"])
        let c = try PokedexClient()
        _ = try c.listPage(offset: 0, limit: 6)
        for id in 1...6 { _ = try c.detail(String(id)) }
        _ = try c.changeFavorite("pikachu", .add)
        _ = try c.changeFavorite("bulbasaur", .add)
        try waitForRecords(1...6)
        let disk = filesOnDisk()
        let favoritesPath = h.home + "/data/pokedex/favorites.json"
        let favorites = try Data(contentsOf: URL(fileURLWithPath: favoritesPath))

        let r = try json("cache", "clear")
        XCTAssertEqual(r["files"] as? Int, disk.count)
        XCTAssertEqual(r["bytes"] as? Int, disk.values.reduce(0, +))
        XCTAssertEqual(r["favorites_kept"] as? Int, 2)
        XCTAssertEqual(filesOnDisk(), [:])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: favoritesPath)), favorites, "favorites are not the cache's")
        let favs = try c.listFavorites()
        XCTAssertEqual(favs.map(\.name), ["pikachu", "bulbasaur"])
        XCTAssertEqual(favs.map(\.spritePath), ["", ""], "no answer names a file that went")
        XCTAssertEqual(try c.listPage(offset: 0, limit: 6).entries.map(\.spritePath), Array(repeating: "", count: 6))
        XCTAssertEqual(try c.status().memoryEntries, 1, "the memory tier holds only the list fetched again just now")

        try h.resetStats()
        let d = try c.detail("pikachu")
        XCTAssertTrue(d.favorite)
        XCTAssertTrue(PNGCheck.isValid(try XCTUnwrap(FileIO.readFile(d.spritePath))), "fetched again")
        let fetched = try XCTUnwrap(try h.stats()["by_kind"] as? [String: Int])
        XCTAssertEqual(fetched["pokemon"], 1)
        XCTAssertEqual(fetched["sprite"], 1)

        let human = try pokectl("cache", "clear")
        print("pokectl cache clear:\n\(human.out)")
        XCTAssertEqual(human.status, 0, human.err)
        XCTAssertTrue(human.out.hasPrefix("removed "), human.out)
        XCTAssertTrue(human.out.contains("favorites kept (2)"), human.out)
    }

    func testAfterClearThePageOnScreenIsPrefetchedAgain() throws {
        try h.startDaemon(["--notify=no"])
        let c = try PokedexClient()
        func paths() throws -> [String] { try c.listPage(offset: 0, limit: 10).entries.map(\.spritePath) }
        _ = try waitFor("the page prefetched", seconds: 15) { try paths().contains("") ? nil : true }
        XCTAssertEqual(try pokectl("cache", "clear").status, 0)
        XCTAssertEqual(try paths(), Array(repeating: "", count: 10), "the sprites went")
        let again = try waitFor("the page prefetched again", seconds: 15) { () -> [String]? in
            let p = try paths()
            return p.contains("") ? nil : p
        }
        XCTAssertTrue(again.allSatisfy { PNGCheck.isValid(FileIO.readFile($0) ?? []) })
    }

    func testErrorsMapToExitCodes() throws {
        let notRunning = try pokectl("cache", "stats")
        XCTAssertEqual(notRunning.status, 3, "no service on this bus")
        XCTAssertTrue(notRunning.err.contains("pokedexd is not running"), notRunning.err)
        try h.startDaemon(["--no-prefetch", "--notify=no"])
        // A cache directory that cannot be read: `records` is a file now.
        try FileManager.default.removeItem(atPath: v1 + "records")
        try Data("x".utf8).write(to: URL(fileURLWithPath: v1 + "records"))
        for command in ["stats", "verify", "clear"] {
            let r = try pokectl("cache", command)
            XCTAssertEqual(r.status, 4, "\(command): \(r.err)")
            XCTAssertTrue(r.err.contains("records"), r.err)
        }
    }
}
