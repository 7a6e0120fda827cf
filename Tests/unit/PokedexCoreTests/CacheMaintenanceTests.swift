import Foundation
import XCTest
import PokedexTestKit
@testable import PokedexCore

/// `CacheStats`, `VerifyCache` and `ClearCache` against the fake API, a real disk tier in a
/// temporary directory, and a clock moved by hand.
final class CacheMaintenanceTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    var v2: String { dir + "/cache/v2" }
    let index = FakePokeAPI.base + "/pokemon/?offset=0&limit=100000"

    func makeService(_ api: FakePokeAPI, clock: ManualClock = ManualClock(), store: (any CacheStore)? = nil,
                     favorites: any FavoritesPersistence = MemoryFavoritesPersistence(), prefetch: Bool = false) throws -> PokedexService {
        let config = ServiceConfiguration(apiURL: FakePokeAPI.base, spriteHosts: ["sprites.test"],
                                          cacheDirectory: dir + "/cache", dataDirectory: dir + "/data",
                                          spriteURLTemplate: "https://sprites.test/{id}.png", prefetch: prefetch)
        return PokedexService(configuration: config, client: api.client,
                              store: try store ?? FileCacheStore(directory: config.cacheDirectory, capacity: 1 << 24),
                              favorites: try FavoritesBook(persistence: favorites, clock: clock), clock: clock)
    }

    /// Sync answers once what it fetched is on disk (records are written behind the fetch):
    /// `CacheStats`, a stop or a crash right after its answer find every record it counted.
    /// The disk here is slow, two milliseconds a record.
    func testSyncAnswersOnceEveryRecordItFetchedIsOnDisk() async throws {
        let api = FakePokeAPI()
        let store = FaultyCacheStore(try FileCacheStore(directory: dir + "/cache", capacity: 1 << 24))
        store.slowWrites(2000)
        let s = try makeService(api, store: store)
        let result = try await s.sync().value()
        XCTAssertEqual(result.failed, 0)
        XCTAssertGreaterThan(result.complete, 1)
        let atAnswer = store.keysWritten
        XCTAssertEqual(Set(atAnswer.filter { $0.hasPrefix("pokemon/") }).count, Int(result.complete))
        s.finishShutdown()
        XCTAssertEqual(store.keysWritten.count, atAnswer.count, "written after the answer: \(store.keysWritten.dropFirst(atAnswer.count))")
    }

    /// A form (#31 here, as PokeAPI's 10000s) is of its default Pokémon's species: a sync keeps
    /// that species once, not reading it back from disk for the form (issue 58: 326 forms each
    /// decoded their species' record again).
    func testASyncKeepsAFormsSpeciesOnce() async throws {
        let api = FakePokeAPI()
        let results = (FakePokeAPI.names + ["pikachu-alola-cap"]).enumerated().map { i, n in
            #"{"name":"\#(n)","url":"\#(FakePokeAPI.base)/pokemon/\#(i + 1)/"}"#
        }
        api.client.route(index, json: #"{"count":31,"next":null,"previous":null,"results":[\#(results.joined(separator: ","))]}"#)
        api.client.route(FakePokeAPI.base + "/pokemon/31/", json: """
            {"id":31,"name":"pikachu-alola-cap","height":4,"weight":60,"types":[{"slot":1,"type":{"name":"electric"}}],
             "abilities":[],"stats":[],"sprites":{"front_default":"https://sprites.test/31.png"},
             "species":{"name":"pikachu","url":"\(FakePokeAPI.base)/pokemon-species/25/"}}
            """)
        api.client.route("https://sprites.test/31.png") { _ in HTTPResponse(status: 200, body: makePNG((31, 100, 200))) }
        let store = FaultyCacheStore(try FileCacheStore(directory: dir + "/cache", capacity: 1 << 24))
        let s = try makeService(api, store: store)
        let result = try await s.sync().value()
        XCTAssertEqual(result.complete, 31)
        XCTAssertEqual(result.failed, 0)
        XCTAssertEqual(api.client.count(FakePokeAPI.base + "/pokemon-species/25/"), 1)
        XCTAssertEqual(store.keysRead.filter { $0 == APIRoutes.speciesKey(25) }.count, 1,
                       "looked for on disk by the first of the two, not read back for the form")
        // A sync after it keeps it again: fresh on disk, read back, nothing fetched.
        let again = try await s.sync().value()
        XCTAssertEqual(again.complete, 31)
        XCTAssertEqual(api.client.count(FakePokeAPI.base + "/pokemon-species/25/"), 1)
        XCTAssertEqual(store.keysRead.filter { $0 == APIRoutes.speciesKey(25) }.count, 2)
    }

    /// Gives #`id` an animated sprite, as PokeAPI's generation-V one.
    func animate(_ api: FakePokeAPI, _ id: Int) {
        api.client.route(FakePokeAPI.base + "/pokemon/\(id)/", json: """
            {"id":\(id),"name":"mon\(id)","height":4,"weight":60,"types":[{"slot":1,"type":{"name":"electric"}}],
             "abilities":[],"stats":[],
             "sprites":{"front_default":"https://sprites.test/\(id).png",
                        "versions":{"generation-v":{"black-white":{"animated":{"front_default":"https://sprites.test/anim/\(id).gif"}}}}},
             "species":{"name":"mon\(id)","url":"\(FakePokeAPI.base)/pokemon-species/\(id)/"}}
            """)
        api.client.route("https://sprites.test/anim/\(id).gif") { _ in HTTPResponse(status: 200, body: tinyGIF) }
    }

    /// Every record (`records/KEY`) and file on disk, as `cacheFilesOnDisk` reads them → size.
    func filesOnDisk() -> [String: Int] { cacheFilesOnDisk(v2) }

    func bytes(_ files: [String: Int], _ matching: (String) -> Bool) -> Int {
        files.filter { matching($0.key) }.values.reduce(0, +)
    }

    func truncate(_ path: String) throws {
        let b = try XCTUnwrap(FileIO.readFile(path))
        try FileIO.writeAtomically(Array(b.prefix(b.count / 2)), to: path, durable: false)
    }

    // MARK: Stats

    func testStatsGroupByKindWithAgesAndStaleness() async throws {
        let api = FakePokeAPI()
        animate(api, 5)
        let clock = ManualClock()
        let store = try FileCacheStore(directory: dir + "/cache", capacity: 1 << 24)
        let s = try makeService(api, clock: clock, store: store)
        let t0 = Int(clock.now().timeIntervalSince1970)
        for id in 1...5 { _ = try await s.detail(String(id)).value() }
        s.finishWrites()
        try store.writeRecord("meta/search-filters", StoredRecord(
            payload: Array(#"{"types":{},"generations":{}}"#.utf8),
            freshness: Freshness(etag: nil, fetchedAt: clock.now() + 100, maxAge: 7 * 86400)))
        // Two days on: everything fetched so far is past its max-age (a day), the filters not.
        clock.advance(2 * 86400)
        let later = Int(clock.now().timeIntervalSince1970)
        let pokemon6 = try XCTUnwrap(store.readRecord("pokemon/1"))
        try store.writeRecord("pokemon/6", StoredRecord(payload: pokemon6.payload, freshness: Freshness(etag: nil, fetchedAt: clock.now(), maxAge: 86400)))
        try store.writeRecord("moves/1", StoredRecord(payload: Array("{}".utf8), freshness: Freshness(etag: nil, fetchedAt: clock.now(), maxAge: 60)))
        _ = try store.writeSprite("notes.txt", Array("not a sprite".utf8))
        try FileIO.writeAtomically(Array("half".utf8), to: v2 + "/records/.pokemon_7.rec.tmp.4000000.1", durable: false)
        try FileIO.writeAtomically(Array("being written".utf8), to: v2 + "/records/.pokemon_8.rec.tmp.\(getpid()).9", durable: false)

        let stats = try await s.cacheStats().value()
        let disk = filesOnDisk()
        XCTAssertEqual(stats.now, later, "ages count from the service's clock")
        XCTAssertEqual(stats.kinds.map(\.kind), CacheKind.allCases)
        func check(_ kind: CacheKind, count: Int, stale: Int, oldest: Int?, newest: Int?, bytes expected: Int,
                   line: UInt = #line) {
            let k = stats[kind]
            XCTAssertEqual(k.count, count, "\(kind) count", line: line)
            XCTAssertEqual(k.stale, stale, "\(kind) stale", line: line)
            XCTAssertEqual(k.oldestFetchedAt, oldest, "\(kind) oldest", line: line)
            XCTAssertEqual(k.newestFetchedAt, newest, "\(kind) newest", line: line)
            XCTAssertEqual(k.bytes, expected, "\(kind) bytes", line: line)
        }
        check(.list, count: 1, stale: 1, oldest: t0, newest: t0, bytes: bytes(disk) { $0 == "records/index/pokemon" })
        check(.pokemon, count: 6, stale: 5, oldest: t0, newest: later, bytes: bytes(disk) { $0.hasPrefix("records/pokemon/") })
        check(.species, count: 5, stale: 5, oldest: t0, newest: t0, bytes: bytes(disk) { $0.hasPrefix("records/species/") })
        check(.filters, count: 1, stale: 0, oldest: t0 + 100, newest: t0 + 100, bytes: bytes(disk) { $0 == "records/meta/search-filters" })
        check(.sprites, count: 5, stale: 5, oldest: t0, newest: t0,
              bytes: bytes(disk) { $0.hasSuffix(".png") || $0.hasPrefix("records/sprite/") })
        check(.animatedSprites, count: 1, stale: 1, oldest: t0, newest: t0,
              bytes: bytes(disk) { $0.hasSuffix("-animated.gif") || $0.hasPrefix("records/sprite-animated/") })
        // moves/1, notes.txt and the abandoned temporary file; not the one being written.
        check(.other, count: 3, stale: 0, oldest: later, newest: later,
              bytes: bytes(disk) { $0.hasPrefix("records/moves/") || $0 == "sprites/notes.txt" || $0.contains(".tmp.4000000.") })
        XCTAssertEqual(stats.files, disk.count - 1, "every file but the one being written")
        XCTAssertEqual(stats.bytes, bytes(disk) { !$0.contains(".tmp.\(getpid()).") })
        XCTAssertEqual(stats.kinds.map(\.bytes).reduce(0, +), stats.bytes, "every byte is in one kind")
        XCTAssertEqual(stats.diskCapBytes, 256 << 20)
        XCTAssertEqual(stats.memoryCapBytes, 32 << 20)
        XCTAssertEqual(stats.memoryEntries, s.loader.memory.usage.entries)
        XCTAssertGreaterThan(stats.memoryEntries, 10)
        XCTAssertEqual(stats.cacheDirectory, dir + "/cache")
        XCTAssertNotNil(FileIO.fileInfo(v2 + "/records/.pokemon_7.rec.tmp.4000000.1"), "stats change nothing")
    }

    func testStatsSurviveHeadersThatSayAnything() async throws {
        let store = try FileCacheStore(directory: dir + "/cache", capacity: 1 << 24)
        let s = try makeService(FakePokeAPI(), store: store)
        for (i, t) in [1e300, -1e300, 1_800_000_000].enumerated() {
            try store.writeRecord("pokemon/\(i + 1)", StoredRecord(payload: Array("{}".utf8),
                                                                 freshness: Freshness(etag: nil, fetchedAt: Date(timeIntervalSince1970: t), maxAge: 60)))
        }
        let pokemon = try await s.cacheStats().value()[.pokemon]
        XCTAssertEqual(pokemon.count, 3)
        XCTAssertEqual(pokemon.oldestFetchedAt, 1_800_000_000, "no clock gives the others")
        XCTAssertEqual(pokemon.newestFetchedAt, 1_800_000_000)
    }

    // MARK: Verify

    func testVerifyRepairsDamageByFetchingAgainAndRemovesOrphans() async throws {
        let api = FakePokeAPI()
        animate(api, 5)
        let disk = try FileCacheStore(directory: dir + "/cache", capacity: 1 << 24)
        let s = try makeService(api, store: disk)
        for id in 1...5 { _ = try await s.detail(String(id)).value() }
        s.finishWrites()
        try CacheRecordDamage.flippedPayload.apply(to: "pokemon/2", in: v2)
        try CacheRecordDamage.garbage.apply(to: "species/4", in: v2)
        try truncate(v2 + "/sprites/3.png")
        try truncate(v2 + "/sprites/5-animated.gif")
        // Orphans: a sprite without its metadata record, a temporary file a killed writer left.
        disk.removeRecord("sprite/1")
        let abandoned = v2 + "/sprites/.2.png.tmp.4000000.3"
        let inFlight = v2 + "/sprites/.2.png.tmp.\(getpid()).77"
        for path in [abandoned, inFlight] { try FileIO.writeAtomically(Array("half".utf8), to: path, durable: false) }
        let before = api.client.requests.count

        let r = try await s.verifyCache().value()
        XCTAssertEqual(r, CacheVerifyResult(checked: 16, damaged: 4, repaired: 4, failed: 0, orphans: 2, failures: []),
                       "11 records (list, 5 pokemon, 5 species) and 5 sprites with their records; 1.png is an orphan")
        let fetched = api.client.requests.dropFirst(before).map(\.url).sorted()
        XCTAssertEqual(fetched, [FakePokeAPI.base + "/pokemon-species/4/", FakePokeAPI.base + "/pokemon/2/",
                                 "https://sprites.test/3.png", "https://sprites.test/anim/5.gif"],
                       "each damaged file fetched again, once, and nothing else")
        let store = try FileCacheStore(directory: dir + "/cache", capacity: 1 << 24)
        XCTAssertEqual(store.readRecord("pokemon/2").flatMap { try? JSONDecoder().decode(PokemonRecord.self, from: Data($0.payload)) }?.name, "mon2")
        XCTAssertNotNil(store.readRecord("species/4"))
        XCTAssertEqual(FileIO.readFile(v2 + "/sprites/3.png"), makePNG((3, 100, 200)))
        XCTAssertEqual(FileIO.readFile(v2 + "/sprites/5-animated.gif"), tinyGIF)
        XCTAssertNil(FileIO.fileInfo(v2 + "/sprites/1.png"), "the orphan is removed, not fetched")
        XCTAssertNil(FileIO.fileInfo(abandoned))
        XCTAssertNotNil(FileIO.fileInfo(inFlight), "a file being written is left to its writer")
        // Answers name the repaired files; nothing is left to repair.
        let d3 = try await s.detail("3").value()
        XCTAssertEqual(d3.spritePath, v2 + "/sprites/3.png")
        let again = try await s.verifyCache().value()
        XCTAssertEqual(again, CacheVerifyResult(checked: 16, damaged: 0, repaired: 0, failed: 0, orphans: 0, failures: []))
    }

    func testVerifyCountsWhatCannotBeFetchedAgainAndKeepsMemory() async throws {
        let api = FakePokeAPI()
        let s = try makeService(api)
        for id in 1...3 { _ = try await s.detail(String(id)).value() }
        s.finishWrites()
        try CacheRecordDamage.flippedPayload.apply(to: "pokemon/2", in: v2)
        try truncate(v2 + "/sprites/3.png")
        api.client.route(FakePokeAPI.base + "/pokemon/2/") { _ in HTTPResponse(status: 404) }
        api.client.route("https://sprites.test/3.png") { _ in HTTPResponse(status: 200, body: Array("<html>".utf8)) }

        let r = try await s.verifyCache().value()
        XCTAssertEqual(r.checked, 10)
        XCTAssertEqual(r.damaged, 2)
        XCTAssertEqual(r.repaired, 0)
        XCTAssertEqual(r.failed, 2)
        XCTAssertEqual(r.failures.map(\.item), ["3.png", "pokemon/2"])
        XCTAssertTrue(r.failures[0].reason.contains("not a whole image"), r.failures[0].reason)
        XCTAssertEqual(r.failures[1].reason, "PokeAPI answered 404 Not Found for \(FakePokeAPI.base)/pokemon/2/")
        XCTAssertNil(FileIO.fileInfo(v2 + "/sprites/3.png"), "a damaged file is removed even when it cannot be fetched again")
        // The good copy in memory still answers.
        let d = try await s.detail("2").value()
        XCTAssertEqual(d.name, "mon2")
        XCTAssertEqual(api.client.count(FakePokeAPI.base + "/pokemon/2/"), 2, "the first fetch and the repair's")
    }

    func testUnknownDamagedRecordsAreStrayFilesRemovedAsOrphans() async throws {
        let store = try FileCacheStore(directory: dir + "/cache", capacity: 1 << 24)
        let s = try makeService(FakePokeAPI(), store: store)
        try store.writeRecord("moves/1", StoredRecord(payload: Array("{}".utf8), freshness: Freshness(etag: nil, fetchedAt: Date(), maxAge: 60)))
        try store.writeRecord("moves/2", StoredRecord(payload: Array("{}".utf8), freshness: Freshness(etag: nil, fetchedAt: Date(), maxAge: 60)))
        try CacheRecordDamage.flippedPayload.apply(to: "moves/2", in: v2)
        // Issue 28: a stray file in the records folder is an orphan (removed, counted as such),
        // not damage: verify has nothing to fail on.
        try Data("my notes".utf8).write(to: URL(fileURLWithPath: v2 + "/records/notes.rec"))
        try Data("my notes".utf8).write(to: URL(fileURLWithPath: v2 + "/records/notes.txt"))
        let r = try await s.verifyCache().value()
        XCTAssertEqual(r, CacheVerifyResult(checked: 1, damaged: 0, repaired: 0, failed: 0, orphans: 3, failures: []))
        XCTAssertNotNil(store.readRecord("moves/1"), "a whole record of another kind is left alone")
        XCTAssertFalse(cacheHasRecord("moves/2", in: v2))
        XCTAssertNil(FileIO.fileInfo(v2 + "/records/notes.rec"))
        XCTAssertNil(FileIO.fileInfo(v2 + "/records/notes.txt"))
        let again = try await s.verifyCache().value()
        XCTAssertEqual(again, CacheVerifyResult(checked: 1, damaged: 0, repaired: 0, failed: 0, orphans: 0, failures: []))
    }
}
