import PokedexBusClient
import PokedexModels
import PokedexProtocol
import XCTest
@testable import PokectlKit

/// The service's comings and goings and its signals, as a script: what `watch` and
/// `widget --follow` read, in process.
final class FakeEvents: ServiceEvents {
    var owner: String?
    private var script: [ServiceFollower.Event]
    private let all: BusValue?

    init(owner: String?, properties: BusValue? = nil, _ script: [ServiceFollower.Event]) {
        self.owner = owner
        self.all = properties
        self.script = script
    }

    func current() -> ServiceFollower.Event { owner.map { .started(owner: $0) } ?? .stopped(idle: false) }

    /// The next scripted event; the reader gone once the script is over.
    func next(timeout: Double?, endingWith fd: Int32?) throws(BusError) -> ServiceFollower.Event {
        guard !script.isEmpty else { return .readerGone }
        let event = script.removeFirst()
        switch event {
        case .started(let o): owner = o
        case .stopped: owner = nil
        default: break
        }
        return event
    }

    func properties(of owner: String) -> BusValue? { all }
}

final class FollowTests: XCTestCase {
    /// Each line as JSON, without its time (which is the clock's).
    private func lines(_ out: String) throws -> [[String: Any]] {
        try out.split(separator: "\n").map { line in
            var object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
            XCTAssertNotNil(object.removeValue(forKey: "time"), "every line has its time: \(line)")
            return object
        }
    }

    private static let properties = BusValue.dict([
        (key: .string("Favorites"), value: .variant(.array([.uint(25)]))),
        (key: .string("Online"), value: .variant(.bool(true))),
    ])

    func testWatchPrintsTheStateThenEachSignalAsOneJSONLine() throws {
        let events = FakeEvents(owner: ":1.7", properties: Self.properties, [
            .favoriteChanged(id: 25, name: "pikachu", favorite: false),
            .cacheCleared,
            .propertiesChanged(interface: .string(Pokedex1.interfaceName), changed: .dict([(key: .string("Online"), value: .variant(.bool(false)))]),
                               invalidated: .array([])),
            .timeout,
            .stopped(idle: true),
            .started(owner: ":1.9"),
        ])
        let ran = Harness.run(["watch", "--initial"], Fixtures.service(), events: events)
        XCTAssertEqual(ran.code, 0, ran.err)
        let got = try lines(ran.out)
        XCTAssertEqual(got.map { $0["event"] as? String }, ["ServiceStarted", "PropertiesChanged", "FavoriteChanged", "CacheCleared",
                                                           "PropertiesChanged", "ServiceStopped", "ServiceStarted", "PropertiesChanged"])
        XCTAssertEqual(got[0]["owner"] as? String, ":1.7")
        XCTAssertEqual((got[1]["changed"] as? [String: Any])?["Favorites"] as? [Int], [25])
        XCTAssertEqual(got[2]["id"] as? Int, 25)
        XCTAssertEqual(got[2]["favorite"] as? Bool, false)
        XCTAssertEqual((got[4]["changed"] as? [String: Any])?["Online"] as? Bool, false)
        XCTAssertEqual(got[5]["idle"] as? Bool, true)
        XCTAssertEqual(got[6]["owner"] as? String, ":1.9")
        XCTAssertFalse(ran.out.contains("\u{1B}"), "no escapes in a stream of JSON")
    }

    func testWatchCountEndsAfterSoManyLinesAndNotRunningIsSaid() throws {
        let events = FakeEvents(owner: nil, [.favoriteChanged(id: 1, name: "bulbasaur", favorite: true), .cacheCleared, .cacheCleared])
        let ran = Harness.run(["watch", "--initial", "--count", "2"], Fixtures.service(), events: events)
        XCTAssertEqual(ran.code, 0)
        XCTAssertEqual(try lines(ran.out).map { $0["event"] as? String }, ["ServiceStopped", "FavoriteChanged"])
        XCTAssertEqual(Harness.run(["watch", "--count", "0"], Fixtures.service(), events: events).code, 2, "a count below 1 is a usage error")
    }

    func testWatchWithoutASessionBusSaysSoAndExits3() {
        for (words, language) in [(Words.english, "en"), (Harness.german, "de")] {
            let ran = Harness.run(["watch"], Fixtures.service(), words: words, language: language)
            XCTAssertEqual(ran.code, 3)
            XCTAssertTrue(ran.out.isEmpty)
            XCTAssertFalse(ran.err.isEmpty, "why, on stderr")
        }
    }

    /// The bar's text at once, "unavailable" when the service is stopped, and again when it is back.
    func testWidgetFollowShowsTheFavoriteThenUnavailableThenTheFavoriteAgain() throws {
        let fake = Fixtures.service()
        fake.on(Pokedex1.listFavorites) { _ in [Fixtures.pikachu] }
        fake.on(Pokedex1.localizedDetail) { (_, language) in
            var d = PokemonDetail(id: 25, name: "pikachu", height: 4, weight: 60, types: ["electric"], abilities: ["static"], stats: [],
                                  spritePath: "/cache/sprites/25.png", favorite: true, genus: "Mouse Pokémon", flavorText: "",
                                  color: "#f0d030", animatedSpritePath: "")
            d.displayName = "Pikachu"
            d.language = language
            return d
        }
        for (words, language, unavailable) in [(Words.english, "en", "Pokédex unavailable"), (Harness.german, "de", "Pokédex nicht erreichbar")] {
            let events = FakeEvents(owner: ":1.7", [.stopped(idle: false), .started(owner: ":1.8")])
            let ran = Harness.run(["widget", "--format", "polybar", "--follow"], fake, words: words, language: language, events: events)
            XCTAssertEqual(ran.code, 0, ran.err)
            let shown = ran.out.split(separator: "\n").map(String.init)
            XCTAssertEqual(shown.count, 3, ran.out)
            XCTAssertTrue(shown[0].contains("Pikachu"), shown[0])
            XCTAssertTrue(shown[1].contains(unavailable), shown.joined(separator: " | "))
            XCTAssertEqual(shown[2], shown[0], "the favorite again once the service is back")
        }
    }
}
