import Foundation
import PokedexBusClient
@testable import PokedexCore
import PokedexTestKit
import XCTest

/// Damaged disk-tier files: records' entries in their packs cut short, erased, flipped and
/// under garbage; sprites truncated, zeroed, flipped and swapped (one Pokémon's file under
/// another's name); sprite records and animated sprites. Each is detected, never served as data, and fetched again.
final class CacheDamageTests: DaemonTestCase {
    var v2: String { h.home + "/cache/pokedex/v2/" }

    func truncate(_ path: String) throws {
        let d = try Data(contentsOf: URL(fileURLWithPath: path))
        try d.prefix(d.count / 2).write(to: URL(fileURLWithPath: path))
    }
    func zero(_ path: String) throws {
        let n = try Data(contentsOf: URL(fileURLWithPath: path)).count
        try Data(count: n).write(to: URL(fileURLWithPath: path))
    }
    func corrupt(_ path: String) throws {
        var d = try Data(contentsOf: URL(fileURLWithPath: path))
        d[d.count / 2] ^= 0x5A
        try d.write(to: URL(fileURLWithPath: path))
    }
    func swap(_ a: String, _ b: String) throws {
        let fm = FileManager.default
        try fm.moveItem(atPath: a, toPath: a + ".x")
        try fm.moveItem(atPath: b, toPath: a)
        try fm.moveItem(atPath: a + ".x", toPath: b)
    }

    func testEveryKindOfDamageIsDetectedNeverServedAndFetchedAgain() throws {
        try h.startDaemon(["--no-prefetch", "--notify=no"])
        var c = try PokedexClient()
        var good: [Int: PokemonDetail] = [:]
        var sprites: [Int: Data] = [:]
        for id in 1...40 {
            good[id] = try c.detail(String(id))
            sprites[id] = try h.get("/sprites/\(id).png")
        }
        h.stopDaemon()

        var damaged: [Int: String] = [:]
        // A record's entry in its pack: cut short, erased, a byte flipped, garbage over it.
        func damage(_ how: CacheRecordDamage, _ key: String, _ id: Int) throws {
            try how.apply(to: key, in: v2)
            damaged[id] = how.rawValue
        }
        for id in 1...4 { try damage(.cutPayload, "pokemon/\(id)", id) }
        for id in 5...8 { try damage(.erased, "species/\(id)", id) }
        for id in 9...12 { try damage(.flippedPayload, "pokemon/\(id)", id) }
        for id in 13...16 { try damage(.garbage, "pokemon/\(id)", id) }
        for id in 17...20 { try corrupt(v2 + "sprites/\(id).png"); damaged[id] = "flipped byte in a sprite" }
        for id in [21, 23] { try swap(v2 + "sprites/\(id).png", v2 + "sprites/\(id + 1).png") }
        for id in 21...24 { damaged[id] = "sprites swapped" }
        for id in 25...28 { try damage(.garbage, "sprite/\(id)", id) }
        for id in 29...32 { try truncate(v2 + "sprites/\(id)-animated.gif"); damaged[id] = "truncated animated sprite" }
        for id in 33...36 { try zero(v2 + "sprites/\(id).png"); damaged[id] = "zeroed sprite" }

        // Offline first: damaged entries must not come back as data.
        try h.control(["offline": true])
        try h.startDaemon(["--no-prefetch", "--notify=no", "--timeout", "2"])
        c = try PokedexClient()
        for id in 1...40 {
            let expected = good[id]!
            do {
                let d = try c.detail(String(id))
                XCTAssertEqual(d.name, expected.name, "#\(id) (\(damaged[id] ?? "intact")) served someone else's record")
                XCTAssertEqual(d.stats, expected.stats, "#\(id)")
                if !d.spritePath.isEmpty {
                    let bytes = try XCTUnwrap(FileIO.readFile(d.spritePath))
                    XCTAssertEqual(Data(bytes), sprites[id], "#\(id) (\(damaged[id] ?? "intact")): a wrong or broken sprite was served")
                    XCTAssertEqual(d.color, expected.color)
                } else {
                    XCTAssertNotNil(damaged[id], "#\(id) is intact and should have its sprite")
                }
                if !d.animatedSpritePath.isEmpty {
                    XCTAssertTrue(GIFCheck.isValid(try XCTUnwrap(FileIO.readFile(d.animatedSpritePath))), "#\(id)")
                }
                if damaged[id] == nil { XCTAssertEqual(d, expected, "#\(id) intact, answered from disk") }
            } catch let error as BusError {
                XCTAssertNotNil(damaged[id], "#\(id) is intact: \(error)")
                XCTAssertEqual(error.name, errorPrefix + "Unavailable", "#\(id)")
            }
        }
        h.stopDaemon()

        // Online: each damaged file is fetched again, and the answers are the originals.
        try h.control(["offline": false])
        try h.resetStats()
        try h.startDaemon(["--no-prefetch", "--notify=no"])
        c = try PokedexClient()
        for id in 1...40 {
            let d = try c.detail(String(id))
            var expected = good[id]!
            expected.favorite = d.favorite
            XCTAssertEqual(d, expected, "#\(id) (\(damaged[id] ?? "intact"))")
            XCTAssertEqual(Data(try XCTUnwrap(FileIO.readFile(d.spritePath))), sprites[id], "#\(id)")
            XCTAssertTrue(GIFCheck.isValid(try XCTUnwrap(FileIO.readFile(d.animatedSpritePath))), "#\(id)")
        }
        let counts = try XCTUnwrap(try h.stats()["by_kind"] as? [String: Int])
        print("damaged \(damaged.count) Pokémon's files; fetched again: \(counts)")
        XCTAssertEqual(counts["pokemon"], 12, "4 cut short + 4 flipped + 4 under garbage")
        XCTAssertEqual(counts["pokemon-species"], 4, "4 erased species records")
        XCTAssertEqual(counts["sprite"], 16, "4 flipped + 4 swapped + 4 with garbage records + 4 zeroed")
        XCTAssertEqual(counts["animated-sprite"], 4, "4 truncated GIFs")
    }
}
