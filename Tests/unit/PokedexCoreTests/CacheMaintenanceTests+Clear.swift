import XCTest
import PokedexTestKit
@testable import PokedexCore

/// Clearing the cache, and a disk that fails under stats, verify and clear (the fixture is in
/// CacheMaintenanceTests.swift).
extension CacheMaintenanceTests {
    // MARK: Clear

    func testClearEmptiesBothTiersAndKeepsFavorites() async throws {
        let api = FakePokeAPI()
        let favorites = try FileFavoritesPersistence(directory: dir + "/data")
        let s = try makeService(api, favorites: favorites)
        for id in 1...5 { _ = try await s.detail(String(id)).value() }
        _ = try await s.changeFavorite("pikachu", .add).value()
        _ = try await s.changeFavorite("mon3", .add).value()
        s.finishWrites()
        let favoritesFile = try XCTUnwrap(FileIO.readFile(favorites.path))
        let disk = filesOnDisk()
        XCTAssertGreaterThan(disk.count, 15)

        let r = try await s.clearCache().value()
        XCTAssertEqual(r, CacheClearResult(files: disk.count, bytes: disk.values.reduce(0, +)))
        XCTAssertEqual(filesOnDisk(), [:])
        XCTAssertEqual(s.loader.memory.usage.entries, 0)
        XCTAssertEqual(s.loader.memory.usage.bytes, 0)
        XCTAssertEqual(FileIO.readFile(favorites.path), favoritesFile, "favorites are not the cache's")
        let favs = try await s.listFavorites().value()
        XCTAssertEqual(favs.map(\.name), ["pikachu", "mon3"])
        XCTAssertEqual(favs.map(\.spritePath), ["", ""], "no answer names a file that went")
        let stats = try await s.cacheStats().value()
        XCTAssertEqual(stats.files, 0)
        XCTAssertEqual(stats.kinds.map(\.count), Array(repeating: 0, count: CacheKind.allCases.count))

        // Everything is fetched again when next needed.
        XCTAssertNil(try s.listPage(offset: 0, limit: 5).ready, "the list is no longer in memory")
        let page = try await s.listPage(offset: 0, limit: 5).value()
        XCTAssertEqual(page.entries.map(\.spritePath), Array(repeating: "", count: 5))
        XCTAssertEqual(api.client.count(index), 2)
        let d = try await s.detail("3").value()
        XCTAssertTrue(PNGCheck.isValid(try XCTUnwrap(FileIO.readFile(d.spritePath))))
        XCTAssertEqual(api.client.count(FakePokeAPI.base + "/pokemon/3/"), 2)
        XCTAssertEqual(api.client.count("https://sprites.test/3.png"), 2)
    }

    func testAfterClearTheSamePageIsPrefetchedAgain() async throws {
        let s = try makeService(FakePokeAPI(), prefetch: true)
        func spritesOfPage() async throws -> [String] { try await s.listPage(offset: 0, limit: 5).value().entries.map(\.spritePath) }
        func waitForSprites() async throws -> [String] {
            _ = try await spritesOfPage()  // asks for the page: its sprites are pre-warmed
            await settle(s)
            return try await spritesOfPage()
        }
        let prefetched = try await waitForSprites()
        XCTAssertFalse(prefetched.contains(""), "prefetched")
        _ = try await s.clearCache().value()
        let cleared = try await spritesOfPage()
        XCTAssertEqual(cleared, Array(repeating: "", count: 5), "the files went")
        let again = try await waitForSprites()
        XCTAssertFalse(again.contains(""), "the same page, asked for again, is prefetched again")
    }

    // MARK: Disk failures

    func testADiskThatFailsAnswersStorage() async throws {
        let store = FaultyCacheStore(try FileCacheStore(directory: dir + "/cache", capacity: 1 << 24))
        let s = try makeService(FakePokeAPI(), store: store)
        _ = try await s.detail("1").value()
        s.finishWrites()
        store.fail(true)
        func expectStorage<T>(_ answer: Answer<T>, _ name: String) async {
            do {
                _ = try await answer.value()
                XCTFail("\(name) should fail")
            } catch {
                XCTAssertEqual(error.kind, .storage, "\(name): \(error)")
            }
        }
        await expectStorage(s.cacheStats(), "stats")
        await expectStorage(s.verifyCache(), "verify")
        await expectStorage(s.clearCache(), "clear")
        XCTAssertEqual(s.loader.memory.usage.entries, 0, "a clear that failed still forgot memory: the disk is asked again")
        store.fail(false)
        let d = try await s.detail("1").value()
        XCTAssertFalse(d.spritePath.isEmpty, "what stayed on disk still answers")
    }
}
