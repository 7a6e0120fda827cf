import PokedexModels
import PokedexBusClient
import PokedexLocks
import Foundation
import PokedexTestKit
import XCTest
@testable import PokectlKit

/// `pokectl moves` and the card's abilities, breeding and training lines (issue 57), in
/// English and German, as text and JSON, with the errors a player meets.
final class MovesCommandTests: XCTestCase {
    static func table(german: Bool) -> MoveTable {
        func row(_ method: Learnset.Method, _ level: UInt8, _ move: String, _ en: String, _ de: String, _ power: UInt16?) -> MoveRow {
            MoveRow(method: method, level: level, id: 1, move: move, name: german ? de : en, type: "electric",
                    typeName: german ? "Elektro" : "Electric", category: power == nil ? "status" : "special",
                    categoryName: power == nil ? "Status" : (german ? "Spezial" : "Special"), power: power, accuracy: power == nil ? nil : 100, pp: 15)
        }
        return MoveTable(id: 25, pokemon: "pikachu", game: "scarlet-violet", gameName: german ? "Karmesin/Purpur" : "Scarlet/Violet",
                         games: ["scarlet-violet", "x-y"], language: german ? "de" : "en",
                         rows: [row(.levelUp, 0, "thunder-punch", "Thunder Punch", "Donnerschlag", 75),
                                row(.levelUp, 36, "thunderbolt", "Thunderbolt", "Donnerblitz", 90),
                                row(.machine, 0, "charge", "Charge", "Ladevorgang", nil)])
    }

    func service(asked: @escaping @Sendable ((String, String, Learnset.Method?, String)) -> Void = { _ in }) -> FakeService {
        let fake = Fixtures.service()
        fake.on(Pokedex1.moves) { (args: (String, String, Learnset.Method?, String)) throws(BusError) in
            asked(args)
            guard args.0 == "pikachu" else { throw Fixtures.notFound(args.0) }
            guard args.1.isEmpty || args.1 == "scarlet" else {
                throw BusError(name: PokedexError.Kind.notFound.dbusName, message: "no game is called \"\(args.1)\": give one of scarlet-violet, x-y")
            }
            var t = Self.table(german: args.3 == "de")
            if let m = args.2 { t.rows = t.rows.filter { $0.method == m } }
            return t
        }
        return fake
    }

    func testTheTableUnderEachWaysHeading() {
        let ran = Harness.run(["moves", "pikachu"], service())
        XCTAssertEqual(ran.code, 0, ran.err)
        let lines = ran.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "Pikachu  Scarlet/Violet")
        XCTAssertTrue(lines.contains("By level-up") && lines.contains("From TMs"), ran.out)
        XCTAssertTrue(lines.contains { $0.hasPrefix("  Evo.  Thunder Punch  Electric  Special      75   100  15") }, ran.out)
        XCTAssertTrue(lines.contains { $0.hasPrefix("  36    Thunderbolt") }, ran.out)
        XCTAssertTrue(lines.contains { $0.hasPrefix("  Charge  Electric  Status        —     —  15") }, "a dash where the game prints none: \(ran.out)")
        let de = Harness.run(["moves", "pikachu"], service(), words: Harness.german, language: "de")
        XCTAssertTrue(de.out.hasPrefix("Pikachu  Karmesin/Purpur"), de.out)
        XCTAssertTrue(de.out.contains("Donnerblitz") && de.out.contains("Elektro"), de.out)
    }

    func testGameMethodAndOneMoveByItsName() {
        let asked = Mutex<[(String, String, Learnset.Method?, String)]>([])
        let fake = service { a in asked.withLock { $0.append(a) } }
        XCTAssertEqual(Harness.run(["moves", "pikachu", "--game", "scarlet", "--method", "machine"], fake).code, 0)
        XCTAssertEqual(asked.withLock { $0.last?.1 }, "scarlet")
        XCTAssertEqual(asked.withLock { $0.last?.2 }, .machine)
        let one = Harness.run(["moves", "pikachu", "donnerblitz"], service(), words: Harness.german, language: "de")
        XCTAssertEqual(one.code, 0, one.err)
        XCTAssertTrue(one.out.contains("Donnerblitz") && !one.out.contains("Donnerschlag"), one.out)
        XCTAssertEqual(Harness.run(["moves", "pikachu", "thunder-punch"], service()).out.contains("Thunder Punch"), true, "by identifier")
        XCTAssertEqual(MovesCommandTests.folded("１０まんボルト"), MovesCommandTests.folded("10まんボルト"), "full width as typed")
        let none = Harness.run(["moves", "pikachu", "surf"], service())
        XCTAssertEqual(none.code, 1)
        XCTAssertTrue(none.err.contains("Pikachu learns no move called \"surf\" in Scarlet/Violet"), none.err)
        let badMethod = Harness.run(["moves", "pikachu", "--method", "tm"], service())
        XCTAssertEqual(badMethod.code, 2, "level-up, machine, egg or tutor")
        let badGame = Harness.run(["moves", "pikachu", "--game", "zelda"], service())
        XCTAssertEqual(badGame.code, 1)
        XCTAssertTrue(badGame.err.contains("give one of scarlet-violet, x-y"), badGame.err)
        XCTAssertEqual(Harness.run(["moves", "nobody"], service()).code, 1)
    }

    static func folded(_ s: String) -> String { Moves.folded(s) }

    func testJSONHasEveryKeyTheFilterKeeps() throws {
        let ran = Harness.run(["moves", "pikachu", "thunderbolt", "--json"], service())
        XCTAssertEqual(ran.code, 0, ran.err)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(ran.out.utf8)) as? [String: Any])
        XCTAssertEqual(Set(json.keys), ["id", "pokemon", "game", "game_name", "games", "language", "moves"])
        let moves = try XCTUnwrap(json["moves"] as? [[String: Any]])
        XCTAssertEqual(moves.count, 1)
        XCTAssertEqual(Set(moves[0].keys), ["method", "level", "id", "move", "name", "type", "type_name", "category", "category_name",
                                            "power", "accuracy", "pp"])
        XCTAssertEqual(moves[0]["level"] as? Int, 36)
        let charge = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(Harness.run(["moves", "pikachu", "charge", "--json"], service()).out.utf8)) as? [String: Any])
        XCTAssertTrue((charge["moves"] as? [[String: Any]])?.first?["power"] is NSNull, "null where the game prints none")
    }

    func testShowHasTheAbilitiesAndALineEachForBreedingAndTraining() {
        let fake = Fixtures.service()
        fake.on(Pokedex1.localizedDetail) { (_, language) in
            var d = MockCards.full(1, language: language)
            d.abilityEffects = MockCards.effects(d.abilities, language: language)
            d.training = MockCards.training(d.abilities, language: language)
            return d
        }
        let ran = Harness.run(["show", "eevee", "--no-image"], fake, environment: ["COLUMNS": "80"])
        XCTAssertEqual(ran.code, 0, ran.err)
        for expected in ["Anticipation · hidden ability", "  Notifies all trainers", "Breeding & training · Scarlet/Violet",
                         "Breeding   Human-Like, Amorphous · ♂ 87.5 % · ♀ 12.5 % · 35 egg cycles",
                         "Training   EV yield 1 Sp. Def, 2 Speed · catch rate 45 · friendship 50 ·\n           Fluctuating",
                         "Held items Light Ball 5 %, Oran Berry 50 % (Ultra Moon)"] {
            XCTAssertTrue(ran.out.contains(expected), "\(expected): \(ran.out)")
        }
        let de = Harness.run(["show", "eevee", "--no-image"], fake, words: Harness.german, language: "de", environment: ["COLUMNS": "80"])
        XCTAssertTrue(de.out.contains("♂ 87,5 % · ♀ 12,5 %"), "the locale's decimal comma: \(de.out)")
        XCTAssertTrue(de.out.contains("Menschenähnlich, Amorph") && de.out.contains("Karmesin/Purpur"), de.out)
    }
}
