import XCTest
import PokedexTestKit
@testable import PokedexCore

final class FavoritesTests: XCTestCase {
    func testToggleSetAndOrder() async throws {
        let store = MemoryFavoritesPersistence()
        let book = try FavoritesBook(persistence: store, clock: ManualClock())
        let on = try await book.toggle(id: 25, name: "pikachu")
        XCTAssertTrue(on.favorite)
        let first = try await book.set(id: 1, name: "bulbasaur", favorite: true)
        XCTAssertNotNil(first)
        let again = try await book.set(id: 1, name: "bulbasaur", favorite: true)
        XCTAssertNil(again, "idempotent: no change, no signal")
        XCTAssertEqual(book.ids, [25, 1])
        XCTAssertEqual(store.saved.map(\.id), [25, 1])
        let off = try await book.toggle(id: 25, name: "pikachu")
        XCTAssertFalse(off.favorite)
        XCTAssertEqual(off.allIDs, [1])
        XCTAssertEqual(store.saves, 3)
    }

    func testConcurrentChangesLoseNothing() async throws {
        let store = MemoryFavoritesPersistence()
        let book = try FavoritesBook(persistence: store)
        await withTaskGroup(of: Void.self) { group in
            for i in 1...100 {
                group.addTask { _ = try? await book.set(id: UInt32(i), name: "p\(i)", favorite: true) }
            }
        }
        XCTAssertEqual(Set(store.saved.map(\.id)), Set(1...100))
        XCTAssertEqual(Set(book.ids), Set(1...100))
    }

    func testFailedSaveChangesNothing() async throws {
        let store = MemoryFavoritesPersistence()
        let book = try FavoritesBook(persistence: store)
        _ = try await book.toggle(id: 7, name: "squirtle")
        store.fail(true)
        do {
            _ = try await book.toggle(id: 25, name: "pikachu")
            XCTFail("expected a storage error")
        } catch {
            XCTAssertEqual(error.dbusName, "io.github.pokedexd.Pokedex1.Error.Storage")
            XCTAssertTrue(error.message.contains("No space left"), error.message)
        }
        XCTAssertEqual(book.ids, [7])
        XCTAssertFalse(book.contains(25))
    }

    func testFileRoundTrip() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p = try FileFavoritesPersistence(directory: dir)
        try p.save([Favorite(id: 25, name: "pikachu", added: 1)], notice: nil)
        XCTAssertEqual(p.load(), LoadedFavorites(favorites: [Favorite(id: 25, name: "pikachu", added: 1)]))
    }

    func testTemporaryFilesOfKilledWritersAreRemovedAtOpen() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p = try FileFavoritesPersistence(directory: dir)
        try p.save([Favorite(id: 25, name: "pikachu", added: 1)], notice: nil)
        // A writer killed mid-write (no such pid), and one that is still alive (this process).
        let dead = dir + "/.favorites.json.tmp.2147483000.1", alive = dir + "/.favorites.json.tmp.\(getpid()).9"
        XCTAssertTrue(FileManager.default.createFile(atPath: dead, contents: Data("{\"fav".utf8)))
        XCTAssertTrue(FileManager.default.createFile(atPath: alive, contents: Data()))
        let reopened = try FileFavoritesPersistence(directory: dir)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dead), "left by a dead writer: removed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: alive), "a live writer's file is not touched")
        XCTAssertEqual(reopened.load().favorites.map(\.id), [25])
    }
}
