import Foundation
import XCTest
import PokedexBusClient
import PokedexModels

/// Issue 12 over a real bus against the mock: hosts that fail alone, the call deadline across
/// chained fetches, size caps, bad `max-age`, the cost of a re-sync, and HTTP/2 over TLS.
final class RealNetworkTests: DaemonTestCase {
    /// Counts `PropertiesChanged` of `Online` among the signals seen so far.
    func onlineChanges(_ watcher: PokedexSignalWatcher) throws -> Int {
        var n = 0
        while let s = try watcher.next(timeout: 0.3) {
            if s.member == "PropertiesChanged", case .dict(let d)? = s.values.dropFirst().first {
                n += d.filter { $0.key.string == "Online" }.count
            }
        }
        return n
    }

    func hosts(_ c: PokedexClient) throws -> [HostStatus] { try c.status().hosts }

    func testASpriteHostThatDoesNotAnswerFailsAloneAndCostsNoBodies() throws {
        // Sprites on a port nothing listens on; the bodies name it too.
        let blocked = "http://127.0.0.1:1"
        try h.control(["sprite_base": blocked])
        try h.startDaemon(["--sprite-url-template", blocked + "/sprites/{id}.png"], env: ["JOURNAL_STREAM": "8:1"])
        let c = try PokedexClient()
        let watcher = try PokedexSignalWatcher()
        for page in 0..<5 {
            let p = try c.listPage(offset: UInt32(page * 10), limit: 10)
            XCTAssertFalse(p.entries.isEmpty)
        }
        _ = try waitFor("the sprite host marked down", seconds: 10) { try hosts(c).contains { $0.host == "127.0.0.1:1" } ? true : nil }
        let d = try c.detail("pikachu")
        XCTAssertEqual(d.spritePath, "")
        XCTAssertEqual(d.genus, "Mouse Pokémon")
        XCTAssertLessThanOrEqual(try h.requests("pokemon"), 2, "no body fetched to look for sprites on the same host")
        XCTAssertEqual(try onlineChanges(watcher), 0, "Online follows the API host alone")
        XCTAssertTrue(try c.property("Online").bool ?? false)
        let down = try XCTUnwrap(try hosts(c).first { $0.host == "127.0.0.1:1" })
        XCTAssertFalse(down.up)
        XCTAssertFalse(down.isAPI)
        XCTAssertNotNil(down.nextAttempt)
        XCTAssertTrue(try hosts(c).first { $0.isAPI }?.up ?? false)
        // pokectl status says so, one line a host.
        let status = try h.pokectl(["status"]).out
        XCTAssertTrue(status.contains("127.0.0.1:1  down since"), status)
        // The SpritePath call, which needs it, says what is wrong.
        let msg = assertBusError(errorPrefix + "Unavailable") { () throws(BusError) in _ = try c.spritePath("raichu") }
        XCTAssertTrue(msg.contains("127.0.0.1:1"), msg)
        h.stopDaemon()
        let lines = h.daemonLog.split(separator: "\n").filter { $0.contains("127.0.0.1:1") }
        XCTAssertEqual(lines.count, 1, "one journal line for the host going down: \(lines)")
    }

    /// A page is answered while the sprite host has not answered yet (it holds every sprite
    /// request until the test lets go): its rows do not wait on it, and get their sprites once
    /// the host answers. (A card gives its sprite the rest of its deadline: "worth a try".)
    func testAPageDoesNotWaitOnTheSpriteHost() throws {
        let spritePort = try XCTUnwrap(h.spritePort, "the mock's second listener")
        let sprites = "http://localhost:\(spritePort)"
        try h.control(["sprite_base": sprites, "hold_prefix": "/sprites/"])
        try h.startDaemon(["--sprite-host", "localhost", "--sprite-url-template", sprites + "/sprites/{id}.png"])
        let c = try PokedexClient()
        let page = try c.listPage(offset: 0, limit: 10)
        XCTAssertEqual(page.entries.count, 10)
        XCTAssertTrue(page.entries.allSatisfy { $0.spritePath.isEmpty }, "no sprite yet: none was waited for")
        _ = try waitFor("the page's sprites to be asked for", seconds: 10) { (try h.stats()["held"] as? Int ?? 0) >= 1 ? true : nil }
        XCTAssertEqual(try c.listPage(offset: 0, limit: 10).entries.count, 10, "answered again while the sprites are held")
        try h.control(["hold_prefix": ""])
        _ = try waitFor("the page's sprites, once the host answers", seconds: 10) {
            try c.listPage(offset: 0, limit: 10).entries.allSatisfy { !$0.spritePath.isEmpty } ? true : nil
        }
    }

    func testASpriteHostThatComesBackIsFollowedWithOneLineEachWay() throws {
        let spritePort = try XCTUnwrap(h.spritePort, "the mock's second listener")
        let sprites = "http://localhost:\(spritePort)"
        try h.control(["sprite_base": sprites, "sprite_host_offline": true])
        try h.startDaemon(["--sprite-host", "localhost", "--sprite-url-template", sprites + "/sprites/{id}.png"],
                          env: ["JOURNAL_STREAM": "8:1"])
        let c = try PokedexClient()
        _ = try c.listPage(offset: 0, limit: 20)
        _ = try waitFor("the sprite host marked down", seconds: 10) { try hosts(c).contains { $0.host.hasPrefix("localhost") && !$0.up } ? true : nil }
        XCTAssertTrue(try c.property("Online").bool ?? false)
        try h.control(["sprite_host_offline": false])
        do {
            _ = try waitFor("the sprite host back", seconds: 20) { try hosts(c).allSatisfy(\.up) ? true : nil }
        } catch {
            XCTFail("hosts: \(try hosts(c))\nlog: \(h.daemonLog)\nmock: \(try h.stats())")
            throw error
        }
        // Pre-warming resumes: the page's sprites arrive without another call.
        _ = try waitFor("the first page's sprites", seconds: 10) {
            try c.listPage(offset: 0, limit: 20).entries.allSatisfy { !$0.spritePath.isEmpty } ? true : nil
        }
        h.stopDaemon()
        let lines = h.daemonLog.split(separator: "\n").filter { $0.contains("localhost:\(spritePort)") }
        XCTAssertEqual(lines.count, 2, "one line down, one up: \(lines)")
        XCTAssertTrue(lines.first?.hasPrefix("<4>") ?? false, "\(lines)")
        XCTAssertTrue(lines.last?.hasPrefix("<5>") ?? false, "\(lines)")
    }

    func testTheDeadlineBoundsTheWholeCallAndNamesTheStep() throws {
        try h.startDaemon(["--timeout", "1", "--no-prefetch"])
        let c = try PokedexClient()
        _ = try c.listPage(offset: 0, limit: 1)
        // Each step alone is within the deadline; the chain is not. The reply says the call's
        // deadline ended it, during the second step.
        try h.control(["latency_ms": 600, "latency_prefix": "/api/v2/pokemon"])
        let msg = assertBusError(errorPrefix + "Unavailable") { () throws(BusError) in _ = try c.detail("raichu") }
        XCTAssertTrue(msg.contains("within 1 s") && msg.contains("waiting for pokemon-species"), msg)
        _ = try waitFor("the abandoned transfer", seconds: 5) { (try h.stats()["abandoned"] as? Int ?? 0) >= 1 ? true : nil }
    }

    func testBodiesOverTheirCapAreRefusedForGoodAndNeverDownAHost() throws {
        try h.startDaemon(["--no-prefetch"])
        let c = try PokedexClient()
        _ = try c.listPage(offset: 0, limit: 1)
        try h.resetStats()
        try h.control(["oversize": ["pokemon": 5 << 20, "sprite": 2 << 20]])
        let msg = assertBusError(errorPrefix + "Unavailable") { () throws(BusError) in _ = try c.detail("raichu") }
        XCTAssertTrue(msg.contains("larger than any real one"), msg)
        XCTAssertEqual(try h.requests("pokemon"), 1, "a body over its cap is not retried")
        let sprite = assertBusError(errorPrefix + "Unavailable") { () throws(BusError) in _ = try c.spritePath("zubat") }
        XCTAssertTrue(sprite.contains("larger than any real one"), sprite)
        XCTAssertEqual(try h.requests("sprite"), 1)
        // Counted as it arrives too, with no Content-Length to refuse it from.
        try h.control(["oversize_no_length": true])
        assertBusError(errorPrefix + "Unavailable") { () throws(BusError) in _ = try c.detail("oddish") }
        XCTAssertTrue(try c.property("Online").bool ?? false)
        XCTAssertTrue(try hosts(c).allSatisfy(\.up))
        try h.control(["oversize": [String: Int](), "oversize_no_length": false])
        XCTAssertEqual(try c.detail("raichu").name, "raichu")
    }

    func testABadMaxAgeIsTheDefaultLifetimeNotARefetchLoop() throws {
        for value in ["inf", "nan", "-1", "1e9", "abc"] {
            try h.control(["max_age": value])
            try h.startDaemon(["--no-prefetch"])
            let c = try PokedexClient()
            try h.resetStats()
            for _ in 0..<5 { XCTAssertEqual(try c.detail("pikachu").name, "pikachu") }
            usleep(300_000)
            XCTAssertLessThanOrEqual(try h.requests("pokemon"), 1, "max-age=\(value)")
            h.stopDaemon()
            try? FileManager.default.removeItem(atPath: h.home + "/cache")
        }
    }

    func testASecondSyncCostsNothingAndALateOneOnly304s() throws {
        try h.control(["max_age": 2])
        try h.startDaemon(["--no-prefetch"])
        let c = try PokedexClient()
        XCTAssertEqual(try c.sync { _, _, _ in }.complete, 46)
        try h.resetStats()
        XCTAssertEqual(try c.sync { _, _, _ in }.complete, 46)
        XCTAssertEqual(try h.stats()["requests"] as? Int, 0, "within max-age: no request at all")
        usleep(2_200_000)
        try h.resetStats()
        XCTAssertEqual(try c.sync { _, _, _ in }.complete, 46)
        let stats = try h.stats()
        XCTAssertGreaterThanOrEqual(stats["not_modified"] as? Int ?? 0, 46, "revalidated: \(stats)")
        XCTAssertEqual(stats["gzip"] as? Int ?? -1, 0, "no body sent again: \(stats)")
    }

    func testHTTP2OverTLSOneConnectionManyStreams() throws {
        let state = h.home + "/h2"
        let front = Process()
        front.executableURL = URL(fileURLWithPath: "/bin/bash")
        front.arguments = [Harness.packageRoot + "/Tests/support/mockapi/h2-front.sh", "--upstream-port", String(h.mockURL.split(separator: ":").last!),
                           "--state-dir", state]
        // nginx goes on as a daemon: it must hold none of this process's descriptors.
        front.standardInput = FileHandle.nullDevice
        front.standardOutput = FileHandle.nullDevice
        front.standardError = FileHandle.nullDevice
        try front.run()
        front.waitUntilExit()
        if front.terminationStatus == 77 { throw XCTSkip("nginx is not installed: HTTP/2 over TLS is not tested here (make deps installs it)") }
        XCTAssertEqual(front.terminationStatus, 0, "h2-front.sh started nginx")
        defer {
            let stop = Process()
            stop.executableURL = URL(fileURLWithPath: "/bin/bash")
            stop.arguments = [Harness.packageRoot + "/Tests/support/mockapi/h2-front.sh", "stop", "--state-dir", state]
            stop.standardOutput = FileHandle.nullDevice
            try? stop.run()
            stop.waitUntilExit()
        }
        let port = try String(contentsOfFile: state + "/port", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let base = "https://127.0.0.1:\(port)"
        try h.startDaemon(["--api-url", base + "/api/v2", "--sprite-url-template", base + "/sprites/{id}.png", "--ca-file", state + "/ca.crt"])
        let c = try PokedexClient()
        _ = try waitFor("the first page's sprites over HTTP/2", seconds: 15) {
            try c.listPage(offset: 0, limit: 20).entries.allSatisfy { !$0.spritePath.isEmpty } ? true : nil
        }
        XCTAssertEqual(try c.detail("pikachu").genus, "Mouse Pokémon")
        let api = try XCTUnwrap(try hosts(c).first { $0.isAPI })
        XCTAssertEqual(api.host, "127.0.0.1:\(port)")
        XCTAssertEqual(api.multiplexed, true, "HTTP/2 was negotiated")
        // One TCP connection from the daemon to the front, however many requests went over it.
        let pid = try XCTUnwrap(h.daemon?.processIdentifier)
        let ss = Process()
        ss.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ss.arguments = ["ss", "-tnpH", "state", "established", "dst", "127.0.0.1:\(port)"]
        let out = Pipe()
        ss.standardOutput = out
        try ss.run()
        ss.waitUntilExit()
        let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").filter { $0.contains("pid=\(pid),") }
        XCTAssertEqual(lines.count, 1, "one connection, multiplexed: \(lines)")
        XCTAssertGreaterThan(try h.stats()["requests"] as? Int ?? 0, 20)
    }
}
