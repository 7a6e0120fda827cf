import Foundation
import PokedexBusClient
@testable import PokedexCore
import PokedexTestKit
import XCTest

/// `pokectl cache stats|verify|clear`, the pokectl built next to pokedexd, against the real
/// daemon on a private bus: damage on disk is reported and fetched again through the mock,
/// the numbers are what is on disk, and a clear keeps favorites.
final class CacheCommandTests: DaemonTestCase {
    var v2: String { h.home + "/cache/pokedex/v2/" }

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

    /// Every record (`records/KEY`) and file on disk, as `cacheFilesOnDisk` reads them → size.
    func filesOnDisk() -> [String: Int] { cacheFilesOnDisk(v2) }

    /// The bytes of the files under records/ and sprites/.
    func bytesOfFiles() -> Int {
        ["records/", "sprites/"].reduce(0) { sum, sub in
            sum + ((try? FileManager.default.contentsOfDirectory(atPath: v2 + sub)) ?? []).reduce(0) { $0 + (FileIO.fileInfo(v2 + sub + $1)?.size ?? 0) }
        }
    }

    /// Waits until the list and these Pokémon's records are on disk (written after the answer).
    func waitForRecords(_ ids: ClosedRange<Int>) throws {
        let keys = ["index/pokemon"] + ids.flatMap { ["pokemon/\($0)", "species/\($0)"] }
        _ = try waitFor("records on disk", seconds: 10) { keys.allSatisfy { cacheHasRecord($0, in: v2) } ? true : nil }
    }

    /// The families of those Pokémon (their chains' ids), written after their callers were answered.
    func waitForFamilies(_ chains: [Int]) throws {
        _ = try waitFor("families on disk", seconds: 10) { chains.allSatisfy { cacheHasRecord("evolution/\($0)", in: v2) } ? true : nil }
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
        // Orphans: a sprite whose metadata record is gone (removed while the daemon is stopped,
        // as only a store removes a record from a pack), a temporary file a killed writer left.
        h.stopDaemon()
        try FileCacheStore(directory: h.home + "/cache/pokedex", capacity: 256 << 20).removeRecord("sprite/6")
        try h.startDaemon(["--no-prefetch", "--notify=no"])
        try CacheRecordDamage.flippedPayload.apply(to: "pokemon/2", in: v2)
        try CacheRecordDamage.erased.apply(to: "species/5", in: v2)
        try truncate(v2 + "sprites/3.png")
        try truncate(v2 + "sprites/4-animated.gif")
        try Data("half".utf8).write(to: URL(fileURLWithPath: v2 + "records/.pokemon_9.rec.tmp.4000000.1"))
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
        XCTAssertTrue(PNGCheck.isValid(try XCTUnwrap(FileIO.readFile(v2 + "sprites/3.png"))))
        XCTAssertTrue(GIFCheck.isValid(try XCTUnwrap(FileIO.readFile(v2 + "sprites/4-animated.gif"))))
        XCTAssertNil(FileIO.fileInfo(v2 + "sprites/6.png"), "an orphan is removed, not fetched")
        XCTAssertNil(FileIO.fileInfo(v2 + "records/.pokemon_9.rec.tmp.4000000.1"))
        XCTAssertEqual(try c.detail("2").name, "ivysaur")
        XCTAssertEqual(try c.detail("3").spritePath, v2 + "sprites/3.png")

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
        try CacheRecordDamage.flippedPayload.apply(to: "pokemon/2", in: v2)
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
        _ = try waitFor("the filters on disk", seconds: 10) { cacheHasRecord("meta/search-filters", in: v2) ? true : nil }

        let s = try json("cache", "stats")
        let disk = filesOnDisk()
        func bytes(_ match: (String) -> Bool) -> Int { disk.filter { match($0.key) }.values.reduce(0, +) }
        func count(_ match: (String) -> Bool) -> Int { disk.keys.filter(match).count }
        let kinds = try XCTUnwrap(s["kinds"] as? [String: [String: Any]])
        XCTAssertEqual(Set(kinds.keys), ["list", "pokemon", "species", "filters", "names", "evolution_chains", "moves", "sprites",
                                         "animated_sprites", "shiny_sprites", "cries", "other"])
        let expected: [String: (count: Int, bytes: Int)] = [
            "list": (1, bytes { $0 == "records/index/pokemon" }),
            "pokemon": (4, bytes { $0.hasPrefix("records/pokemon/") }),
            "species": (4, bytes { $0.hasPrefix("records/species/") }),
            "filters": (1, bytes { $0 == "records/meta/search-filters" }),
            // Each type's names, kept from the filters' bodies.
            "names": (count { $0.hasPrefix("records/names-type/") }, bytes { $0.hasPrefix("records/names-") }),
            "sprites": (count { $0.hasSuffix(".png") }, bytes { $0.hasSuffix(".png") || $0.hasPrefix("records/sprite/") }),
            // Bulbasaur's and Charmander's.
            "evolution_chains": (2, bytes { $0.hasPrefix("records/evolution/") }),
            "animated_sprites": (4, bytes { $0.hasSuffix("-animated.gif") || $0.hasPrefix("records/sprite-animated/") }),
            "cries": (0, 0),
            // A card asks for none: `Moves` does.
            "moves": (0, 0),
            "other": (0, 0),
        ]
        XCTAssertGreaterThan(count { $0.hasPrefix("records/names-type/") }, 0, "the types' names are on disk")
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
        XCTAssertEqual(status.diskBytes, bytesOfFiles(), "the bytes of its files, replaced entries in its packs too")

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
        let fileBytes = bytesOfFiles()
        let favoritesPath = h.home + "/data/pokedex/favorites.json"
        let favorites = try Data(contentsOf: URL(fileURLWithPath: favoritesPath))

        let r = try json("cache", "clear")
        XCTAssertEqual(r["files"] as? Int, disk.count)
        XCTAssertEqual(r["bytes"] as? Int, fileBytes, "every byte of its files")
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
        try FileManager.default.removeItem(atPath: v2 + "records")
        try Data("x".utf8).write(to: URL(fileURLWithPath: v2 + "records"))
        for command in ["stats", "verify", "clear"] {
            let r = try pokectl("cache", command)
            XCTAssertEqual(r.status, 4, "\(command): \(r.err)")
            XCTAssertTrue(r.err.contains("records"), r.err)
        }
    }
}
