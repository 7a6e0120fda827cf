import Foundation
import PokedexBusClient
import PokedexCore
import XCTest

/// A full disk (a 512 KiB tmpfs): the cache stops growing, the service keeps answering, and a
/// favorites change fails with a clear Storage error, leaving the file as it was.
final class DiskFullTests: DaemonTestCase {
    var mountPoint = ""
    override func tearDown() {
        h?.stopDaemon()
        if !mountPoint.isEmpty { _ = run("/bin/umount", [mountPoint]) }
        super.tearDown()
    }

    @discardableResult
    func run(_ tool: String, _ args: [String]) -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = args
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return -1 }
        p.waitUntilExit()
        return p.terminationStatus
    }

    func bytesUsed(_ dir: String) -> Int {
        var total = 0
        let e = FileManager.default.enumerator(atPath: dir)
        while let rel = e?.nextObject() as? String {
            total += (try? FileManager.default.attributesOfItem(atPath: dir + "/" + rel)[.size] as? Int) ?? 0
        }
        return total
    }

    func freeBytes(_ dir: String) -> Int {
        var s = statvfs()
        return statvfs(dir, &s) == 0 ? Int(s.f_bavail) * Int(s.f_frsize) : -1
    }

    func testFullDiskStopsTheCacheNotTheServiceAndFavoritesFailCleanly() throws {
        guard geteuid() == 0 else { throw XCTSkip("mounting a small tmpfs needs root (CI runs as root)") }
        mountPoint = h.home + "/small"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=512k,mode=0700", "tmpfs", mountPoint]) == 0 else {
            mountPoint = ""
            throw XCTSkip("cannot mount a tmpfs here")
        }
        try h.control(["total": 1351])
        try h.startDaemon(["--cache-dir", mountPoint + "/cache", "--data-dir", mountPoint + "/data",
                           "--no-prefetch", "--notify=no", "--disk-cache-mib", "256"])
        let c = try PokedexClient()
        try c.setFavorite("pikachu", true)
        try c.setFavorite("bulbasaur", true)
        for id in 1...20 { _ = try c.detail(String(id)) }

        // Browse far past what fits: every answer still comes, from the network.
        var answered = 0
        for id in 21...300 {
            let d = try c.detail(String(id))
            XCTAssertEqual(d.id, UInt32(id))
            answered += 1
        }
        let full = bytesUsed(mountPoint + "/cache")
        let free = freeBytes(mountPoint)
        XCTAssertLessThan(free, 128 * 1024, "the cache filled the disk up to what it keeps free")
        XCTAssertGreaterThanOrEqual(free, 60 * 1024, "…and no further: \(free) bytes free")
        for id in 301...350 { _ = try c.detail(String(id)) }
        let later = bytesUsed(mountPoint + "/cache")
        XCTAssertLessThanOrEqual(later, full + 16 * 1024, "the cache stopped growing")
        XCTAssertTrue(h.daemonIsRunning)
        XCTAssertEqual(h.daemonLog.components(separatedBy: "is nearly full").count - 1, 1, "the journal says why, once: \(h.daemonLog.split(separator: "\n").filter { $0.contains("disk") })")
        // The space the cache leaves is there for favorites.
        try c.setFavorite("squirtle", true)
        try c.setFavorite("squirtle", false)

        // Fill what little is left, then change a favorite: a Storage error, the file untouched.
        let before = try Data(contentsOf: URL(fileURLWithPath: mountPoint + "/data/favorites.json"))
        let filler = FileManager.default.createFile(atPath: mountPoint + "/filler", contents: nil)
        XCTAssertTrue(filler)
        if let f = FileHandle(forWritingAtPath: mountPoint + "/filler") {
            let block = Data(count: 4096)
            while (try? f.write(contentsOf: block)) != nil {}
            try? f.close()
        }
        let message = assertBusError(errorPrefix + "Storage") { () throws(BusError) in try c.setFavorite("charizard", true) }
        XCTAssertTrue(message.contains("No space left on device"), message)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: mountPoint + "/data/favorites.json")), before, "not torn")
        XCTAssertEqual(try c.listFavorites().map(\.name), ["pikachu", "bulbasaur"], "the failed change is not half-applied")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: mountPoint + "/data")
        XCTAssertEqual(leftovers, ["favorites.json"], "no temporary file left behind")
        // What was cached before the disk filled is still answered with the network gone.
        try h.control(["offline": true])
        for id in 1...20 { XCTAssertEqual(try c.detail(String(id)).id, UInt32(id)) }
        try h.control(["offline": false])

        // Space again: the change goes through.
        try FileManager.default.removeItem(atPath: mountPoint + "/filler")
        try c.setFavorite("charizard", true)
        XCTAssertEqual(try c.listFavorites().map(\.name), ["pikachu", "bulbasaur", "charizard"])
        print("disk full: \(answered + 50) details answered past a full 512 KiB disk; cache held at \(later / 1024) KiB; favorites write refused with Storage: \(message)")
    }
}
