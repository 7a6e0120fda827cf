import Foundation
import XCTest
import PokedexModels
import PokedexProtocol
import PokedexTestKit

/// The contract against the interface file clients read, and the coding both ways.
final class ContractTests: XCTestCase {
    static let xmlPath = PackageRoot.url.appendingPathComponent("dbus/io.github.pokedexd.Pokedex1.xml").path

    func testInterfaceFileMatchesTheContract() throws {
        let xml = try String(contentsOfFile: Self.xmlPath, encoding: .utf8)
        XCTAssertEqual(InterfaceShape(xml: xml, interface: Pokedex1.interfaceName).members, Pokedex1.interface.introspectionLines)
    }

    func testEveryMemberNameIsUnique() {
        let names = Pokedex1.interface.members.map(\.name)
        XCTAssertEqual(Set(names).count, names.count)
    }

    func testEveryMethodNamesItsErrors() {
        // Every method taking a Pokémon can say it does not know it.
        for m in [Pokedex1.detail.errors, Pokedex1.spritePath.errors, Pokedex1.toggleFavorite.errors,
                  Pokedex1.setFavorite.errors, Pokedex1.changeFavorite.errors] {
            XCTAssertTrue(m.contains(.notFound))
            XCTAssertTrue(m.contains(.invalidArgument))
        }
        XCTAssertTrue(Pokedex1.changeFavorite.errors.contains(.storage), "a write can fail to reach the disk")
        XCTAssertEqual(Pokedex1.listPage.shape.introspectionLine, "method ListPage in:u:offset in:u:limit out:u:total out:a(ussb):entries")
        XCTAssertEqual(Pokedex1.changeFavorite.shape.introspectionLine,
                       "method ChangeFavorite in:s:pokemon in:s:action out:u:id out:s:name out:b:favorite out:b:changed")
    }

    func testCacheMembers() {
        XCTAssertEqual(Pokedex1.cacheStats.shape.introspectionLine, "method CacheStats out:a{sv}:stats")
        XCTAssertEqual(Pokedex1.verifyCache.shape.introspectionLine, "method VerifyCache out:a{sv}:report")
        XCTAssertEqual(Pokedex1.clearCache.shape.introspectionLine, "method ClearCache out:t:files out:t:bytes")
        for m in [Pokedex1.cacheStats.errors, Pokedex1.verifyCache.errors, Pokedex1.clearCache.errors] {
            XCTAssertEqual(m, [.storage], "the cache's own files may fail to be read or removed; nothing else is asked")
        }
    }

    func testCacheStatsDecodeLeavesOutKindsItDoesNotKnow() throws {
        func kind(_ name: String, count: UInt64, oldest: UInt64) -> BusValue {
            .dict([(.string("kind"), .variant(.string(name))), (.string("count"), .variant(.uint(count))),
                   (.string("bytes"), .variant(.uint(10))), (.string("stale"), .variant(.uint(1))),
                   (.string("oldest_fetched_at"), .variant(.uint(oldest))), (.string("newest_fetched_at"), .variant(.uint(oldest)))])
        }
        let reply: BusValue = .dict([
            (.string("kinds"), .variant(.array([kind("pokemon", count: 3, oldest: 1_800_000_000), kind("machines", count: 9, oldest: 0),
                                                kind("other", count: 1, oldest: 0)]))),
            (.string("now"), .variant(.uint(1_800_000_100))), (.string("files"), .variant(.uint(13))),
            (.string("cache_dir"), .variant(.string("/c"))),
        ])
        let stats = try Pokedex1.cacheStats.decodeReply([reply])
        XCTAssertEqual(stats.kinds, [CacheKindStats(kind: .pokemon, count: 3, bytes: 10, stale: 1, oldestFetchedAt: 1_800_000_000, newestFetchedAt: 1_800_000_000),
                                     CacheKindStats(kind: .other, count: 1, bytes: 10, stale: 1)], "0 is no time; a newer kind is left out")
        XCTAssertEqual(stats.now, 1_800_000_100)
        XCTAssertEqual(stats.files, 13, "the totals still count it")
        XCTAssertEqual(stats[.species], CacheKindStats(kind: .species))
        XCTAssertEqual(stats.cacheDirectory, "/c")
    }

    func testVerifyReportDecodes() throws {
        let reply: BusValue = .dict([
            (.string("checked"), .variant(.uint(5))), (.string("damaged"), .variant(.uint(2))), (.string("repaired"), .variant(.uint(1))),
            (.string("failed"), .variant(.uint(1))), (.string("orphans"), .variant(.uint(3))),
            (.string("failures"), .variant(.array([.structure([.string("pokemon/2"), .string("HTTP 500")])]))),
        ])
        XCTAssertEqual(try Pokedex1.verifyCache.decodeReply([reply]),
                       CacheVerifyResult(checked: 5, damaged: 2, repaired: 1, failed: 1, orphans: 3,
                                         failures: [.init(item: "pokemon/2", reason: "HTTP 500")]))
        XCTAssertEqual(try Pokedex1.clearCache.decodeReply([.uint(7), .uint(4096)]), CacheClearResult(files: 7, bytes: 4096))
    }
}

