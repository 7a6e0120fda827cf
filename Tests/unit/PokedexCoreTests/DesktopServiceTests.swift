import Foundation
import PokedexLocks
@testable import PokedexCore
import XCTest
import PokedexTestKit

/// A decoder that answers every image with one solid colour and counts its calls.
final class CountingDecoder: ImageDecoder {
    let calls = Mutex(0)
    func decode(_ bytes: [UInt8]) -> RGBAImage? {
        calls.withLock { $0 += 1 }
        guard PNGCheck.isValid(bytes) else { return nil }
        return RGBAImage(width: 2, height: 2, pixels: Array([[0x12, 0x34, 0x56, 255]].joined()) + Array(repeating: [0x12, 0x34, 0x56, 255], count: 3).joined())
    }
    var count: Int { calls.withLock { $0 } }
}

/// Keeps every notification shown.
final class RecordingNotifier: DesktopNotifier {
    let shown = Mutex<(all: [DesktopNotification], waiting: [(Int, CheckedContinuation<Void, Never>)])>(([], []))
    func show(_ n: DesktopNotification) {
        let ready = shown.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.all.append(n)
            let count = s.all.count
            defer { s.waiting.removeAll { $0.0 <= count } }
            return s.waiting.filter { $0.0 <= count }.map(\.1)
        }
        ready.forEach { $0.resume() }
    }
    var all: [DesktopNotification] { shown.withLock { $0.all } }
    /// Returns once `count` notifications were shown: a hook, not a poll.
    func waitFor(_ count: Int) async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let now = shown.withLock { s -> Bool in
                if s.all.count >= count { return true }
                s.waiting.append((count, c))
                return false
            }
            if now { c.resume() }
        }
    }
}

/// A 1×1 GIF89a: colour table, graphic control extension, one frame, trailer.
let tinyGIF: [UInt8] = Array("GIF89a".utf8) + ([1, 0, 1, 0, 0x80, 0, 0, 255, 0, 0, 0, 0, 255,
                                                  0x21, 0xF9, 4, 0, 10, 0, 0, 0,
                                                  0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3B] as [UInt8])

final class DesktopServiceTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func makeService(_ api: FakePokeAPI, decoder: CountingDecoder? = nil, notifier: RecordingNotifier? = nil) throws -> PokedexService {
        let config = ServiceConfiguration(apiURL: FakePokeAPI.base, spriteHosts: ["sprites.test"],
                                          cacheDirectory: dir + "/cache", dataDirectory: dir + "/data",
                                          spriteURLTemplate: "https://sprites.test/{id}.png", prefetch: false)
        return PokedexService(configuration: config, client: api.client,
                              store: try FileCacheStore(directory: config.cacheDirectory, capacity: 1 << 24),
                              favorites: try FavoritesBook(persistence: MemoryFavoritesPersistence()),
                              decoder: decoder, notifier: notifier)
    }

    /// Pikachu's body names an animated GIF.
    func withAnimation(_ api: FakePokeAPI) -> FakePokeAPI {
        api.client.route(FakePokeAPI.base + "/pokemon/25/", json: """
            {"id":25,"name":"pikachu","height":4,"weight":60,
             "types":[{"slot":1,"type":{"name":"electric"}}],"abilities":[],"stats":[],
             "sprites":{"front_default":"https://sprites.test/25.png",
                        "versions":{"generation-v":{"black-white":{"animated":{"front_default":"https://sprites.test/anim/25.gif"}}}}},
             "species":{"name":"pikachu","url":"\(FakePokeAPI.base)/pokemon-species/25/"}}
            """)
        api.client.route("https://sprites.test/anim/25.gif") { _ in HTTPResponse(status: 200, body: tinyGIF) }
        return api
    }

    func testColourIsComputedOnceAndKeptOnDisk() async throws {
        let api = FakePokeAPI()
        let decoder = CountingDecoder()
        let first = try await makeService(api, decoder: decoder).detail("pikachu").value()
        XCTAssertEqual(first.color, "#123456")
        XCTAssertEqual(decoder.count, 1)
        // Restarted: the colour comes from the sprite's record, not from decoding again.
        let again = CountingDecoder()
        let second = try await makeService(api, decoder: again).detail("pikachu").value()
        XCTAssertEqual(second.color, "#123456")
        XCTAssertEqual(again.count, 0)
        XCTAssertEqual(api.client.count("https://sprites.test/25.png"), 1)
        // No decoder, no sprite: an empty colour, not an error.
        let none = try await makeService(FakePokeAPI(), decoder: nil).detail("3").value()
        XCTAssertEqual(none.color, "")
    }

    /// Issue 58: a sync keeps every sprite without decoding one; a card works its colour out
    /// the first time it is asked for, once, and keeps it.
    func testASyncDecodesNoSpriteAndACardWorksItsColourOutOnce() async throws {
        let api = FakePokeAPI()
        let decoder = CountingDecoder()
        let service = try makeService(api, decoder: decoder)
        let synced = try await service.sync().value()
        XCTAssertEqual(synced.failed, 0)
        XCTAssertEqual(decoder.count, 0, "no sprite decoded by the sync")
        let d = try await service.detail("pikachu").value()
        XCTAssertEqual(d.color, "#123456")
        XCTAssertEqual(decoder.count, 1)
        XCTAssertEqual(try service.detail("pikachu").ready?.color, "#123456", "then from memory")
        XCTAssertEqual(decoder.count, 1)
        let again = CountingDecoder()
        let restarted = try await makeService(api, decoder: again).detail("pikachu").value()
        XCTAssertEqual(restarted.color, "#123456")
        XCTAssertEqual(again.count, 0, "kept in the sprite's record")
    }

    func testRecordsFromBeforeColoursGetOneOnFirstUse() async throws {
        let api = FakePokeAPI()
        _ = try await makeService(api, decoder: nil).detail("pikachu").value()
        let decoder = CountingDecoder()
        let d = try await makeService(api, decoder: decoder).detail("pikachu").value()
        XCTAssertEqual(d.color, "", "the record says no pixel counted; it is not decoded again")
        // A record written without the key at all (an older version) is worked out once.
        let store = try FileCacheStore(directory: dir + "/cache", capacity: 1 << 24)
        let old = try XCTUnwrap(store.readRecord("sprite/25"))
        var meta = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(old.payload)) as? [String: Any])
        meta.removeValue(forKey: "color")
        try store.writeRecord("sprite/25", StoredRecord(payload: Array(try JSONSerialization.data(withJSONObject: meta)), freshness: old.freshness))
        let upgrading = CountingDecoder()
        let upgraded = try await makeService(api, decoder: upgrading).detail("pikachu").value()
        XCTAssertEqual(upgraded.color, "#123456")
        XCTAssertEqual(upgrading.count, 1)
        let after = CountingDecoder()
        let kept = try await makeService(api, decoder: after).detail("pikachu").value()
        XCTAssertEqual(kept.color, "#123456")
        XCTAssertEqual(after.count, 0, "kept after the upgrade")
    }

    func testAnimatedSpriteIsFetchedOnDemandAndCheckedLikeAnyOther() async throws {
        let api = withAnimation(FakePokeAPI())
        let s = try makeService(api)
        let d = try await s.detail("pikachu").value()
        XCTAssertTrue(d.animatedSpritePath.hasSuffix("/sprites/25-animated.gif"), d.animatedSpritePath)
        XCTAssertEqual(FileIO.readFile(d.animatedSpritePath), tinyGIF)
        XCTAssertEqual(try s.detail("pikachu").ready?.animatedSpritePath, d.animatedSpritePath, "warm from memory")
        let other = try await s.detail("2").value()
        XCTAssertEqual(other.animatedSpritePath, "", "the API names none")
        // Cut off on disk: detected after a restart, fetched again, never served.
        let cut = Array(tinyGIF.dropLast(5))
        XCTAssertTrue(FileManager.default.createFile(atPath: d.animatedSpritePath, contents: Data(cut)))
        let restarted = try makeService(api)
        let again = try await restarted.detail("pikachu").value()
        XCTAssertEqual(FileIO.readFile(again.animatedSpritePath), tinyGIF)
        XCTAssertEqual(api.client.count("https://sprites.test/anim/25.gif"), 2)
        // A server that sends a cut-off GIF: no path rather than a broken file.
        api.client.route("https://sprites.test/anim/25.gif") { _ in HTTPResponse(status: 200, body: cut) }
        try? FileManager.default.removeItem(atPath: again.animatedSpritePath)
        let refused = try await makeService(api).detail("pikachu").value()
        XCTAssertEqual(refused.animatedSpritePath, "")
    }

    func testFavoritesChangesBecomeNotificationsInOrder() async throws {
        let notifier = RecordingNotifier()
        let s = try makeService(FakePokeAPI(), notifier: notifier)
        try await s.setFavorite("pikachu", true).value()
        try await s.setFavorite("pikachu", true).value()  // no change, no notification
        for _ in 0..<5 { _ = try await s.toggleFavorite("25").value() }
        try await s.setFavorite("mon3", true).value()
        let seven = expectation(description: "seven notifications")
        Task { await notifier.waitFor(7); seven.fulfill() }
        await fulfillment(of: [seven], timeout: 5)
        let shown = notifier.all
        XCTAssertEqual(shown.map(\.summary), ["Pikachu added to favorites"]
                       + ["removed from", "added to", "removed from", "added to", "removed from"].map { "Pikachu \($0) favorites" }
                       + ["Mon3 added to favorites"])
        XCTAssertEqual(shown[0].body, "Mouse Pokémon · Electric / Flying")
        XCTAssertTrue(shown[0].imagePath.hasSuffix("/sprites/25.png"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: shown[0].imagePath))
        XCTAssertEqual(shown[0].soundName, "message-new-instant")
    }

    /// Issue 39: a favorite never fetched, on a slow network. The bubble does not wait past the
    /// deadline: it shows the name at once, then is replaced by the whole notification (sprite,
    /// genus, types) when the record and sprite arrive. A newer change meanwhile is not
    /// overwritten by an older one's late details.
    func testASlowRecordShowsTheNameByTheDeadlineThenTheWholeNotification() async throws {
        let api = FakePokeAPI()
        let release = Mutex(false)
        for route in ["/pokemon/25/", "/pokemon/3/"] {
            let url = FakePokeAPI.base + route
            let original = api.client
            let body = try await original.get(HTTPRequest(url: url)).body
            original.route(url) { _ in
                // Held until the test lets it go: far past the deadline.
                while !release.withLock({ $0 }) { try await Task.sleep(nanoseconds: 20_000_000) }
                return HTTPResponse(status: 200, headers: ["cache-control": "max-age=86400"], body: body)
            }
        }
        let notifier = RecordingNotifier()
        let s = try makeService(api, notifier: notifier)
        let started = ContinuousClock.now
        try await s.setFavorite("pikachu", true).value()
        await shown(1, by: notifier)
        let waited = ContinuousClock.now - started
        XCTAssertEqual(notifier.all.first?.summary, "Pikachu added to favorites", "the name, from the bundled table")
        XCTAssertEqual(notifier.all.first?.body, "#025", "the number as the games print it")
        XCTAssertGreaterThanOrEqual(waited, .milliseconds(900), "it waited for the record, up to the deadline")
        release.withLock { $0 = true }
        await shown(2, by: notifier)
        XCTAssertEqual(notifier.all[1].summary, "Pikachu added to favorites")
        XCTAssertEqual(notifier.all[1].body, "Mouse Pokémon · Electric / Flying", "replaced whole when it arrived")
        XCTAssertTrue(notifier.all[1].imagePath.hasSuffix("/sprites/25.png"))

        // Two changes while the network is slow: the older one's details never follow the newer one.
        release.withLock { $0 = false }
        try await s.setFavorite("mon3", true).value()
        try await s.setFavorite("mon3", false).value()
        await shown(3, by: notifier)
        XCTAssertEqual(notifier.all[2].summary, "Mon3 added to favorites")
        release.withLock { $0 = true }
        await shown(4, by: notifier)
        try await Task.sleep(nanoseconds: 300_000_000)
        let last = notifier.all.dropFirst(2).map(\.summary)
        XCTAssertEqual(last, ["Mon3 added to favorites", "Mon3 removed from favorites"],
                       "the newer change shown next, whole; no late bubble for the older one")
    }

    /// Waits until `count` notifications were shown, failing after 5 s rather than hanging.
    func shown(_ count: Int, by notifier: RecordingNotifier) async {
        let done = expectation(description: "\(count) notifications")
        Task { await notifier.waitFor(count); done.fulfill() }
        await fulfillment(of: [done], timeout: 5)
    }

    func testNotificationText() {
        let species = SpeciesRecord(id: 122, name: "mr-mime", genus: "Barrier Pokémon", flavorText: "", names: ["en": "Mr. Mime"])
        let n = FavoriteNotifications.notification(for: FavoriteChange(id: 122, name: "mr-mime", favorite: false, allIDs: []),
                                                   types: ["Psychic", "Fairy"], species: species, spritePath: "/x/122.png")
        XCTAssertEqual(n, DesktopNotification(summary: "Mr. Mime removed from favorites", body: "Barrier Pokémon · Psychic / Fairy",
                                              imagePath: "/x/122.png", soundName: "message-new-instant"))
        // In German: the name, the genus and the types as the games print them, and the words from the catalogue.
        let german = Words { ["%s removed from favorites": "%s aus den Favoriten entfernt"][$0] ?? $0 }
        let deSpecies = SpeciesRecord(id: 122, name: "mr-mime", genus: "Barrier Pokémon", flavorText: "",
                                      names: ["en": "Mr. Mime", "de": "Pantimos"], genera: ["en": "Barrier Pokémon", "de": "Barriere"])
        let de = FavoriteNotifications.notification(for: FavoriteChange(id: 122, name: "mr-mime", favorite: false, allIDs: []),
                                                    types: ["Psycho", "Fee"], species: deSpecies, spritePath: "", language: "de", words: german)
        XCTAssertEqual(de.summary, "Pantimos aus den Favoriten entfernt")
        XCTAssertEqual(de.body, "Barriere · Psycho / Fee")
        let bare = FavoriteNotifications.notification(for: FavoriteChange(id: 10001, name: "deoxys-attack", favorite: true, allIDs: []),
                                                      types: [], species: nil, spritePath: "")
        XCTAssertEqual(bare.summary, "Attack Deoxys added to favorites", "the form's name as written, from the bundled table")
        XCTAssertEqual(bare.body, "#386", "offline with nothing cached: still says which one, by its number")
        let unknown = FavoriteNotifications.notification(for: FavoriteChange(id: 10999, name: "deoxys-new-form", favorite: true, allIDs: []),
                                                         types: [], species: nil, spritePath: "")
        XCTAssertEqual(unknown.summary, "Deoxys New Form added to favorites", "a form newer than the table: its identifier")
    }
}
