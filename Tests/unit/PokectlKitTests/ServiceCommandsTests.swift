import PokedexBusClient
import XCTest
import Foundation
import PokedexModels
import PokedexPNG
import PokedexTerminal
@testable import PokectlKit

/// `status`, `sync`, `cache stats|verify|clear`, `show`, `cry` and `widget`.
final class ServiceCommandsTests: XCTestCase {
    static func status() -> ServiceStatus {
        var s = ServiceStatus(version: "0.1.0", apiURL: "https://pokeapi.co/api/v2", cacheDirectory: "/home/u/.cache/pokedex",
                              dataDirectory: "/home/u/.local/share/pokedex", memoryEntries: 12, memoryBytes: 3 << 20,
                              memoryCapBytes: 8 << 20, diskEntries: 40, diskBytes: 14 << 10, diskCapBytes: 64 << 20, favorites: 2, online: true,
                              hosts: [HostStatus(host: "pokeapi.co", isAPI: true, up: true)], requestsInFlight: 0, maxRequestsInFlight: 3)
        s.sandbox = SandboxStatus(landlockABI: 4, restricted: ["files"], missing: [], namespaces: true)
        return s
    }

    private func running() -> FakeService {
        let fake = Fixtures.service()
        fake.on(Pokedex1.status) { _ in Self.status() }
        return fake
    }

    func testStatusText() {
        let ran = Harness.run(["status"], running())
        XCTAssertEqual(ran.code, 0)
        XCTAssertEqual(ran.out, """
            status       running
            version      0.1.0
            API          https://pokeapi.co/api/v2
            memory tier  12 entries, 3 MiB of 8 MiB
            disk tier    40 files, 14 KiB of 64 MiB
            favorites    2
            cache        /home/u/.cache/pokedex
            data         /home/u/.local/share/pokedex
            requests     0 in flight, at most 3 at once so far
            sandbox      landlock ABI 4 (files); namespaces: yes
            API host     pokeapi.co  up

            """)
        XCTAssertEqual(ran.err, "")
    }

    func testStatusInGerman() {
        let de = Harness.german
        let ran = Harness.run(["status"], running(), words: de, language: "de")
        XCTAssertEqual(ran.code, 0)
        XCTAssertTrue(ran.out.hasPrefix(de.tr("status")), ran.out)
        XCTAssertTrue(ran.out.contains(de.tr("running")), ran.out)
        XCTAssertEqual(de.tr("running"), "läuft")
    }

    func testStatusJSONHasEveryKeyAndRunning() {
        let ran = Harness.run(["status", "--json"], running())
        XCTAssertEqual(ran.code, 0)
        XCTAssertTrue(ran.out.hasPrefix("{\"api_url\":\"https://pokeapi.co/api/v2\""), ran.out)
        XCTAssertTrue(ran.out.contains("\"running\":true"), ran.out)
        XCTAssertTrue(ran.out.contains("\"version\":\"0.1.0\""), ran.out)
    }

    func testStatusNotRunningExitsThree() {
        let fake = running()
        fake.running = false
        let ran = Harness.run(["status"], fake)
        XCTAssertEqual(ran.code, 3)
        XCTAssertEqual(ran.out, "pokedexd is not running; the first call starts it (or: systemctl --user start pokedex)\n")
        XCTAssertEqual(ran.err, "")
        fake.unitReason = "pokedex.service failed: exit code 1"
        let json = Harness.run(["status", "--json"], fake)
        XCTAssertEqual(json.code, 3)
        XCTAssertEqual(json.out, "{\"reason\":\"pokedex.service failed: exit code 1\",\"running\":false}\n")
        let de = Harness.german
        fake.unitReason = nil
        XCTAssertEqual(Harness.run(["status"], fake, words: de, language: "de").out,
                       de.tr("pokedexd is not running; the first call starts it (or: systemctl --user start pokedex)") + "\n")
    }

    /// A service frozen with SIGSTOP: said from its process at once, the Status call never made
    /// (it took the call's timeout, 13 s: issue 56).
    func testStatusOfAStoppedServiceIsSaidWithoutCallingIt() {
        let fake = running()
        fake.stopped = "pokedexd (pid 42) is stopped (SIGSTOP or a debugger)"
        let ran = Harness.run(["status"], fake)
        XCTAssertEqual(ran.code, 3)
        XCTAssertEqual(ran.out, "pokedexd (pid 42) is stopped (SIGSTOP or a debugger)\n")
        XCTAssertFalse(fake.calls.contains("Status"), "\(fake.calls)")
        XCTAssertEqual(Harness.run(["status", "--json"], fake).out,
                       "{\"reason\":\"pokedexd (pid 42) is stopped (SIGSTOP or a debugger)\",\"running\":false}\n")
    }

    func testStatusWithoutABusIsStillOneJSONObject() {
        let ran = Harness.run(["status", "--json"], running(), connect: { () throws(BusError) -> any PokedexService in
            throw BusError(name: BusError.Name.noServer, message: "cannot connect to the session bus: No such file or directory")
        })
        XCTAssertEqual(ran.code, 3)
        XCTAssertTrue(ran.out.hasPrefix("{\"reason\":\"no session bus ("), ran.out)
        XCTAssertTrue(ran.out.hasSuffix(",\"running\":false}\n"), ran.out)
        XCTAssertEqual(ran.err, "")
    }

    func testSyncPlainLinesAndSummary() {
        let fake = Fixtures.service()
        fake.syncSteps = [(0, 10), (5, 10), (10, 10)]
        fake.syncResult = SyncResult(complete: 10, failed: 0)
        let ran = Harness.run(["sync"], fake)
        XCTAssertEqual(ran.code, 0)
        XCTAssertTrue(ran.out.hasSuffix("10 Pokémon ready offline in 0 s\n"), ran.out)
        XCTAssertEqual(Harness.run(["sync", "--json"], fake).out, "{\"complete\":10,\"failed\":0}\n")
        fake.syncResult = SyncResult(complete: 8, failed: 2)
        let failed = Harness.run(["sync"], fake)
        XCTAssertEqual(failed.code, 3)
        XCTAssertTrue(failed.out.hasSuffix("8 Pokémon ready offline in 0 s; 2 failed (run 'pokectl sync' again)\n"), failed.out)
        let de = Harness.german
        XCTAssertTrue(Harness.run(["sync"], fake, words: de, language: "de").out
            .hasSuffix(de.trf("%s Pokémon ready offline in %s s; %s failed (run 'pokectl sync' again)", "8", "0", "2") + "\n"))
    }

    /// PokeAPI out of reach: the sync says so as it waits, and its failure says why (it gave up
    /// in 57 ms with '1 failed' and no word: issue 56). Outside a terminal it does not wait.
    func testSyncSaysWhatItWaitsForAndWhyItFailed() {
        let fake = Fixtures.service()
        fake.syncSteps = [(0, 10), (3, 10)]
        fake.syncWaiting = .network(ServiceMessages.format(ServiceMessages.cannotReach, "the Pokémon list", "pokeapi.co", "Could not connect to server"))
        fake.syncResult = SyncResult(complete: 3, failed: 7)
        fake.set(Pokedex1.online, false)
        fake.apiDown = "Could not connect to server"
        let ran = Harness.run(["sync"], fake)
        XCTAssertEqual(ran.code, 3)
        XCTAssertTrue(ran.out.contains("waiting for PokeAPI: the Pokémon list: cannot reach pokeapi.co"), ran.out)
        XCTAssertEqual(ran.out.components(separatedBy: "waiting for PokeAPI").count, 2, "said once, not at every poll: \(ran.out)")
        XCTAssertEqual(ran.err, "pokectl: PokeAPI could not be reached: Could not connect to server\n")
        XCTAssertEqual(fake.calls.filter { $0 == "Sync" }.count, 1, "no waiting outside a terminal")
        let de = Harness.run(["sync"], fake, words: Harness.german, language: "de")
        XCTAssertTrue(de.out.contains(Harness.german.trf("waiting for PokeAPI: %s", "")), de.out)
        // A frozen service: what its process says.
        fake.syncWaiting = .service
        fake.stopped = "pokedexd (pid 42) is stopped (SIGSTOP or a debugger)"
        XCTAssertTrue(Harness.run(["sync"], fake).out.contains("pokedexd (pid 42) is stopped"))
        XCTAssertEqual(Harness.run(["sync", "--wait", "-1"], fake).code, 2)
    }

    /// Ctrl-C: the bar goes, and the line says where the next sync goes on from.
    func testAnInterruptedSyncSaysWhereItStopped() {
        let out = TextStream(.buffer)
        var report = SyncReport(tty: true, json: false, width: 120, words: .english, out: out)
        report.progress(done: 470, total: 1351, waiting: nil)
        report.progress(done: 470, total: 1351, waiting: .network("Could not connect to server"))
        report.interrupted()
        let text = out.text
        XCTAssertTrue(text.contains("470/1351  waiting for PokeAPI: Could not connect to server"), text)
        XCTAssertTrue(text.hasSuffix("\r\u{1B}[Kstopped at 470/1351; 'pokectl sync' goes on from there\n"), text)

        // Ctrl-C before this sync's own progress showed: the service still reported the last
        // sync's end, which is not where this one stopped.
        for tty in [true, false] {
            let early = TextStream(.buffer)
            var r = SyncReport(tty: tty, json: false, width: 120, words: .english, out: early)
            r.progress(done: 1351, total: 1351, waiting: nil)
            r.progress(done: 1351, total: 1351, waiting: .network("Could not connect to server"))
            r.interrupted()
            XCTAssertTrue(early.text.hasSuffix("stopped at 0; 'pokectl sync' goes on from there\n"), "tty \(tty): \(early.text)")
            XCTAssertFalse(early.text.contains("1351/1351"), "tty \(tty): \(early.text)")
        }
    }

    private func cache() -> FakeService {
        let fake = Fixtures.service()
        fake.on(Pokedex1.cacheStats) { _ in
            CacheStats(kinds: [CacheKindStats(kind: .sprites, count: 3, bytes: 12 << 10, stale: 1, oldestFetchedAt: 1000, newestFetchedAt: 1060)],
                       now: 1120, files: 3, bytes: 12 << 10, diskCapBytes: 64 << 20, memoryEntries: 2, memoryBytes: 2048,
                       memoryCapBytes: 8 << 20, cacheDirectory: "/home/u/.cache/pokedex")
        }
        fake.on(Pokedex1.verifyCache) { _ in
            CacheVerifyResult(checked: 3, damaged: 1, repaired: 0, failed: 1, orphans: 0,
                              failures: [.init(item: "sprites/6.png", reason: "network down")])
        }
        fake.on(Pokedex1.clearCache) { _ in CacheClearResult(files: 3, bytes: 12 << 10) }
        fake.set(Pokedex1.favorites, [25, 6])
        return fake
    }

    func testCacheStats() {
        let ran = Harness.run(["cache", "stats"], cache())
        XCTAssertEqual(ran.code, 0)
        XCTAssertTrue(ran.out.hasPrefix("KIND     COUNT    SIZE  OLDEST     NEWEST     STALE\nsprites      3  12 KiB  2 min ago  1 min ago      1\n"), ran.out)
        XCTAssertTrue(ran.out.contains("disk    3 files, 12 KiB of 64 MiB\n"), ran.out)
        let json = Harness.run(["cache", "--json"], cache())
        XCTAssertTrue(json.out.hasPrefix("{\"bytes\":12288,\"cache_dir\":\"/home/u/.cache/pokedex\""), json.out)
        XCTAssertTrue(json.out.contains("\"kinds\":{\"sprites\":{\"bytes\":12288,\"count\":3,\"newest_fetched_at\":1060,\"oldest_fetched_at\":1000,\"stale\":1}}"), json.out)
        let de = Harness.german
        XCTAssertTrue(Harness.run(["cache", "stats"], cache(), words: de, language: "de").out.contains(de.tr("sprites")))
    }

    func testCacheVerifyReportsFailuresAndExitsThree() {
        let ran = Harness.run(["cache", "verify"], cache())
        XCTAssertEqual(ran.code, 3)
        XCTAssertTrue(ran.out.hasPrefix("checked 3 cached items: 1 damaged, 0 fetched again, 1 failed\n"), ran.out)
        XCTAssertTrue(ran.out.contains("sprites/6.png  network down"), ran.out)
        let json = Harness.run(["cache", "verify", "--json"], cache())
        XCTAssertEqual(json.code, 3)
        XCTAssertEqual(json.out, "{\"checked\":3,\"damaged\":1,\"failed\":1,\"failures\":[{\"item\":\"sprites/6.png\",\"reason\":\"network down\"}],\"orphans\":0,\"repaired\":0}\n")
    }

    func testCacheClear() {
        XCTAssertEqual(Harness.run(["cache", "clear"], cache()).out, "removed 3 files (12 KiB) from the cache; favorites kept (2)\n")
        XCTAssertEqual(Harness.run(["cache", "clear", "--json"], cache()).out, "{\"bytes\":12288,\"favorites_kept\":2,\"files\":3}\n")
        let de = Harness.german
        XCTAssertEqual(Harness.run(["cache", "clear"], cache(), words: de, language: "de").out,
                       de.trn("removed %s file (%s) from the cache; favorites kept (%s)", "removed %s files (%s) from the cache; favorites kept (%s)",
                              3, "12 KiB", "2") + "\n")
    }

    static func charizard(german: Bool) -> PokemonDetail {
        var d = PokemonDetail(id: 6, name: "charizard", height: 17, weight: 905, types: ["fire", "flying"], abilities: ["blaze"],
                              stats: [.init(name: "hp", value: 78)], spritePath: "", favorite: true, genus: german ? "Flammen-Pokémon" : "Flame Pokémon",
                              flavorText: german ? "Wärmt sich" : "Warms itself", color: "#e06040", animatedSpritePath: "")
        d.displayName = german ? "Glurak" : "Charizard"
        return d
    }

    private func detail() -> FakeService {
        let fake = Fixtures.service()
        fake.on(Pokedex1.localizedDetail) { (pokemon, language) throws(BusError) in
            guard pokemon == "charizard" else { throw Fixtures.notFound(pokemon) }
            return Self.charizard(german: language == "de")
        }
        return fake
    }

    func testShowCard() {
        let ran = Harness.run(["show", "charizard", "--no-image"], detail())
        XCTAssertEqual(ran.code, 0)
        XCTAssertTrue(ran.out.contains("Charizard"), ran.out)
        XCTAssertTrue(ran.out.contains("Flame Pokémon"), ran.out)
        XCTAssertTrue(ran.out.contains("Warms itself"), ran.out)
        let de = Harness.run(["show", "charizard", "--no-image"], detail(), words: Harness.german, language: "de")
        XCTAssertTrue(de.out.contains("Glurak"), de.out)
        XCTAssertTrue(de.out.contains("Wärmt sich"), de.out)
    }

    func testShowJSONAndNotFound() {
        let ran = Harness.run(["show", "charizard", "--json"], detail())
        XCTAssertEqual(ran.code, 0)
        XCTAssertTrue(ran.out.hasPrefix("{"), ran.out)
        XCTAssertTrue(ran.out.contains("\"display_name\":\"Charizard\""), ran.out)
        XCTAssertTrue(ran.out.contains("\"name\":\"charizard\""), ran.out)
        let missing = Harness.run(["show", "nobody"], detail())
        XCTAssertEqual(missing.code, 1)
        XCTAssertTrue(missing.err.hasPrefix("pokectl: no Pokémon named \"nobody\""), missing.err)
        XCTAssertEqual(Harness.run(["show"], detail()).code, 2)
        XCTAssertEqual(Harness.run(["show", "pikachu", "--random"], detail()).code, 2)
    }

    func testShowRandomJSON() {
        let fake = Fixtures.service()
        fake.on(Pokedex1.randomSprite) { (favorites, chance) in
            XCTAssertTrue(favorites)
            return RandomSprite(id: 25, name: "pikachu", path: "/cache/sprites/25.png", shiny: false)
        }
        let ran = Harness.run(["show", "--random", "--favorite", "--json"], fake)
        XCTAssertEqual(ran.out, "{\"id\":25,\"name\":\"pikachu\",\"number\":25,\"path\":\"/cache/sprites/25.png\",\"shiny\":false}\n")
        // A form: its number is its species', its id the key for calls.
        fake.on(Pokedex1.randomSprite) { _ in RandomSprite(id: 10100, name: "raichu-alola", path: "/cache/sprites/10100.png", shiny: false) }
        XCTAssertEqual(Harness.run(["show", "--random", "--json"], fake).out,
                       "{\"id\":10100,\"name\":\"raichu-alola\",\"number\":26,\"path\":\"/cache/sprites/10100.png\",\"shiny\":false}\n")
    }

    /// `show --random` for a fetch tool: within 30 columns and 15 lines by default, so that an
    /// 80×24 terminal keeps room for the tool's lines beside it; --width and --height say more.
    func testShowRandomFitsBesideAFetchToolByDefault() throws {
        // A tall shape, 60 × 90 visible pixels, as a 96 × 96 sprite.
        let sprite = RGBAImage(width: 96, height: 96, pixels: (0..<(96 * 96)).flatMap { i -> [UInt8] in
            let x = i % 96, y = i / 96
            return (18..<78).contains(x) && (3..<93).contains(y) ? [UInt8(x * 2), UInt8(y * 2), 90, 255] : [0, 0, 0, 0]
        })
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("random-\(getpid()).png").path
        FileManager.default.createFile(atPath: path, contents: Data(try XCTUnwrap(LibPNGEncoder.encode(sprite))))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fake = Fixtures.service()
        fake.on(Pokedex1.randomSprite) { _ in RandomSprite(id: 25, name: "pikachu", path: path, shiny: false) }
        func size(_ arguments: [String]) -> (columns: Int, lines: Int) {
            let out = Harness.run(["show", "--random", "--hide-name"] + arguments, fake).out
            let lines = out.split(separator: "\n").map(String.init)
            return (lines.map(TerminalText.width).max() ?? 0, lines.count)
        }
        let byDefault = size([])
        XCTAssertLessThanOrEqual(byDefault.columns, 30)
        XCTAssertEqual(byDefault.lines, 15, "the tall sprite as tall as the budget")
        XCTAssertEqual(size(["--height", "8"]).lines, 8)
        XCTAssertEqual(size(["--width", "40"]).columns, 40, "--width alone: as tall as that width makes it")
        XCTAssertEqual(size(["--width", "40"]).lines, 30)
        XCTAssertEqual(Harness.run(["show", "--random", "--height", "0"], fake).code, 2)
        XCTAssertEqual(Harness.run(["show", "pikachu", "--height", "5"], fake).code, 2)
    }

    func testCryPathOnly() {
        let fake = Fixtures.service()
        fake.on(Pokedex1.cryPath) { _ in "/cache/cries/25.ogg" }
        fake.on(Pokedex1.searchDetailed) { _ in [SearchMatch(entry: Fixtures.pikachu, match: "exact", matchedName: "", language: "", distance: 0)] }
        XCTAssertEqual(Harness.run(["cry", "pikachu", "--path-only"], fake).out, "/cache/cries/25.ogg\n")
        XCTAssertEqual(Harness.run(["cry", "pikachu", "--path-only", "--json"], fake).out,
                       "{\"cry_path\":\"/cache/cries/25.ogg\",\"id\":25,\"number\":25,\"played\":null,\"pokemon\":\"pikachu\",\"why\":null}\n",
                       "keys sorted, as every command's JSON")
    }

    func testWidgetShowsTheNewestFavoriteOrWhyNot() {
        let fake = Fixtures.service()
        fake.on(Pokedex1.listFavorites) { _ in [Fixtures.charizard, Fixtures.pikachu] }
        fake.on(Pokedex1.localizedDetail) { (name, language) in
            var d = Self.charizard(german: language == "de")
            if name == "pikachu" { d.id = 25; d.name = "pikachu"; d.displayName = "Pikachu"; d.color = "#f0d030" }
            return d
        }
        let ran = Harness.run(["widget", "--format", "polybar"], fake)
        XCTAssertEqual(ran.code, 0)
        XCTAssertTrue(ran.out.contains("Pikachu"), ran.out)
        let german = Harness.run(["widget", "--format", "polybar"], fake, words: Harness.german, language: "de")
        XCTAssertTrue(german.out.contains("Pikachu"), german.out)
        let empty = Fixtures.service()
        empty.on(Pokedex1.listFavorites) { _ in [] }
        let none = Harness.run(["widget"], empty)
        XCTAssertEqual(none.code, 0)
        XCTAssertTrue(none.out.hasPrefix("{"), none.out)
        XCTAssertTrue(none.out.contains("empty"), none.out)
    }
}
