import XCTest
import PokedexTestKit
@testable import PokedexCore

/// More than one writer of one favorites file: two services on the same data folder (two
/// sessions of one user, a container sharing the home) and a person's editor. Every
/// acknowledged change is in the file afterwards, whatever the order.
final class FavoritesWritersTests: XCTestCase {
    private var dir = ""
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    private func book() throws -> FavoritesBook { try FavoritesBook(persistence: FileFavoritesPersistence(directory: dir)) }
    private func stored() throws -> [UInt32] { try book().ids }

    /// The issue's run: 1–40 on one service and 41–80 on the other, at once.
    func testTwoServicesOnOneFolderLoseNoChange() async throws {
        let a = try book(), b = try book()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { for id in UInt32(1)...40 { _ = try await a.set(id: id, name: "p\(id)", favorite: true) } }
            group.addTask { for id in UInt32(41)...80 { _ = try await b.set(id: id, name: "p\(id)", favorite: true) } }
            try await group.waitForAll()
        }
        XCTAssertEqual(Set(try stored()), Set(1...80), "all 80 acknowledged changes are stored")
        XCTAssertEqual(try stored().count, 80, "each once")
        // Each service's own view is what it last stored; the next change brings the other's in.
        _ = try await a.set(id: 1, name: "p1", favorite: false)
        XCTAssertEqual(Set(a.ids), Set(2...80))
    }

    /// Random changes from three services in random order, replayed from a printed seed:
    /// afterwards the file holds exactly what the last change of each id said.
    func testRandomChangesFromThreeServicesEndAsTheLastOfEachSaid() async throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["POKEDEX_SEED"] ?? "") ?? UInt64.random(in: 1...UInt64.max)
        print("FavoritesWritersTests seed: \(seed) (POKEDEX_SEED=\(seed) replays it)")
        var rng = SplitMix64(seed: seed)
        let books = try (0..<3).map { _ in try book() }
        var expected: [UInt32: Bool] = [:]
        for _ in 0..<300 {
            let id = UInt32(rng.next() % 20 + 1), which = Int(rng.next() % 3)
            let toggle = rng.next() % 4 == 0
            let change: FavoriteChange? = toggle ? try await books[which].toggle(id: id, name: "p\(id)")
                : try await books[which].set(id: id, name: "p\(id)", favorite: rng.next() % 2 == 0)
            if let change { expected[id] = change.favorite }
            // Invariant: the file holds each id at most once, and what the last change said.
            let now = try stored()
            XCTAssertEqual(now.count, Set(now).count, "seed \(seed): an id twice")
            XCTAssertEqual(Set(now), Set(expected.filter(\.value).keys), "seed \(seed)")
        }
    }

    /// A list a person edited while the service ran (written to a temporary file, renamed into
    /// place, as editors save) is changed as it now is: the edit stays.
    func testAnEditMadeWhileTheServiceRunsIsKept() async throws {
        let service = try book()
        _ = try await service.set(id: 25, name: "pikachu", favorite: true)
        let edited = #"{"favorites": [{"added": 1, "id": 25, "name": "pikachu"}, {"added": 2, "id": 151, "name": "mew"}], "version": 1}"#
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/edit.tmp", contents: Data(edited.utf8)))
        XCTAssertEqual(rename(dir + "/edit.tmp", dir + "/favorites.json"), 0)
        _ = try await service.set(id: 6, name: "charizard", favorite: true)
        XCTAssertEqual(try stored(), [25, 151, 6])
        XCTAssertEqual(service.ids, [25, 151, 6], "the service took the edit in")
        // Setting what the file already says changes nothing, even when this service did not know.
        let again = try await service.set(id: 151, name: "mew", favorite: true)
        XCTAssertNil(again)
    }

    /// A writer that keeps the folder locked: the change is refused, says why, and nothing changes.
    func testAWriterThatKeepsTheLockIsNamedAndNothingChanges() async throws {
        let service = try book()
        _ = try await service.set(id: 1, name: "bulbasaur", favorite: true)
        let fd = open(dir, O_RDONLY | O_DIRECTORY)
        XCTAssertEqual(flock(fd, LOCK_EX), 0)
        var impatient = try FileFavoritesPersistence(directory: dir)
        impatient.lockPatience = .milliseconds(100)
        let other = try FavoritesBook(persistence: impatient)
        do {
            _ = try await other.set(id: 2, name: "ivysaur", favorite: true)
            XCTFail("changed under another writer's lock")
        } catch {
            XCTAssertTrue(error.message.contains("locked (another pokedexd on the same folder?)"), error.message)
            XCTAssertTrue(error.message.contains("favorites were not changed"), error.message)
        }
        close(fd)
        XCTAssertEqual(try stored(), [1])
        _ = try await other.set(id: 2, name: "ivysaur", favorite: true)
        XCTAssertEqual(try stored(), [1, 2], "the lock let go, the change is made")
    }
}

