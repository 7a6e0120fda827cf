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
