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

    /// Damage to a record's entry in its pack: a miss, removed, never served; the records
    /// written before and after it are read as before, now and after a restart.
    func testDamagedRecordsAreMissesAndRemoved() throws {
        let damages: [(String, (inout [UInt8], (offset: Int, length: Int, payload: Int)) -> Void)] = [
            ("payload flipped", { b, e in b[e.payload + 5] ^= 0xFF }),
            ("payload zeroed", { b, e in for i in e.payload..<(e.offset + e.length) { b[i] = 0 } }),
            ("key flipped", { b, e in b[e.offset + PackEntry.headSize] ^= 0x01 }),
            ("length in the head changed", { b, e in b[e.offset + 12] ^= 0x40 }),
            ("whole entry garbage", { b, e in for i in e.offset..<(e.offset + e.length) { b[i] = UInt8.random(in: 0...255) } }),
            ("whole entry zeroed", { b, e in for i in e.offset..<(e.offset + e.length) { b[i] = 0 } }),
        ]
        for (damage, apply) in damages {
            let dir = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let store = try FileCacheStore(directory: dir, capacity: 1 << 20)
            for id in 24...26 {
                try store.writeRecord("pokemon/\(id)", StoredRecord(payload: Array(repeating: UInt8(40 + id), count: 300), freshness: fresh))
            }
            let e = try XCTUnwrap(FileCacheStore.entry(of: "pokemon/25", root: store.root))
            var bytes = try XCTUnwrap(FileIO.readFile(e.path))
            apply(&bytes, (e.offset, e.length, e.payloadOffset))
            try Data(bytes).write(to: URL(fileURLWithPath: e.path))
            // The listing reads heads: an entry whose head is damaged is named, unreadable, while
            // the store that wrote it runs.
            let listed = try store.listing().first { $0.name == "pokemon/25" }
            XCTAssertEqual(listed?.kind, .record(freshness: damage.hasPrefix("payload") ? fresh : nil), damage)
            for (when, s) in [("as it runs", store), ("after a restart", try FileCacheStore(directory: dir, capacity: 1 << 20))] {
                XCTAssertNil(s.readRecord("pokemon/25"), "\(damage), \(when)")
                for id in [24, 26] {
                    XCTAssertEqual(s.readRecord("pokemon/\(id)")?.payload, Array(repeating: UInt8(40 + id), count: 300), "\(damage), \(when): #\(id)")
                }
            }
            XCTAssertNil(FileCacheStore.entry(of: "pokemon/25", root: store.root), "\(damage): removed")
            XCTAssertFalse(try store.listing().contains { $0.name == "pokemon/25" }, damage)
        }
    }

    /// A write cut short leaves half an entry at the end of the pack: cut off at the next open,
    /// and the next record is written after the last whole one.
    func testATornLastEntryIsCutOffAtOpen() throws {
        let store = try FileCacheStore(directory: dir, capacity: 1 << 20)
        try store.writeRecord("pokemon/1", StoredRecord(payload: Array("one".utf8), freshness: fresh))
        let e = try XCTUnwrap(FileCacheStore.entry(of: "pokemon/1", root: store.root))
        let whole = try XCTUnwrap(FileIO.readFile(e.path))
        let torn = try XCTUnwrap(PackEntry.encode(key: "pokemon/2", StoredRecord(payload: Array(repeating: 7, count: 900), freshness: fresh))).bytes
        try Data(whole + torn.prefix(500)).write(to: URL(fileURLWithPath: e.path))
        let reopened = try FileCacheStore(directory: dir, capacity: 1 << 20)
        XCTAssertEqual(FileIO.fileInfo(e.path)?.size, whole.count, "the torn entry is cut off")
        XCTAssertNil(reopened.readRecord("pokemon/2"))
        try reopened.writeRecord("pokemon/3", StoredRecord(payload: Array("three".utf8), freshness: fresh))
        let again = try FileCacheStore(directory: dir, capacity: 1 << 20)
        XCTAssertEqual(again.readRecord("pokemon/1")?.payload, Array("one".utf8))
        XCTAssertEqual(again.readRecord("pokemon/3")?.payload, Array("three".utf8))
    }

    func testInterruptedSpriteWritesAreCleanedAtOpen() throws {
        _ = try FileCacheStore(directory: dir, capacity: 1 << 20)
        let leftover = dir + "/v2/sprites/.1.png.tmp.123.1"
        try FileIO.writeAtomically(Array("half".utf8), to: leftover, durable: false)
        _ = try FileCacheStore(directory: dir, capacity: 1 << 20)
        XCTAssertNil(FileIO.fileInfo(leftover))
    }

    /// A removed record stays removed after a restart; a record written again is read as its
    /// newest; the packs do not grow with rewrites (the dead entries are compacted away).
    func testRemovalsAndRewritesLastAndTheirSpaceComesBack() throws {
        let store = try FileCacheStore(directory: dir, capacity: 1 << 20)  // packs of 128 KiB
        try store.writeRecord("pokemon/1", StoredRecord(payload: Array("one".utf8), freshness: fresh))
        try store.writeRecord("pokemon/2", StoredRecord(payload: Array("two".utf8), freshness: fresh))
        store.removeRecord("pokemon/1")
        for i in 0..<2_000 {
            try store.writeRecord("pokemon/3", StoredRecord(payload: Array(repeating: UInt8(i & 0xFF), count: 1_000), freshness: fresh))
            XCTAssertLessThanOrEqual(store.usage.bytes, 3 * 128 << 10, "after \(i) rewrites")
        }
        let reopened = try FileCacheStore(directory: dir, capacity: 1 << 20)
        XCTAssertNil(reopened.readRecord("pokemon/1"), "removed before the rewrites compacted its pack away")
        XCTAssertEqual(reopened.readRecord("pokemon/2")?.payload, Array("two".utf8))
        XCTAssertEqual(reopened.readRecord("pokemon/3")?.payload, Array(repeating: UInt8(1_999 & 0xFF), count: 1_000))
        XCTAssertEqual(reopened.usage.entries, 2)
        XCTAssertLessThan((try FileIO.names(in: store.root + "/records")).count, 4, "a few packs, not a file a record")
    }

    func testListingReadsHeadsAndRemoveAllKeepsTheAccounting() throws {
        let store = try FileCacheStore(directory: dir, capacity: 1 << 20)
        let records = store.root + "/records/", sprites = store.root + "/sprites/"
        let later = Freshness(etag: nil, fetchedAt: Date(timeIntervalSince1970: 2000), maxAge: 30)
        try store.writeRecord("pokemon/25", StoredRecord(payload: Array(repeating: 65, count: 300), freshness: fresh))
        try store.writeRecord("index/pokemon", StoredRecord(payload: Array("[]".utf8), freshness: fresh))
        try store.writeRecord("pokemon/26", StoredRecord(payload: Array("x".utf8), freshness: fresh))
        try store.writeRecord("pokemon/26", StoredRecord(payload: Array("xy".utf8), freshness: later))
        try store.writeRecord("pokemon/27", StoredRecord(payload: Array("z".utf8), freshness: fresh))
        store.removeRecord("pokemon/27")
        _ = try store.writeSprite("25.png", makePNG((1, 2, 3)))
        try FileIO.writeAtomically(Array("notes".utf8), to: records + "notes.txt", durable: false)
        try FileIO.writeAtomically(Array("half".utf8), to: sprites + ".26.png.tmp.4000000.1", durable: false)
        let inFlight = sprites + ".27.png.tmp.\(getpid()).5"
        try FileIO.writeAtomically(Array("being written".utf8), to: inFlight, durable: false)

        let listed = try store.listing().sorted { $0.name < $1.name }
        func size(_ key: String) -> Int { FileCacheStore.entry(of: key, root: store.root)?.length ?? -1 }
        XCTAssertEqual(listed, [
            CachedFile(name: "25.png", kind: .sprite, size: FileIO.fileInfo(sprites + "25.png")?.size ?? -1),
            CachedFile(name: "index/pokemon", kind: .record(freshness: fresh), size: size("index/pokemon")),
            CachedFile(name: "pokemon/25", kind: .record(freshness: fresh), size: size("pokemon/25")),
            CachedFile(name: "pokemon/26", kind: .record(freshness: later), size: size("pokemon/26")),
            CachedFile(name: "records/notes.txt", kind: .stray, size: 5),
            CachedFile(name: "sprites/.26.png.tmp.4000000.1", kind: .stray, size: 4),
        ])

        store.removeStray("../v2/records/notes.txt")
        store.removeStray("records/00000001.pack")
        XCTAssertNotNil(FileIO.fileInfo(records + "notes.txt"), "only a file in the store's own directories, by its listed name")
        XCTAssertNotNil(store.readRecord("pokemon/25"), "never a pack")
        store.removeStray("records/notes.txt")
        XCTAssertNil(FileIO.fileInfo(records + "notes.txt"))

        let expected = try store.listing()
        let onDisk = store.usage.bytes + 4  // and the stray
        let removed = try store.removeAll()
        XCTAssertEqual(removed.files, expected.count)
        XCTAssertEqual(removed.bytes, onDisk, "every byte of the packs, replaced and removed entries too")
        XCTAssertEqual(try store.listing(), [])
        XCTAssertEqual(store.usage.entries, 0)
        XCTAssertEqual(store.usage.bytes, 0)
        XCTAssertNotNil(FileIO.fileInfo(inFlight), "a file being written is left to its writer")
        try store.writeRecord("pokemon/1", StoredRecord(payload: Array("x".utf8), freshness: fresh))
        XCTAssertEqual(store.usage.entries, 1, "the accounting goes on from nothing")
        XCTAssertEqual(store.usage.bytes, size("pokemon/1"))
    }

    /// A `v1` cache (a file a record) opens after the upgrade with every whole record and
    /// sprite in `v2`, nothing to fetch again, and `v1` gone; a damaged record is left out.
    func testAVersion1CacheIsMovedIn() throws {
        let v1 = dir + "/v1"
        try FileIO.makeDirectory(v1 + "/records")
        try FileIO.makeDirectory(v1 + "/sprites")
        var written: [String: StoredRecord] = [:]
        for (i, key) in ["pokemon/25", "species/25", "sprite/25", "names-type/electric", "meta/search-filters", "index/pokemon"].enumerated() {
            let record = StoredRecord(payload: Array("{\"n\":\(i)}".utf8), freshness: i == 0 ? fresh : Freshness(etag: nil, fetchedAt: Date(timeIntervalSince1970: 5), maxAge: 1))
            written[key] = record
            let name = key.replacingOccurrences(of: "/", with: "_") + ".rec"
            try FileIO.writeAtomically(try FileCacheStore.Version1.encode(key: key, record), to: v1 + "/records/" + name, durable: false)
        }
        var damaged = try FileCacheStore.Version1.encode(key: "pokemon/26", StoredRecord(payload: Array("{}".utf8), freshness: fresh))
        damaged[damaged.count - 1] ^= 1
        try FileIO.writeAtomically(damaged, to: v1 + "/records/pokemon_26.rec", durable: false)
        let png = makePNG((1, 2, 3))
        try FileIO.writeAtomically(png, to: v1 + "/sprites/25.png", durable: false)

        let store = try FileCacheStore(directory: dir, capacity: 1 << 20)
        for (key, record) in written { XCTAssertEqual(store.readRecord(key), record, key) }
        XCTAssertNil(store.readRecord("pokemon/26"))
        XCTAssertEqual(store.readSprite("25.png"), png)
        XCTAssertEqual(store.spritePath("25.png"), dir + "/v2/sprites/25.png")
        XCTAssertNil(FileIO.fileInfo(v1 + "/records/pokemon_25.rec"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: v1), "v1 is gone")
        XCTAssertEqual(store.usage.entries, written.count + 1)
        let reopened = try FileCacheStore(directory: dir, capacity: 1 << 20)
        for (key, record) in written { XCTAssertEqual(reopened.readRecord(key), record, key) }
    }

    func testEvictsOldestToStayUnderCap() throws {
        let store = try FileCacheStore(directory: dir, capacity: 10_000)
        for i in 0..<30 {
            try store.writeRecord("pokemon/\(i)", StoredRecord(payload: Array(repeating: 1, count: 900), freshness: fresh))
            XCTAssertLessThanOrEqual(store.usage.bytes, 10_000)
        }
        XCTAssertNotNil(store.readRecord("pokemon/29"))
        XCTAssertNil(store.readRecord("pokemon/0"))
        let reopened = try FileCacheStore(directory: dir, capacity: 10_000)
        XCTAssertNotNil(reopened.readRecord("pokemon/29"))
        XCTAssertNil(reopened.readRecord("pokemon/0"), "evicted, and its pack compacted away")
        XCTAssertLessThanOrEqual(reopened.usage.bytes, 10_000)
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

    /// The free space is looked at again before what was written since could reach the reserve
    /// (DiskFullTests fills a real 512 KiB disk). A write is charged its whole blocks and one
    /// more: 1 KiB sprites take 4 KiB of a tmpfs each.
    func testTheDiskIsLookedAtAgainBeforeItsReserveCouldBeReached() {
        var r = FileCacheStore.Room()
        XCTAssertFalse(r.covers(1), "never looked at")
        (r.looked, r.free, r.keep, r.block) = (true, 10 << 30, 256 << 20, 4096)
        XCTAssertEqual(r.charge(1), 8192)
        XCTAssertEqual(r.charge(4096), 8192)
        XCTAssertEqual(r.charge(4097), 12288)
        XCTAssertTrue(r.covers((1 << 20) - 4096))
        XCTAssertFalse(r.covers((1 << 20) - 4095), "a MiB between looks at most")
        r.writtenSince = 1 << 19
        XCTAssertTrue(r.covers((1 << 19) - 4096))
        XCTAssertFalse(r.covers((1 << 19) - 4095), "what was charged since counts")
        (r.free, r.keep, r.writtenSince) = (400 << 10, 64 << 10, 0)
        XCTAssertTrue(r.covers(12 << 10))
        XCTAssertFalse(r.covers((12 << 10) + 1), "a quarter of a small disk's reserve")
        r.free = 80 << 10
        XCTAssertTrue(r.covers(4 << 10))
        XCTAssertFalse(r.covers((4 << 10) + 1), "half of what is left above the reserve")
        r.free = 66 << 10
        XCTAssertFalse(r.covers(0), "near the reserve: every write looks")
        (r.free, r.refusing) = (10 << 30, true)
        XCTAssertFalse(r.covers(1), "refusing: every write looks, to see the room come back")
    }
}
