import XCTest
import PokedexTestKit
@testable import PokedexCore

/// What is at `favorites.json`, case by case: every valid favorite is kept, nothing is replaced
/// in silence, and the problem is said (in `problem`, which `Status` carries).
final class FavoritesFileTests: XCTestCase {
    private var dir = ""
    private var path: String { dir + "/favorites.json" }

    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() {
        chmod(dir, 0o700)
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func list(_ ids: ClosedRange<UInt32>) -> [Favorite] {
        ids.map { Favorite(id: $0, name: "pokemon-\($0)", added: Double($0)) }
    }

    private func json(_ favorites: [Favorite]) -> String {
        let entries = favorites.map { "{\"added\": \($0.added), \"id\": \($0.id), \"name\": \"\($0.name)\"}" }
        return "{\"favorites\": [" + entries.joined(separator: ",\n") + "], \"version\": 1}\n"
    }

    private func write(_ text: String, to p: String? = nil) { write(Array(text.utf8), to: p) }
    private func write(_ bytes: [UInt8], to p: String? = nil) {
        XCTAssertTrue(FileManager.default.createFile(atPath: p ?? path, contents: Data(bytes)))
    }

    private func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() }
    private func asides() -> [String] { names().filter { $0.hasPrefix("favorites.json.damaged-") } }
    private func read(_ p: String) -> String { String(decoding: FileIO.readFile(p) ?? [], as: UTF8.self) }

    /// Adding one favorite: the error it gets, or nil when it was saved.
    private func add(_ book: FavoritesBook, _ id: UInt32 = 150) async -> String? {
        do {
            _ = try await book.set(id: id, name: "mewtwo", favorite: true)
            return nil
        } catch {
            return error.message
        }
    }

    // MARK: Links

    func testALinkInsideTheFolderIsFollowedAndWrittenThroughAndStays() async throws {
        try FileManager.default.createDirectory(atPath: dir + "/sync", withIntermediateDirectories: true)
        write(json(list(1...3)), to: dir + "/sync/favs.json")
        XCTAssertEqual(symlink("sync/favs.json", path), 0)
        let book = try FavoritesBook(persistence: FileFavoritesPersistence(directory: dir))
        XCTAssertEqual(book.ids, [1, 2, 3])
        XCTAssertNil(book.problem)
        let error = await add(book)
        XCTAssertNil(error)
        var st = stat()
        XCTAssertEqual(lstat(path, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFLNK, "the link is still a link")
        XCTAssertTrue(read(dir + "/sync/favs.json").contains("mewtwo"), "written where it leads")
        XCTAssertEqual(try FavoritesBook(persistence: FileFavoritesPersistence(directory: dir)).ids, [1, 2, 3, 150])
    }

    func testALinkOutsideTheFolderIsNeitherReadAsEmptyNorReplaced() async throws {
        let outside = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: outside) }
        write(json(list(1...3)), to: outside + "/favorites.json")
        XCTAssertEqual(symlink(outside + "/favorites.json", path), 0)
        let book = try FavoritesBook(persistence: FileFavoritesPersistence(directory: dir))
        let problem = try XCTUnwrap(book.problem)
        XCTAssertTrue(problem.contains(path) && problem.contains("outside the data folder"), problem)
        let refused = await add(book)
        let error = try XCTUnwrap(refused, "a change is refused")
        XCTAssertTrue(error.contains(path) && error.contains("favorites were not changed"), error)
        var st = stat()
        XCTAssertEqual(lstat(path, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFLNK, "the link was not replaced")
        XCTAssertFalse(read(outside + "/favorites.json").contains("mewtwo"))
    }

    func testALinkToNothingIsSaid() async throws {
        XCTAssertEqual(symlink("gone.json", path), 0)
        let book = try FavoritesBook(persistence: FileFavoritesPersistence(directory: dir))
        let problem = try XCTUnwrap(book.problem)
        XCTAssertTrue(problem.contains("gone.json") && problem.contains("does not exist"), problem)
        let refused = await add(book)
        XCTAssertNotNil(refused)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/gone.json"))
    }

    // MARK: Not a file

    func testAFIFOIsNotOpenedAndNotReplaced() async throws {
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        let book = try FavoritesBook(persistence: FileFavoritesPersistence(directory: dir))
        let problem = try XCTUnwrap(book.problem)
        XCTAssertTrue(problem.contains("named pipe") && problem.contains(path), problem)
        let refused = await add(book)
        XCTAssertNotNil(refused)
        var st = stat()
        XCTAssertEqual(lstat(path, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO)
    }

    func testADirectoryIsNotReplacedAndOnceMovedAwayAChangeIsSaved() async throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let book = try FavoritesBook(persistence: FileFavoritesPersistence(directory: dir))
        XCTAssertTrue(book.problem?.contains("a directory") ?? false, book.problem ?? "")
        let refused = await add(book)
        XCTAssertNotNil(refused)
        // The person moves it away, as the message says: the next change is saved, no restart.
        XCTAssertEqual(rename(path, dir + "/old"), 0)
        let saved = await add(book)
        XCTAssertNil(saved)
        XCTAssertNil(book.problem)
        XCTAssertEqual(book.ids, [150])
    }

    // MARK: Damaged

    func testOneBadEntryKeepsTheOtherThirtyNineAndTheOriginal() async throws {
        let good = list(1...39)
        let text = json(good).replacingOccurrences(of: "], \"version\"", with: ",\n{\"added\": 1, \"id\": -5, \"name\": \"bad\"}], \"version\"")
        write(text)
        let book = try FavoritesBook(persistence: FileFavoritesPersistence(directory: dir))
        XCTAssertEqual(book.ids, Array(1...39))
        XCTAssertEqual(asides().count, 1)
        XCTAssertEqual(read(dir + "/" + asides()[0]), text, "the damaged original, byte for byte")
        let problem = try XCTUnwrap(book.problem)
        XCTAssertTrue(problem.contains("39 of its 40 entries were kept") && problem.contains(asides()[0]), problem)
        // The list is sound again on disk, and the notice stays across a restart…
        let again = try FavoritesBook(persistence: FileFavoritesPersistence(directory: dir))
        XCTAssertEqual(again.ids, Array(1...39))
        XCTAssertEqual(again.problem, problem)
        XCTAssertEqual(asides().count, 1, "a sound file is not set aside again")
        // …and after a change, until the person deletes the copy.
        let saved = await add(again)
        XCTAssertNil(saved)
        XCTAssertEqual(again.problem, problem)
        XCTAssertTrue(FileIO.removeFile(dir + "/" + asides()[0]))
        XCTAssertNil(again.problem)
        XCTAssertNil(try FavoritesBook(persistence: FileFavoritesPersistence(directory: dir)).problem)
    }

    func testATruncatedFileKeepsEveryCompleteEntry() throws {
        let text = json(list(1...10))
        let cut = text.range(of: "\"id\": 8")!.lowerBound
        write(String(text[..<cut]))
        let book = try FavoritesBook(persistence: FileFavoritesPersistence(directory: dir))
        XCTAssertEqual(book.ids, Array(1...7))
        XCTAssertTrue(book.problem?.contains("7 of its 8 entries were kept") ?? false, book.problem ?? "")
    }

    func testBytesThatAreNotUTF8DropOnlyTheirEntry() throws {
        var bytes = Array(json(list(1...5)).utf8)
        let at = bytes.indices.first { bytes[$0...].starts(with: Array("pokemon-3".utf8)) }!
        bytes[at + 2] = 0xFF
        bytes[at + 3] = 0xFE
        write(bytes)
        let book = try FavoritesBook(persistence: FileFavoritesPersistence(directory: dir))
        XCTAssertEqual(book.ids, [1, 2, 4, 5])
        XCTAssertEqual(FileIO.readFile(dir + "/" + asides()[0]), bytes)
    }

    func testAHundredMegabyteFileKeepsTheEntriesAtItsStartAndIsNotRead() throws {
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        XCTAssertTrue(FileIO.writeAll(fd, Array(json(list(1...5)).dropLast(2).utf8)))
        XCTAssertEqual(ftruncate(fd, 100 << 20), 0)  // then 100 MB of zeros
        close(fd)
        let book = try FavoritesBook(persistence: FileFavoritesPersistence(directory: dir))
        XCTAssertEqual(book.ids, Array(1...5))
        XCTAssertEqual(asides().count, 1)
        var st = stat()
        XCTAssertEqual(stat(dir + "/" + asides()[0], &st), 0)
        XCTAssertEqual(Int(st.st_size), 100 << 20, "kept as it was")
        XCTAssertLessThan(FileIO.fileInfo(path)?.size ?? .max, 4096, "the list itself is small again")
    }

    func testTwoDamagedFilesInOneSecondKeepTwoCopies() throws {
        write("{\"favorites\": [{\"id\": 1, \"name\": \"bulbasaur\", \"added\": 1}, {\"id\": -1")
        _ = try FavoritesBook(persistence: FileFavoritesPersistence(directory: dir))
        write("{\"favorites\": [{\"id\": 4, \"name\": \"charmander\", \"added\": 1}, {\"id\": -1")
        let book = try FavoritesBook(persistence: FileFavoritesPersistence(directory: dir))
        XCTAssertEqual(book.ids, [4])
        let kept = asides()
        XCTAssertEqual(kept.count, 2, "\(kept)")
        XCTAssertEqual(Set(kept.map { read(dir + "/" + $0).contains("bulbasaur") }), [true, false])
    }

    func testGarbageKeepsNothingButSaysSoAndKeepsIt() throws {
        write("this is not JSON {{{")
        let book = try FavoritesBook(persistence: FileFavoritesPersistence(directory: dir))
        XCTAssertEqual(book.ids, [])
        XCTAssertTrue(book.problem?.contains("0 of its 0 entries were kept") ?? false, book.problem ?? "")
        XCTAssertEqual(read(dir + "/" + asides()[0]), "this is not JSON {{{")
    }

    // MARK: A folder that cannot be written

    /// A read-only folder: the list is read, a change is refused with the path, and a damaged
    /// file, which cannot be kept aside, is left as it is while its entries are shown. As root
    /// (CI), the folder is a tmpfs remounted read-only, as mode 0500 does not stop root.
    func testAReadOnlyFolderReadsAndRefusesWithThePath() async throws {
        func run(_ args: String...) -> Int32 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/" + args[0])
            p.arguments = Array(args.dropFirst())
            guard (try? p.run()) != nil else { return -1 }
            p.waitUntilExit()
            return p.terminationStatus
        }
        let root = geteuid() == 0
        if root { try XCTSkipUnless(run("mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", dir) == 0, "cannot mount a tmpfs here") }
        defer { if root { _ = run("umount", dir) } }
        func readOnly(_ on: Bool) {
            if root { XCTAssertEqual(run("mount", "-o", on ? "remount,ro" : "remount,rw", dir), 0) } else { chmod(dir, on ? 0o500 : 0o700) }
        }
        write(json(list(1...3)))
        let persistence = try FileFavoritesPersistence(directory: dir)
        readOnly(true)
        let book = try FavoritesBook(persistence: persistence)
        XCTAssertEqual(book.ids, [1, 2, 3])
        let refused = await add(book)
        let error = try XCTUnwrap(refused)
        XCTAssertTrue(error.contains(path) && (error.contains("Permission denied") || error.contains("Read-only")), error)
        XCTAssertEqual(book.ids, [1, 2, 3])
        readOnly(false)
        write("{\"favorites\": [{\"id\": 1, \"name\": \"bulbasaur\", \"added\": 1}, {\"id\"")
        readOnly(true)
        let damaged = try FavoritesBook(persistence: persistence)
        XCTAssertEqual(damaged.ids, [1])
        XCTAssertTrue(damaged.problem?.contains("could not be kept aside") ?? false, damaged.problem ?? "")
        XCTAssertEqual(asides(), [])
        let stillRefused = await add(damaged)
        XCTAssertNotNil(stillRefused)
        // Writable again: the next change keeps the damaged file aside first, then saves.
        readOnly(false)
        let saved = await add(damaged)
        XCTAssertNil(saved)
        XCTAssertEqual(damaged.ids, [1, 150])
        XCTAssertEqual(asides().count, 1)
    }
}
