import XCTest
import PokedexTestKit
@testable import PokedexCore

final class FileCacheStoreTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    let fresh = Freshness(etag: "\"e1\"", fetchedAt: Date(timeIntervalSince1970: 1000), maxAge: 60)

    func testRoundTripSurvivesReopen() throws {
        let store = try FileCacheStore(directory: dir, capacity: 1 << 20)
        try store.writeRecord("pokemon/25", StoredRecord(payload: Array("pika".utf8), freshness: fresh))
        let reopened = try FileCacheStore(directory: dir, capacity: 1 << 20)
        XCTAssertEqual(reopened.readRecord("pokemon/25"), StoredRecord(payload: Array("pika".utf8), freshness: fresh))
        XCTAssertEqual(reopened.usage.entries, 1)
    }

    func testDamagedRecordsAreMissesAndRemoved() throws {
        let store = try FileCacheStore(directory: dir, capacity: 1 << 20)
        let path = store.root + "/records/pokemon_25.rec"
        for damage in ["truncate", "zero", "flip", "garbage", "swap"] {
            try store.writeRecord("pokemon/25", StoredRecord(payload: Array(repeating: 65, count: 300), freshness: fresh))
            try store.writeRecord("pokemon/26", StoredRecord(payload: Array(repeating: 66, count: 300), freshness: fresh))
            var bytes = try XCTUnwrap(FileIO.readFile(path))
            switch damage {
            case "truncate": bytes.removeLast(10)
            case "zero": bytes = Array(repeating: 0, count: bytes.count)
            case "flip": bytes[bytes.count - 5] ^= 0xFF
            case "garbage": bytes = Array("not a record at all".utf8)
            default: bytes = try XCTUnwrap(FileIO.readFile(store.root + "/records/pokemon_26.rec"))  // 26's file under 25's name
            }
            try FileIO.writeAtomically(bytes, to: path, durable: false)
            XCTAssertNil(store.readRecord("pokemon/25"), damage)
            XCTAssertNil(FileIO.fileInfo(path), "\(damage): damaged file should be removed")
        }
    }

    func testInterruptedWritesAreCleanedAtOpen() throws {
        _ = try FileCacheStore(directory: dir, capacity: 1 << 20)
        let leftover = dir + "/v1/records/.pokemon_1.rec.tmp.123.1"
        try FileIO.writeAtomically(Array("half".utf8), to: leftover, durable: false)
        _ = try FileCacheStore(directory: dir, capacity: 1 << 20)
        XCTAssertNil(FileIO.fileInfo(leftover))
    }

    func testListingReadsHeadersAndRemoveAllKeepsTheAccounting() throws {
        let store = try FileCacheStore(directory: dir, capacity: 1 << 20)
        let records = store.root + "/records/", sprites = store.root + "/sprites/"
        try store.writeRecord("pokemon/25", StoredRecord(payload: Array(repeating: 65, count: 300), freshness: fresh))
        try store.writeRecord("index/pokemon", StoredRecord(payload: Array("[]".utf8), freshness: fresh))
        _ = try store.writeSprite("25.png", makePNG((1, 2, 3)))
        // 25's file under 27's name: its header names another key.
        try FileIO.writeAtomically(try XCTUnwrap(FileIO.readFile(records + "pokemon_25.rec")), to: records + "pokemon_27.rec", durable: false)
        try FileIO.writeAtomically(Array("notes".utf8), to: records + "notes.txt", durable: false)
        try FileIO.writeAtomically(Array("half".utf8), to: sprites + ".26.png.tmp.4000000.1", durable: false)
        let inFlight = sprites + ".27.png.tmp.\(getpid()).5"
        try FileIO.writeAtomically(Array("being written".utf8), to: inFlight, durable: false)

        let listed = try store.listing().sorted { $0.name < $1.name }
        func size(_ path: String) -> Int { FileIO.fileInfo(path)?.size ?? -1 }
        XCTAssertEqual(listed, [
            CachedFile(name: "25.png", kind: .sprite, size: size(sprites + "25.png")),
            CachedFile(name: "index/pokemon", kind: .record(freshness: fresh), size: size(records + "index_pokemon.rec")),
            CachedFile(name: "pokemon/25", kind: .record(freshness: fresh), size: size(records + "pokemon_25.rec")),
            CachedFile(name: "pokemon/27", kind: .record(freshness: nil), size: size(records + "pokemon_27.rec")),
            CachedFile(name: "records/notes.txt", kind: .stray, size: 5),
            CachedFile(name: "sprites/.26.png.tmp.4000000.1", kind: .stray, size: 4),
        ])
        XCTAssertEqual(FileCacheStore.key(ofRecordFile: "sprite-animated_25.rec"), "sprite-animated/25")
        XCTAssertEqual(FileCacheStore.key(ofRecordFile: "meta_search-filters.rec"), "meta/search-filters")

        store.removeStray("../v1/records/pokemon_25.rec")
        store.removeStray("records/notes.txt")
        XCTAssertNotNil(store.readRecord("pokemon/25"), "only a file in the store's own directories, by its listed name")
        XCTAssertNil(FileIO.fileInfo(records + "notes.txt"))

        let expected = try store.listing()
        let removed = try store.removeAll()
        XCTAssertEqual(removed.files, expected.count)
        XCTAssertEqual(removed.bytes, expected.map(\.size).reduce(0, +))
        XCTAssertEqual(try store.listing(), [])
        XCTAssertEqual(store.usage.entries, 0)
        XCTAssertEqual(store.usage.bytes, 0)
        XCTAssertNotNil(FileIO.fileInfo(inFlight), "a file being written is left to its writer")
        try store.writeRecord("pokemon/1", StoredRecord(payload: Array("x".utf8), freshness: fresh))
        XCTAssertEqual(store.usage.entries, 1, "the accounting goes on from nothing")
        XCTAssertEqual(store.usage.bytes, size(records + "pokemon_1.rec"))
    }

    func testEvictsOldestToStayUnderCap() throws {
        let store = try FileCacheStore(directory: dir, capacity: 10_000)
        for i in 0..<30 {
            try store.writeRecord("pokemon/\(i)", StoredRecord(payload: Array(repeating: 1, count: 900), freshness: fresh))
            XCTAssertLessThanOrEqual(store.usage.bytes, 10_000)
        }
        XCTAssertNotNil(store.readRecord("pokemon/29"))
        XCTAssertNil(store.readRecord("pokemon/0"))
    }

    func testFilesArePrivate() throws {
        let store = try FileCacheStore(directory: dir, capacity: 1 << 20)
        let path = try store.writeSprite("1.png", makePNG((1, 2, 3)))
        let attrs = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attrs[.posixPermissions] as? Int).map { $0 & 0o777 }, 0o600)
        let dirAttrs = try FileManager.default.attributesOfItem(atPath: store.root + "/sprites")
        XCTAssertEqual((dirAttrs[.posixPermissions] as? Int).map { $0 & 0o777 }, 0o700)
    }

    func testPNGCheck() {
        let png = makePNG((200, 10, 10))
        XCTAssertTrue(PNGCheck.isValid(png))
        XCTAssertFalse(PNGCheck.isValid(Array(png.dropLast(3))))
        var flipped = png
        flipped[40] ^= 1
        XCTAssertFalse(PNGCheck.isValid(flipped))
        XCTAssertFalse(PNGCheck.isValid(Array("<html>".utf8)))
        XCTAssertFalse(PNGCheck.isValid([]))
    }

    func testKeepsPartOfTheDiskFreeForEverythingElse() {
        XCTAssertEqual(FileCacheStore.keepFree(filesystemBytes: 512 << 10), 64 << 10, "at least 64 KiB")
        XCTAssertEqual(FileCacheStore.keepFree(filesystemBytes: 2 << 30), (2 << 30) / 20, "5% in between")
        XCTAssertEqual(FileCacheStore.keepFree(filesystemBytes: 1 << 40), 256 << 20, "at most 256 MiB")
    }
}
