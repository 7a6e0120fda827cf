import CSystemd
import Foundation
import PokedexBusClient
import XCTest

/// Ten thousand random and hostile calls: unknown members, wrong signatures, empty and 1 MB
/// strings, control characters, other scripts, path traversal, extreme limits and offsets.
/// No crash, a typed error for every bad call, no file outside the service's own directories,
/// and memory and descriptors back where they were.
final class FuzzTests: DaemonTestCase {
    static let members = ["ListPage", "Detail", "Search", "SearchDetailed", "ToggleFavorite", "SetFavorite", "ListFavorites",
                          "SpritePath", "Status", "Ping", "Sync", "Nope", "", "detail", "ListPage\u{0}", "Introspect"]
    static let strings: [String] = [
        "", " ", "pikachu", "PIKACHU", "25", "0", "-1", "99999999999999999999", "10001", "../../etc/passwd", "/tmp/x",
        "pikachu/../..", "..", "/", "./favorites.json", "%2e%2e%2f", "pika\u{0}chu", "\u{1}\u{2}\u{7f}\u{1b}[31m", "\n\t\r",
        "ピカチュウ", "Пикачу", "皮卡丘", "피카츄", "بيكاتشو", "🐭⚡", "\u{202e}uhcakip", "e\u{301}", "type:fire", "type:../..",
        "gen:1", "gen:99999999999", "type: gen:", "*", "%s%s%n", "'; DROP TABLE favorites; --",
        String(repeating: "a", count: 257), String(repeating: "ü", count: 5000),
    ]
    static let numbers: [UInt32] = [0, 1, 19, 20, 100, 101, 1350, 1351, 65535, .max - 1, .max]
    static let signatures = ["", "s", "u", "uu", "su", "sb", "b", "us", "ss", "sss", "suu", "x", "d", "as", "ay", "y", "sbb", "uuuu"]

    func appendRandom(_ signature: String, to w: MessageWriter, big: Bool, rng: inout some RandomNumberGenerator) throws(BusError) {
        for type in signature {
            switch type {
            case "s": try w.append(big ? String(repeating: "x", count: 1 << 20) : Self.strings.randomElement(using: &rng)!)
            case "u": try w.append(Self.numbers.randomElement(using: &rng)!)
            case "b": try w.append(Bool.random(using: &rng))
            case "x":
                var v = Int64.random(in: .min ... .max, using: &rng)
                try busCheck(sd_bus_message_append_basic(w.message, CChar(UInt8(ascii: "x")), &v), "x")
            case "d":
                var v = [Double.nan, .infinity, -0.0, 1e308].randomElement(using: &rng)!
                try busCheck(sd_bus_message_append_basic(w.message, CChar(UInt8(ascii: "d")), &v), "d")
            case "y":
                var v = UInt8.random(in: 0...255, using: &rng)
                try busCheck(sd_bus_message_append_basic(w.message, CChar(UInt8(ascii: "y")), &v), "y")
            case "a":
                break
            default:
                break
            }
        }
        if signature == "as" { try w.append(strings: Array(Self.strings.prefix(5))) }
        if signature == "ay" { try busCheck(sd_bus_message_append_array(w.message, CChar(UInt8(ascii: "y")), "\u{0}\u{1}", 2), "ay") }
    }

    /// Every file under `root`, except in the service's own directories.
    func files(under root: String, excluding own: [String]) -> Set<String> {
        var out: Set<String> = []
        let e = FileManager.default.enumerator(atPath: root)
        while let p = e?.nextObject() as? String {
            let full = root + "/" + p
            if own.contains(where: { full.hasPrefix($0) }) { continue }
            out.insert(p)
        }
        return out
    }

    func testTenThousandHostileCalls() throws {
        let calls = Int(ProcessInfo.processInfo.environment["POKEDEX_FUZZ_CALLS"] ?? "") ?? 10_000
        try h.startDaemon(["--notify=no", "--timeout", "3"])
        let c = try PokedexClient(timeout: 30)
        // Warm up: what a session normally loads, so "before" is the working size.
        for offset in stride(from: 0, to: 60, by: 20) { _ = try c.listPage(offset: UInt32(offset), limit: 20) }
        for id in 1...44 { _ = try c.detail(String(id)) }
        _ = try c.search("pika", limit: 10)
        let own = [h.home + "/cache/pokedex", h.home + "/data/pokedex"]
        let homeBefore = files(under: h.home, excluding: own)
        let tmpBefore = Set((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? [])
        let before = h.daemonResources()

        var rng = SystemRandomNumberGenerator()
        var replies = 0, typed = 0, busErrors: [String: Int] = [:], untyped: [String] = []
        let allowedBusErrors: Set<String> = ["org.freedesktop.DBus.Error.UnknownMethod", "org.freedesktop.DBus.Error.InvalidArgs",
                                             "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownInterface",
                                             "org.freedesktop.DBus.Error.UnknownProperty", "org.freedesktop.DBus.Error.PropertyReadOnly",
                                             "org.freedesktop.DBus.Error.InvalidSignature"]
        var middle = before
        for i in 0..<calls {
            // The baseline for growth: halfway, settled as at the end. The first half's growth is
            // the working set filling (tiers, the allocator's arenas); a leak grows in both halves.
            if i == calls / 2 {
                Thread.sleep(forTimeInterval: 1)
                middle = h.daemonResources()
            }
            var member = Self.members.randomElement(using: &rng)!
            if member == "Sync" && i % 50 != 0 { member = "Status" }  // a whole Sync now and then, not 600 of them
            var signature = Self.signatures.randomElement(using: &rng)!
            // Half the calls use the member's own signature, so the checks behind it are reached too.
            let own = ["ListPage": "uu", "Detail": "s", "Search": "su", "SearchDetailed": "su", "ToggleFavorite": "s",
                       "SetFavorite": "sb", "SpritePath": "s"]
            if Bool.random(using: &rng), let s = own[member] { signature = s }
            let big = i % 100 == 0 && ProcessInfo.processInfo.environment["POKEDEX_FUZZ_NOBIG"] == nil
            var path = Pokedex1.objectPath, interface = Pokedex1.interfaceName
            switch i % 97 {
            case 0: path = "/io/github/pokedexd/Pokedex1/x"
            case 1: path = "/"
            case 2: interface = "io.github.pokedexd.Pokedex2"
            default: break
            }
            if member.isEmpty || member.contains("\u{0}") { member = "Bad\(i % 7)" }
            do throws(BusError) {
                if member == "Introspect" {
                    _ = try c.call(path: path, interface: "org.freedesktop.DBus.Introspectable", "Introspect")
                } else if i % 89 == 0 {
                    _ = try c.call(path: path, interface: "org.freedesktop.DBus.Properties", "Set") { w throws(BusError) in
                        try w.append(Pokedex1.interfaceName)
                        try w.append(["Favorites", "Online", "Version", "Nope"].randomElement()!)
                        try w.container("v", "s") { () throws(BusError) in try w.append("../../etc/passwd") }
                    }
                } else {
                    _ = try c.call(path: path, interface: interface, member) { w throws(BusError) in
                        var r = SystemRandomNumberGenerator()
                        try appendRandom(signature, to: w, big: big, rng: &r)
                    }
                }
                replies += 1
            } catch {
                if error.name.hasPrefix(errorPrefix) {
                    typed += 1
                } else if allowedBusErrors.contains(error.name) {
                    busErrors[error.name, default: 0] += 1
                } else {
                    untyped.append("\(member)(\(signature)): \(error.name): \(error.message.prefix(120))")
                }
            }
            if i % 1000 == 999 {
                XCTAssertTrue(h.daemonIsRunning, "alive after \(i + 1) calls")
                if ProcessInfo.processInfo.environment["POKEDEX_FUZZ_TRACE"] != nil { print("after \(i + 1): \(h.daemonResources())") }
            }
        }
        XCTAssertTrue(h.daemonIsRunning, "no crash")
        _ = try c.status()
        // Let background work (prefetching, writes) settle before measuring.
        Thread.sleep(forTimeInterval: 1)
        let after = h.daemonResources()
        print("fuzz: \(calls) calls, \(replies) answered with data, \(typed) typed service errors, bus errors \(busErrors); RSS \(before.rssKiB) → \(middle.rssKiB) → \(after.rssKiB) KiB, fds \(before.fds) → \(after.fds)")
        XCTAssertEqual(untyped, [], "every failure is a typed error")
        XCTAssertGreaterThan(typed, calls / 10)
        if !underSanitizer {
            XCTAssertLessThanOrEqual(Double(after.rssKiB), Double(middle.rssKiB) * 1.10, "RSS of the second half within 10% of the first's (\(middle.rssKiB) KiB halfway)")
            XCTAssertLessThanOrEqual(after.rssKiB, before.rssKiB + 32 << 10, "RSS grew by no more than the memory tier's cap")
        }
        XCTAssertLessThanOrEqual(Double(after.fds), Double(before.fds) * 1.10, "descriptors within 10%")
        XCTAssertEqual(files(under: h.home, excluding: own), homeBefore, "no file created outside the service's directories")
        let tmpAfter = Set((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? [])
        XCTAssertFalse(tmpAfter.subtracting(tmpBefore).contains("x"), "nothing written to /tmp/x")
    }
}
