import Foundation
import PokedexBusClient
import XCTest

/// Desktop notifications, end to end: pokedexd on a private bus with a recording
/// `org.freedesktop.Notifications` server (Tests/support/mocknotify/notification_recorder.py).
final class NotificationTests: DaemonTestCase {
    var recorder: Process?
    var log: String { h.home + "/notifications.jsonl" }

    override func tearDown() {
        stopRecorder()
        super.tearDown()
    }

    func startRecorder() throws {
        let ready = h.home + "/recorder.ready"
        try? FileManager.default.removeItem(atPath: ready)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [Harness.packageRoot + "/Tests/support/mocknotify/notification_recorder.py", "--log", log, "--ready", ready]
        p.environment = ProcessInfo.processInfo.environment.merging(["DBUS_SESSION_BUS_ADDRESS": h.busAddress]) { $1 }
        try p.run()
        recorder = p
        _ = try waitFor("the notification recorder", seconds: 10) { FileManager.default.fileExists(atPath: ready) ? true : nil }
    }

    func stopRecorder() {
        if let p = recorder, p.isRunning { p.terminate(); p.waitUntilExit() }
        recorder = nil
    }

    /// Every call the recorder has seen, in order.
    func calls() -> [[String: Any]] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    func notifies() -> [[String: Any]] { calls().filter { $0["member"] as? String == "Notify" } }

    /// Waits until `count` Notify calls were seen and no more come for 0.5 s.
    @discardableResult
    func waitForNotifies(_ count: Int, seconds: Double = 10) throws -> [[String: Any]] {
        _ = try waitFor("\(count) notifications", seconds: seconds) { notifies().count >= count ? true : nil }
        var n = notifies().count
        while true {
            Thread.sleep(forTimeInterval: 0.5)
            let m = notifies().count
            if m == n { break }
            n = m
        }
        return notifies()
    }

    func testFavoritesChangesAreNotified() throws {
        try startRecorder()
        try h.startDaemon()
        let c = try PokedexClient()
        try c.setFavorite("pikachu", true)
        let first = try XCTUnwrap(try waitForNotifies(1).first)
        XCTAssertEqual(first["summary"] as? String, "Pikachu added to favorites")
        XCTAssertEqual(first["body"] as? String, "Mouse Pokémon · Electric")
        XCTAssertEqual(first["app_name"] as? String, "Pokédex")
        XCTAssertEqual(first["replaces_id"] as? Int, 0, "the first one opens a bubble")
        let hints = try XCTUnwrap(first["hints"] as? [String: Any])
        let sprite = try c.spritePath("pikachu")
        XCTAssertEqual(hints["image-path"] as? String, sprite, "the cached sprite is the image")
        XCTAssertTrue(FileManager.default.fileExists(atPath: sprite))
        XCTAssertEqual(hints["sound-name"] as? String, "message-new-instant")
        let bubble = try XCTUnwrap(first["id"] as? Int)

        // Rapid toggles update that one bubble, and it ends on the last state.
        for _ in 0..<10 { _ = try c.toggleFavorite("pikachu") }
        let all = try waitForNotifies(2)
        let repeats = all.dropFirst()
        XCTAssertFalse(repeats.isEmpty)
        XCTAssertLessThanOrEqual(repeats.count, 10, "at most one per change")
        for r in repeats { XCTAssertEqual(r["replaces_id"] as? Int, bubble, "\(r)") }
        XCTAssertEqual(all.last?["summary"] as? String, "Pikachu added to favorites", "ten toggles from on end on on")
        XCTAssertEqual(Set(all.compactMap { $0["id"] as? Int }), [bubble], "one bubble, not eleven")

        // A change from another client is notified too; a bubble the user closed is not reused.
        _ = try c.call(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                       interface: "org.freedesktop.Notifications", "CloseNotification") { w throws(BusError) in try w.append(UInt32(bubble)) }
        Thread.sleep(forTimeInterval: 0.3)
        let other = try PokedexClient()
        try other.setFavorite("charizard", true)
        let afterClose = try waitForNotifies(all.count + 1).last!
        XCTAssertEqual(afterClose["summary"] as? String, "Charizard added to favorites")
        XCTAssertEqual(afterClose["body"] as? String, "Test Pokémon 6 · Fire / Flying")
        XCTAssertEqual(afterClose["replaces_id"] as? Int, 0, "the closed bubble is not replaced")
        try other.setFavorite("charizard", false)
        let removed = try waitForNotifies(all.count + 2).last!
        XCTAssertEqual(removed["summary"] as? String, "Charizard removed from favorites")
        XCTAssertEqual(removed["replaces_id"] as? Int, afterClose["id"] as? Int)

        // No change, no notification.
        try other.setFavorite("charizard", false)
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(notifies().count, all.count + 2)

        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        print("notification calls the recording server saw:\n" + text)
        if let dir = ProcessInfo.processInfo.environment["POKEDEX_NOTIFICATION_LOG"] {
            try? text.write(toFile: dir, atomically: true, encoding: .utf8)
        }
    }

    func testNotifyNoTurnsThemOff() throws {
        try startRecorder()
        try h.startDaemon(["--notify=no"])
        let c = try PokedexClient()
        try c.setFavorite("pikachu", true)
        _ = try c.toggleFavorite("bulbasaur")
        h.stopDaemon()
        try h.startDaemon([], env: ["POKEDEX_NOTIFY": "no"])
        _ = try PokedexClient().toggleFavorite("charizard")
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(notifies().count, 0, "silent with --notify=no and POKEDEX_NOTIFY=no")
        XCTAssertEqual(try PokedexClient().listFavorites().map(\.name), ["pikachu", "bulbasaur", "charizard"])
    }

    func testBadNotifyValueIsAUsageError() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Harness.buildDir + "/pokedexd")
        p.arguments = ["--notify=maybe"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        XCTAssertNotEqual(p.terminationStatus, 0)
        XCTAssertTrue(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("yes or no"))
    }

    func testNoNotificationServerLogsOnceAndGoesOn() throws {
        try h.startDaemon()
        let c = try PokedexClient()
        for name in ["pikachu", "bulbasaur", "charizard", "pikachu"] { _ = try c.toggleFavorite(name) }
        XCTAssertEqual(try c.listFavorites().map(\.name), ["bulbasaur", "charizard"])
        _ = try waitFor("the log line", seconds: 10) { h.daemonLog.contains("no desktop notifications") ? true : nil }
        Thread.sleep(forTimeInterval: 1)
        let lines = h.daemonLog.split(separator: "\n").filter { $0.contains("no desktop notifications") }
        XCTAssertEqual(lines.count, 1, h.daemonLog)
        XCTAssertTrue(lines.first?.contains("org.freedesktop.DBus.Error.ServiceUnknown") == true, "says why: \(lines)")

        // A server that shows up later is used.
        try startRecorder()
        _ = try c.toggleFavorite("squirtle")
        let seen = try waitForNotifies(1)
        XCTAssertEqual(seen.first?["summary"] as? String, "Squirtle added to favorites")
    }

    func testAHostileGenusIsShownAsTextNotMarkup() throws {
        try h.control(["hostile": true])
        try startRecorder()
        try h.startDaemon()
        try PokedexClient().setFavorite("pikachu", true)
        let n = try XCTUnwrap(try waitForNotifies(1).first)
        let body = n["body"] as? String ?? "", summary = n["summary"] as? String ?? ""
        // The body is markup to a server with body-markup: the genus's tags arrive as entities.
        XCTAssertTrue(body.contains("Mouse Pokémon"), body)
        XCTAssertTrue(body.contains("&lt;b&gt;bold&lt;/b&gt; &amp; &lt;span"), body)
        XCTAssertFalse(body.contains("<"), "no tag from the data: \(body)")
        XCTAssertFalse(body.unicodeScalars.contains(where: UntrustedText.isControl), body.debugDescription)
        XCTAssertEqual(summary, "Pikachu added to favorites")
    }
}
