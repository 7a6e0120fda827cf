import Foundation
import Glibc
import PokedexBusClient
import PokedexCore
import XCTest

/// Where the outside meets the service: bus input, signals anyone can send, directories and
/// options from the command line, and the way out (idle exit, SIGTERM).
final class BoundaryTests: DaemonTestCase {
    func testNamesAndQueriesOverTheCapAreRefusedBeforeAnyWork() throws {
        try h.startDaemon(["--no-prefetch"])
        let c = try PokedexClient()
        try h.resetStats()
        let long = String(repeating: "pikachu", count: 40)  // 280 bytes
        let messages = [
            assertBusError(errorPrefix + "InvalidArgument") { () throws(BusError) in _ = try c.detail(long) },
            assertBusError(errorPrefix + "InvalidArgument") { () throws(BusError) in _ = try c.search(long, limit: 5) },
            assertBusError(errorPrefix + "InvalidArgument") { () throws(BusError) in _ = try c.spritePath(long) },
            assertBusError(errorPrefix + "InvalidArgument") { () throws(BusError) in try c.setFavorite(long, true) },
        ]
        for message in messages { XCTAssertTrue(message.contains("280 bytes"), message) }
        XCTAssertEqual(try h.stats()["requests"] as? Int, 0, "refused before anything was fetched")
        // At the cap, the call is an ordinary lookup.
        assertBusError(errorPrefix + "NotFound") { () throws(BusError) in _ = try c.detail(String(repeating: "a", count: 256)) }
        let ctl = try h.pokectl(["show", long])
        XCTAssertEqual(ctl.status, 2, "a usage error: \(ctl.err)")
        XCTAssertTrue(ctl.err.contains("longer than"), ctl.err)
    }

    func testWatchIgnoresSignalsFromAnyoneButTheService() throws {
        try h.startDaemon(["--no-prefetch"])
        let watcher = try PokedexSignalWatcher()
        // Anyone on the bus can send a signal with the service's path and interface.
        let forged = Process()
        forged.executableURL = URL(fileURLWithPath: "/usr/bin/busctl")
        forged.arguments = ["--address=" + h.busAddress, "emit", Pokedex1.objectPath, Pokedex1.interfaceName,
                            Pokedex1.favoriteChanged.name, "usb", "150", "mewtwo", "true"]
        try forged.run()
        forged.waitUntilExit()
        XCTAssertEqual(forged.terminationStatus, 0, "busctl emit ran")
        try PokedexClient().setFavorite("pikachu", true)
        var names: [String] = []
        while let s = try watcher.next(timeout: 1.5) {
            if s.member == Pokedex1.favoriteChanged.name { names.append(s.values[1].string ?? "?") }
        }
        XCTAssertEqual(names, ["pikachu"], "the forged signal was dropped")
        // The owner is followed across a restart: a new unique name is still the service.
        XCTAssertEqual(h.stopDaemon(), 0)
        try h.startDaemon(["--no-prefetch"])
        try PokedexClient().setFavorite("pikachu", false)
        var after: [String] = []
        while let s = try watcher.next(timeout: 1.5) {
            if s.member == Pokedex1.favoriteChanged.name { after.append(s.values[1].string ?? "?") }
        }
        XCTAssertEqual(after, ["pikachu"])
    }

    func testARelativeCacheDirIsResolvedAgainstTheWorkingDirectory() throws {
        let work = h.home + "/work"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try h.startDaemon(["--cache-dir", "rel/cache", "--data-dir", "./rel/../data2"], directory: work)
        let s = try PokedexClient().status()
        XCTAssertEqual(s.cacheDirectory, work + "/rel/cache")
        XCTAssertEqual(s.dataDirectory, work + "/data2")
        _ = try PokedexClient().listPage(offset: 0, limit: 3)
        XCTAssertTrue(FileManager.default.fileExists(atPath: work + "/rel/cache/v2/records"))
    }

    /// pokedexd run directly, not on the bus: its exit status and what it said.
    func run(_ args: [String]) throws -> (status: Int32, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Harness.buildDir + "/pokedexd")
        p.arguments = ["--notify=no", "--idle-timeout", "0"] + args
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = h.busAddress
        env["HOME"] = h.home
        p.environment = env
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: e, as: UTF8.self))
    }

    func testDirectoriesOthersCanWriteAreRefusedWithAClearError() throws {
        let shared = h.home + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        chmod(shared, 0o777)
        let cache = try run(["--cache-dir", shared, "--data-dir", h.home + "/d"])
        XCTAssertNotEqual(cache.status, 0)
        XCTAssertTrue(cache.err.contains("refusing the cache directory \(shared)") && cache.err.contains("chmod go-w"), cache.err)
        let data = try run(["--cache-dir", h.home + "/c", "--data-dir", shared])
        XCTAssertTrue(data.err.contains("refusing the data directory \(shared)"), data.err)
    }

    func testAnHTTPSpriteTemplateBesideAnHTTPSAPIIsRefusedAtStart() throws {
        let r = try run(["--api-url", "https://pokeapi.co/api/v2", "--sprite-url-template", "http://raw.githubusercontent.com/{id}.png"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.err.contains("is not https while the API is"), r.err)
    }

    // MARK: The way out

    /// A datagram socket standing in for systemd's notify socket: what pokedexd tells it, in order.
    final class NotifySocket {
        let path: String
        let fd: Int32
        init(path: String) throws {
            self.path = path
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &addr.sun_path) { raw in
                for (i, b) in path.utf8.enumerated() { raw[i] = b }
            }
            let r = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard r == 0 else { throw HarnessError("cannot bind \(path)") }
        }
        deinit { close(fd); unlink(path) }

        /// Messages received within `seconds`, until `last` arrives.
        func messages(until last: String, seconds: Double) -> [String] {
            var out: [String] = []
            let end = Date().addingTimeInterval(seconds)
            while Date() < end, !out.contains(where: { $0.contains(last) }) {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, 200) > 0 else { continue }
                var buf = [UInt8](repeating: 0, count: 4096)
                let n = recv(fd, &buf, buf.count, 0)
                if n > 0 { out.append(String(decoding: buf[0..<n], as: UTF8.self)) }
            }
            return out
        }
    }

    func testIdleExitTellsSystemdItIsStoppingBeforeTheNameGoes() throws {
        let notify = try NotifySocket(path: h.home + "/notify.sock")
        try h.startDaemon(["--idle-timeout", "1", "--no-prefetch", "--notify=yes"], env: ["NOTIFY_SOCKET": notify.path])
        let said = notify.messages(until: "STOPPING=1", seconds: 10)
        XCTAssertEqual(said.filter { $0.contains("READY=1") }.count, 1, "\(said)")
        XCTAssertTrue(said.last?.contains("STOPPING=1") == true, "\(said)")
        XCTAssertEqual(h.stopDaemon(0), 0, "then it exits cleanly")
        XCTAssertTrue(h.daemonLog.contains("idle for 1 s"), h.daemonLog)
    }

    func testACallFailedAtShutdownSaysNothingWasChanged() throws {
        // The list, which the name is looked up in, takes 8 s: longer than the 5 s grace.
        try h.control(["latency_ms": 8000, "latency_prefix": "/api/v2/pokemon"])
        try h.startDaemon(["--no-prefetch", "--timeout", "30"])
        let result = Box("")
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do { result.value = "\(try PokedexClient(timeout: 30).changeFavorite("raichu", .toggle))" } catch { result.value = "\(error)" }
            done.signal()
        }
        usleep(300_000)
        XCTAssertEqual(h.stopDaemon(SIGTERM), 0)
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertTrue(result.value.contains("shutting down") && result.value.contains("nothing was changed"), result.value)
        // And it was not: the favorite is not there after a restart.
        try h.control(["latency_ms": 0])
        try h.startDaemon(["--no-prefetch"])
        XCTAssertEqual(try PokedexClient().listFavorites().count, 0)
    }
}
