import PokedexLocks
import PokedexTestKit
import XCTest
@testable import PokedexCore

/// `Moves` and the card's abilities, breeding and training (issue 57): the newest game unless
/// one is asked for (by group, version or its name in a language), the four ways, each move's
/// values as that game has them, named in the reader's language; answered from memory once
/// warm; a game it is not in, or a move that cannot be had, said.
final class MovesTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    static func detail(_ group: String, _ method: String, level: Int = 0) -> String {
        #"{"level_learned_at":\#(level),"move_learn_method":{"name":"\#(method)","url":""},"order":null,"version_group":{"name":"\#(group)","url":""}}"#
    }

    static func move(_ name: String, _ id: Int, _ details: [String]) -> String {
        #"{"move":{"name":"\#(name)","url":"\#(FakePokeAPI.base)/move/\#(id)/"},"version_group_details":[\#(details.joined(separator: ","))]}"#
    }

    func makeAPI() -> FakePokeAPI {
        let api = FakePokeAPI()
        let base = FakePokeAPI.base
        let moves = [
            Self.move("thunderbolt", 85, [Self.detail("scarlet-violet", "level-up", level: 36), Self.detail("scarlet-violet", "machine"),
                                          Self.detail("x-y", "level-up", level: 29)]),
            Self.move("charm", 204, [Self.detail("scarlet-violet", "level-up", level: 1), Self.detail("x-y", "egg"),
                                     Self.detail("black-white", "egg")]),
            Self.move("volt-tackle", 344, [Self.detail("scarlet-violet", "egg")]),
        ]
        api.client.route(base + "/pokemon/25/", json: """
            {"id":25,"name":"pikachu","height":4,"weight":60,"moves":[\(moves.joined(separator: ","))],
             "types":[{"slot":1,"type":{"name":"electric"}}],
             "abilities":[{"slot":3,"ability":{"name":"lightning-rod"},"is_hidden":true},{"slot":1,"ability":{"name":"static"},"is_hidden":false}],
             "stats":[{"base_stat":35,"effort":0,"stat":{"name":"hp"}},{"base_stat":90,"effort":2,"stat":{"name":"speed"}}],
             "held_items":[{"item":{"name":"light-ball"},"version_details":[{"rarity":5,"version":{"name":"ultra-sun"}},{"rarity":1,"version":{"name":"x"}}]}],
             "sprites":{"front_default":"https://sprites.test/25.png"},
             "species":{"name":"pikachu","url":"\(base)/pokemon-species/25/"}}
            """)
        api.client.route(base + "/pokemon-species/25/", json: """
            {"id":25,"name":"pikachu","names":[{"name":"Pikachu","language":{"name":"de"}}],
             "egg_groups":[{"name":"ground"},{"name":"fairy"}],"gender_rate":4,"hatch_counter":10,"capture_rate":190,
             "base_happiness":70,"growth_rate":{"name":"medium"}}
            """)
        func move(_ id: Int, _ name: String, _ de: String, _ type: String, _ category: String, _ power: String, _ past: String = "") {
            api.client.route(base + "/move/\(id)/", json: """
                {"id":\(id),"name":"\(name)","names":[{"name":"\(de)","language":{"name":"de"}}],"type":{"name":"\(type)"},
                 "damage_class":{"name":"\(category)"},"power":\(power),"accuracy":100,"pp":15,"past_values":[\(past)]}
                """)
        }
        move(85, "thunderbolt", "Donnerblitz", "electric", "special", "90",
             #"{"power":95,"type":null,"accuracy":null,"pp":null,"version_group":{"name":"x-y"}}"#)
        move(204, "charm", "Charme", "fairy", "status", "null", #"{"power":null,"type":{"name":"normal"},"accuracy":null,"pp":null,"version_group":{"name":"x-y"}}"#)
        move(344, "volt-tackle", "Volttackle", "electric", "physical", "120")
        for (kind, name, de) in [("move-damage-class", "special", "spezial"), ("move-damage-class", "status", "status"),
                                 ("move-damage-class", "physical", "physisch"), ("version", "scarlet", "Karmesin"),
                                 ("version", "violet", "Purpur"), ("version", "x", "X"), ("version", "y", "Y"),
                                 ("version", "ultra-sun", "Ultrasonne"), ("egg-group", "ground", "Feld"), ("egg-group", "fairy", "Fee"),
                                 ("item", "light-ball", "Kugelblitz"), ("ability", "static", "Statik"), ("ability", "lightning-rod", "Blitzfänger"),
                                 ("type", "electric", "Elektro"), ("stat", "hp", "KP"), ("stat", "speed", "Initiative")] {
            api.client.route(base + "/\(kind)/\(name)/", json: #"{"id":1,"name":"\#(name)","names":[{"name":"\#(de)","language":{"name":"de"}}]}"#)
        }
        return api
    }

    func makeService(_ api: FakePokeAPI) throws -> PokedexService {
        let config = ServiceConfiguration(apiURL: FakePokeAPI.base + "/", spriteHosts: ["sprites.test"],
                                          cacheDirectory: dir + "/cache", dataDirectory: dir + "/data",
                                          spriteURLTemplate: "https://sprites.test/{id}.png", prefetch: false)
        return PokedexService(configuration: config, client: api.client,
                              store: try FileCacheStore(directory: config.cacheDirectory, capacity: 1 << 24),
                              favorites: try FavoritesBook(persistence: MemoryFavoritesPersistence()))
    }

    func testTheNewestGamesLevelUpMovesInTheReadersLanguage() async throws {
        let s = try makeService(makeAPI())
        let t = try await s.moves("pikachu", game: "", method: .levelUp, language: "de").value()
        XCTAssertEqual(t.game, "scarlet-violet")
        XCTAssertEqual(t.gameName, "Karmesin/Purpur")
        XCTAssertEqual(t.games, ["scarlet-violet", "x-y", "black-white"], "newest first")
        XCTAssertEqual(t.rows.map(\.move), ["charm", "thunderbolt"], "by level")
        XCTAssertEqual(t.rows.map(\.name), ["Charme", "Donnerblitz"])
        XCTAssertEqual(t.rows.map(\.typeName), ["Fee", "Elektro"])
        XCTAssertEqual(t.rows.map(\.categoryName), ["Status", "Spezial"], "PokeAPI's lower case begun as the games do")
        XCTAssertEqual(t.rows.map(\.power), [nil, 90])
        let all = try await s.moves("pikachu", game: "", method: nil, language: "en").value()
        XCTAssertEqual(all.rows.map { "\($0.method.rawValue) \($0.move)" }, ["level-up charm", "level-up thunderbolt", "machine thunderbolt", "egg volt-tackle"])
        // Warm: from memory, on the caller's thread.
        XCTAssertNotNil(try s.moves("pikachu", game: "", method: nil, language: "de").ready)
    }

    func testAGameByGroupVersionOrNameWithItsOwnValues() async throws {
        let s = try makeService(makeAPI())
        func values(_ t: MoveTable) -> [String] { t.rows.map { "\($0.move) \($0.type) \($0.power.map(String.init) ?? "-")" } }
        for game in ["x-y", "X", "y", " x "] {
            let t = try await s.moves("pikachu", game: game, method: nil, language: "en").value()
            XCTAssertEqual(t.game, "x-y", game)
            XCTAssertEqual(values(t), ["thunderbolt electric 90", "charm fairy -"], "X and Y changed them")
        }
        let older = try await s.moves("pikachu", game: "black-white", method: nil, language: "en").value()
        XCTAssertEqual(values(older), ["charm normal -"], "Charm was Normal before X and Y")
        let byName = try await s.moves("pikachu", game: "karmesin", method: .egg, language: "de").value()
        XCTAssertEqual(byName.game, "scarlet-violet")
        XCTAssertEqual(byName.rows.map(\.move), ["volt-tackle"])
        for (game, says) in [("red-blue", "learns no moves in red-blue"), ("zelda", "no game is called \"zelda\"")] {
            do {
                _ = try await s.moves("pikachu", game: game, method: nil, language: "en").value()
                XCTFail(game)
            } catch {
                XCTAssertEqual(error.kind, .notFound, game)
                XCTAssertTrue(error.message.contains(says) && error.message.contains("scarlet-violet, x-y, black-white"), error.message)
            }
        }
    }

    /// A form PokeAPI lists no moves for (a Gigantamax form, Battle Bond Greninja) learns as its
    /// species' default form: its list and its game are that form's.
    func testAFormWithoutMovesOfItsOwnLearnsAsItsSpecies() async throws {
        let api = makeAPI()
        api.client.route(FakePokeAPI.base + "/pokemon/26/", json: """
            {"id":26,"name":"mon26","moves":[],"types":[{"slot":1,"type":{"name":"electric"}}],"abilities":[],"stats":[],
             "species":{"name":"pikachu","url":"\(FakePokeAPI.base)/pokemon-species/25/"}}
            """)
        let s = try makeService(api)
        let t = try await s.moves("mon26", game: "", method: .levelUp, language: "en").value()
        XCTAssertEqual(t.pokemon, "mon26")
        XCTAssertEqual(t.rows.map(\.move), ["charm", "thunderbolt"])
        let d = try await s.localizedDetail("mon26", language: "en").value()
        XCTAssertEqual(d.training?.game, "scarlet-violet")
        XCTAssertNotNil(try s.moves("mon26", game: "", method: .levelUp, language: "en").ready, "warm: both records in memory")
    }

    func testAMoveThatCannotBeHadIsSaidNotLeftOut() async throws {
        let api = makeAPI()
        api.client.route(FakePokeAPI.base + "/move/344/") { _ in HTTPResponse(status: 404, body: []) }
        let s = try makeService(api)
        do {
            _ = try await s.moves("pikachu", game: "", method: nil, language: "en").value()
            XCTFail("a table without Volt Tackle")
        } catch {
            XCTAssertEqual(error.kind, .unavailable)
            XCTAssertTrue(error.message.contains("1 of the 3 moves of pikachu could not be fetched"), error.message)
        }
        let levelUp = try await s.moves("pikachu", game: "", method: .levelUp, language: "en").value()
        XCTAssertEqual(levelUp.rows.count, 2, "the ways that do not need it are answered")
    }

    /// After a sync, the moves (by a game's name too) and the card's new parts answer with the
    /// network gone: each move and name was kept, once.
    func testASyncKeepsWhatTheMovesAndTheCardNeedOffline() async throws {
        let api = makeAPI()
        let s = try makeService(api)
        _ = try await s.sync().value()
        XCTAssertEqual(s.syncProgress.state, .done)
        for id in [85, 204, 344] { XCTAssertEqual(api.client.count(FakePokeAPI.base + "/move/\(id)/"), 1, "move \(id) once") }
        await s.loader.writesFinished()
        let offline = FakePokeAPI()  // a service started again, the API gone: every URL a 404
        let again = PokedexService(configuration: s.configuration, client: offline.client,
                                   store: try FileCacheStore(directory: s.configuration.cacheDirectory, capacity: 1 << 24),
                                   favorites: try FavoritesBook(persistence: MemoryFavoritesPersistence()))
        offline.client.route(FakePokeAPI.base + "/pokemon/25/") { _ in HTTPResponse(status: 503, body: []) }
        let t = try await again.moves("pikachu", game: "Karmesin", method: nil, language: "de").value()
        XCTAssertEqual(t.rows.map(\.name), ["Charme", "Donnerblitz", "Donnerblitz", "Volttackle"])
        let d = try await again.localizedDetail("pikachu", language: "de").value()
        XCTAssertEqual(d.training?.eggGroupNames, ["Feld", "Fee"])
        XCTAssertEqual(d.training?.heldItemNames, ["Kugelblitz"])
        XCTAssertTrue(offline.client.requests.allSatisfy { !$0.url.contains("/pokemon/") && !$0.url.contains("/move/") },
                      "\(offline.client.requests.map(\.url))")
    }

    /// A move that cannot be had fails the Pokémon that learn it, after the retries; the others
    /// are complete.
    func testAMoveASyncCannotHaveFailsThePokemonThatLearnIt() async throws {
        let api = makeAPI()
        api.client.route(FakePokeAPI.base + "/move/344/") { _ in HTTPResponse(status: 503, body: []) }
        var config = ServiceConfiguration(apiURL: FakePokeAPI.base + "/", spriteHosts: ["sprites.test"],
                                          cacheDirectory: dir + "/cache", dataDirectory: dir + "/data",
                                          spriteURLTemplate: "https://sprites.test/{id}.png", prefetch: false)
        config.scheduleScale = 0.001  // the retries' pauses, in milliseconds
        let s = PokedexService(configuration: config, client: api.client,
                               store: try FileCacheStore(directory: config.cacheDirectory, capacity: 1 << 24),
                               favorites: try FavoritesBook(persistence: MemoryFavoritesPersistence()))
        let result = try await s.sync().value()
        XCTAssertEqual(result.failed, 1, "Pikachu, who learns Volt Tackle")
        XCTAssertEqual(result.complete, UInt32(FakePokeAPI.names.count - 1))
        XCTAssertEqual(s.syncProgress.state, .failed)
        XCTAssertGreaterThan(api.client.count(FakePokeAPI.base + "/move/344/"), 1, "tried again after a pause")
    }

    func testTheCardsAbilitiesBreedingAndTrainingAsTheNewestGameHasThem() async throws {
        let s = try makeService(makeAPI())
        let d = try await s.localizedDetail("pikachu", language: "de").value()
        XCTAssertEqual(d.abilities, ["static", "lightning-rod"])
        XCTAssertEqual(d.abilityNames, ["Statik", "Blitzfänger"])
        let t = try XCTUnwrap(d.training)
        XCTAssertEqual(t.game, "scarlet-violet")
        XCTAssertEqual(t.gameName, "Karmesin/Purpur")
        XCTAssertEqual(t.hiddenAbility, "lightning-rod")
        XCTAssertEqual(t.eggGroupNames, ["Feld", "Fee"])
        XCTAssertEqual(t.baseFriendship, 50, "PokeAPI's 70 is from before Sword and Shield")
        XCTAssertEqual([t.genderRate, t.eggCycles.map(Int8.init), t.captureRate.map { Int8(truncatingIfNeeded: $0) }], [4, 10, -66])
        XCTAssertEqual(t.evYield, [.init(name: "speed", value: 2)])
        XCTAssertEqual(t.heldItemsVersion, "ultra-sun", "the newest version PokeAPI lists")
        XCTAssertEqual(t.heldItems, [.init(item: "light-ball", rarity: 5)])
        XCTAssertEqual(t.heldItemNames, ["Kugelblitz"])
        XCTAssertEqual(t.heldItemsVersionName, "Ultrasonne")
        XCTAssertNotNil(try s.localizedDetail("pikachu", language: "de").ready, "warm: every name in memory")
        // A form the games keep apart from its species.
        var f = t
        CurrentGameFacts.apply(&f, pokemon: "pikachu-world-cap", game: "scarlet-violet")
        XCTAssertEqual([f.eggGroups, [String(f.genderRate ?? 9)]], [["no-eggs"], ["0"]])
    }
}
