import Foundation
import PokedexLocks
import PokedexTestKit
import XCTest
@testable import PokedexCore

/// A sprite server that sends pictures far bigger than any sprite: refused as they arrive, with
/// a journal line; KRunner's icons checked from the header and refusals remembered.
final class HostileSpriteTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    final class Lines: @unchecked Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    /// Decodes like ``PNGTestDecoder`` and counts its calls.
    final class CountingDecoder: ImageDecoder, @unchecked Sendable {
        let calls = Mutex(0)
        func decode(_ bytes: [UInt8]) -> RGBAImage? {
            calls.withLock { $0 += 1 }
            return PNGCheck.isValid(bytes) ? RGBAImage(width: 1, height: 1, pixels: [1, 2, 3, 255]) : nil
        }
    }

    func makeService(_ api: FakePokeAPI, decoder: any ImageDecoder = PNGTestDecoder(), log: Lines) throws -> PokedexService {
        let config = ServiceConfiguration(apiURL: FakePokeAPI.base + "/", spriteHosts: ["sprites.test"],
                                          cacheDirectory: dir + "/cache", dataDirectory: dir + "/data",
                                          spriteURLTemplate: "https://sprites.test/{id}.png", prefetch: false)
        return PokedexService(configuration: config, client: api.client,
                              store: try FileCacheStore(directory: config.cacheDirectory, capacity: 1 << 24),
                              favorites: try FavoritesBook(persistence: MemoryFavoritesPersistence()),
                              decoder: decoder, log: { _, message in log.lines.withLock { $0.append(message) } })
    }

    func testASpriteWiderThanAnySpriteIsRefusedWithAJournalLine() async throws {
        let api = FakePokeAPI()
        // 600×1: a few KB, well under the body cap, but no sprite of PokeAPI's is that wide.
        let wide = encodePNG(paint(600, 1) { _, _ in (1, 2, 3, 255) })
        api.client.route("https://sprites.test/25.png") { _ in HTTPResponse(status: 200, body: wide) }
        let log = Lines()
        let s = try makeService(api, log: log)
        do {
            _ = try await s.spritePath("25").value()
            XCTFail("a 600×1 sprite was kept")
        } catch {
            XCTAssertTrue("\(error)".contains("600×1"), "\(error)")
        }
        XCTAssertTrue(log.all.contains { $0.contains("600×1, larger than the 512×512 any sprite is; it is not kept") }, "\(log.all)")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir + "/cache/v2/sprites")) ?? []
        XCTAssertFalse(files.contains("25.png"), "nothing of it on disk: \(files)")
        // At the cap, a sprite is kept (official artwork is 475×475).
        let artwork = encodePNG(paint(475, 475) { _, _ in (1, 2, 3, 255) })
        api.client.route("https://sprites.test/6.png") { _ in HTTPResponse(status: 200, body: artwork) }
        let path = try await s.spritePath("6").value()
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
    }

    func testKRunnerChecksTheHeaderAndRemembersARefusal() throws {
        let log = Lines()
        let decoder = CountingDecoder()
        let s = try makeService(FakePokeAPI(), decoder: decoder, log: log)
        // A file bigger than any sprite kept, planted in place of one (an old cache, another program).
        let big = dir + "/big.png"
        _ = FileManager.default.createFile(atPath: big, contents: Data(encodePNG(paint(1024, 600) { _, _ in (9, 9, 9, 255) })))
        let result = DesktopResult(id: 25, name: "Pikachu", description: "", spritePath: big)
        for _ in 0..<5 { XCTAssertNil(s.desktop.icon(result)) }
        XCTAssertEqual(decoder.calls.withLock { $0 }, 0, "refused from the header, never decoded")
        // One that does not decode: tried once, then remembered until the file changes.
        let broken = dir + "/broken.png"
        var bytes = encodePNG(paint(8, 8) { _, _ in (9, 9, 9, 255) })
        bytes[bytes.count - 20] ^= 0xFF
        _ = FileManager.default.createFile(atPath: broken, contents: Data(bytes))
        let r2 = DesktopResult(id: 26, name: "Raichu", description: "", spritePath: broken)
        for _ in 0..<5 { XCTAssertNil(s.desktop.icon(r2)) }
        XCTAssertEqual(decoder.calls.withLock { $0 }, 1, "decoded once, the refusal remembered")
        // The file replaced by a good sprite: tried again, and kept.
        usleep(10_000)
        _ = FileManager.default.createFile(atPath: broken, contents: Data(encodePNG(paint(8, 9) { _, _ in (9, 9, 9, 255) })))
        XCTAssertNotNil(s.desktop.icon(r2))
        XCTAssertEqual(decoder.calls.withLock { $0 }, 2)
    }
}
