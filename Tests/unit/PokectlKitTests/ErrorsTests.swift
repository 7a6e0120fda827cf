import PokedexBusClient
import XCTest
@testable import PokectlKit

/// How every command fails when the service is not there, cannot save, or refuses an argument:
/// one line on stderr that says what to do, and the documented exit code.
final class ErrorsTests: XCTestCase {
    /// Every command that calls the service, with arguments it accepts.
    static let commands: [[String]] = [
        ["list"], ["search", "pika"], ["fav", "pikachu"], ["unfav", "pikachu"], ["favs"], ["sprite", "pikachu"],
        ["show", "pikachu"], ["show", "--random"], ["cry", "pikachu", "--path-only"], ["sync"], ["cache", "stats"],
        ["cache", "verify"], ["cache", "clear"],
    ]

    private static let noBus: @Sendable () throws(BusError) -> any PokedexService = { () throws(BusError) -> any PokedexService in
        throw BusError(name: BusError.Name.noServer, message: "cannot connect to the session bus: No such file or directory")
    }

    func testNoSessionBusIsUnavailableForEveryCommand() {
        for arguments in Self.commands {
            let ran = Harness.run(arguments, FakeService(), connect: Self.noBus)
            XCTAssertEqual(ran.code, 3, "\(arguments)")
            XCTAssertEqual(ran.out, "", "\(arguments)")
            XCTAssertTrue(ran.err.hasPrefix("pokectl: no session bus (cannot connect"), "\(arguments): \(ran.err)")
        }
        let de = Harness.german
        let ran = Harness.run(["list"], FakeService(), words: de, language: "de", connect: Self.noBus)
        XCTAssertEqual(ran.code, 3)
        XCTAssertNotEqual(ran.err, Harness.run(["list"], FakeService(), connect: Self.noBus).err, "in German")
    }

    func testAServiceThatCannotAnswerIsSaidBeforeAnythingIsAsked() {
        let fake = FakeService()
        fake.notReady = "pokedexd (pid 42) is stopped (SIGSTOP or a debugger)"
        for arguments in Self.commands {
            let ran = Harness.run(arguments, fake)
            XCTAssertEqual(ran.code, 3, "\(arguments)")
            XCTAssertEqual(ran.err, "pokectl: pokedexd (pid 42) is stopped (SIGSTOP or a debugger)\n", "\(arguments)")
        }
        XCTAssertEqual(fake.calls, [], "nothing asked of a service that cannot answer")
    }

    /// Every method answers with `error`.
    private func failing(_ error: BusError) -> FakeService {
        let fake = FakeService()
        fake.on(Pokedex1.listPage) { _ throws(BusError) in throw error }
        fake.on(Pokedex1.searchDetailed) { _ throws(BusError) in throw error }
        fake.on(Pokedex1.changeFavorite) { _ throws(BusError) in throw error }
        fake.on(Pokedex1.listFavorites) { _ throws(BusError) in throw error }
        fake.on(Pokedex1.spritePath) { _ throws(BusError) in throw error }
        fake.on(Pokedex1.localizedDetail) { _ throws(BusError) in throw error }
        fake.on(Pokedex1.randomSprite) { _ throws(BusError) in throw error }
        fake.on(Pokedex1.cryPath) { _ throws(BusError) in throw error }
        fake.on(Pokedex1.cacheStats) { _ throws(BusError) in throw error }
        fake.on(Pokedex1.verifyCache) { _ throws(BusError) in throw error }
        fake.on(Pokedex1.clearCache) { _ throws(BusError) in throw error }
        return fake
    }

    func testTheServiceUnavailableExitsThreeWithWhatToDo() {
        let fake = failing(BusError(name: PokedexError.namePrefix + "Unavailable", message: "the network is down and nothing is cached"))
        for arguments in Self.commands where arguments != ["sync"] {
            let ran = Harness.run(arguments, fake)
            XCTAssertEqual(ran.code, 3, "\(arguments)")
            XCTAssertEqual(ran.err, "pokectl: the network is down and nothing is cached; check the network, or 'journalctl --user -u pokedex'\n",
                           "\(arguments)")
        }
        let de = Harness.german
        let ran = Harness.run(["list"], fake, words: de, language: "de")
        XCTAssertEqual(ran.code, 3)
        XCTAssertTrue(ran.err.hasSuffix("; " + de.tr("check the network, or 'journalctl --user -u pokedex'") + "\n"), ran.err)
    }

    /// Storage exits 4; space is the remedy named only when space is what ran out.
    func testStorageExitsFourAndSaysWhatToDo() {
        let full = "cannot save favorites: cannot write /home/a/.local/share/pokedex/favorites.json: No space left on device"
        var ran = Harness.run(["fav", "pikachu"], failing(BusError(name: PokedexError.namePrefix + "Storage", message: full)))
        XCTAssertEqual(ran.code, 4)
        XCTAssertEqual(ran.err, "pokectl: \(full); free some disk space and try again\n")
        for message in ["/home/a/.local/share/pokedex/favorites.json is a directory, not a file: pokedexd neither reads nor replaces it",
                        "cannot save favorites: cannot write /x/favorites.json: Read-only file system"] {
            ran = Harness.run(["fav", "pikachu"], failing(BusError(name: PokedexError.namePrefix + "Storage", message: message)))
            XCTAssertEqual(ran.code, 4)
            XCTAssertFalse(ran.err.contains("disk space"), ran.err)
            XCTAssertTrue(ran.err.hasSuffix("; see 'journalctl --user -u pokedex'\n"), ran.err)
        }
    }

    /// A search is offered only where the name was not known: a cry PokeAPI lacks is no
    /// misspelt name (issue 56). A Pokémon the message names by identifier is named as the
    /// games write it, in the reader's language.
    func testNotFoundOffersASearchOnlyForAnUnknownNameAndNamesThePokemon() {
        let unknown = BusError(name: PokedexError.namePrefix + "NotFound", message: "no Pokémon named \"pikachoo\"")
        XCTAssertTrue(Failure(unknown, words: .english).message.hasSuffix("; try 'pokectl search' to find the name"))
        let noCry = BusError(name: PokedexError.namePrefix + "NotFound", message: ServiceMessages.format(ServiceMessages.noCry, "pikachu"))
        XCTAssertEqual(Failure(noCry, words: .english).message, "PokeAPI has no cry for pikachu")
        let de = Harness.german
        let gone = BusError(name: PokedexError.namePrefix + "Unavailable", message: ServiceMessages.format(ServiceMessages.cryUnavailable, "charizard"))
        let said = Failure(gone, words: de) { $0 == "charizard" ? "Glurak" : nil }.message
        XCTAssertTrue(said.hasPrefix(de.trf(ServiceMessages.cryUnavailable, "Glurak")), said)
        XCTAssertFalse(said.contains("charizard"), said)
    }

    func testAnArgumentTheServiceRefusesIsUsage() {
        let ran = Harness.run(["show", "pikachu"], failing(BusError(name: PokedexError.namePrefix + "InvalidArgument", message: "name: too long")))
        XCTAssertEqual(ran.code, 2)
        XCTAssertEqual(ran.err, "pokectl: name: too long\n")
    }

    func testATimeoutSaysTheCallMayStillLand() {
        let ran = Harness.run(["fav", "pikachu"], failing(BusError(name: "org.freedesktop.DBus.Error.Timeout", message: "Connection timed out")))
        XCTAssertEqual(ran.code, 3)
        XCTAssertTrue(ran.err.hasSuffix("; what was asked may still be done when it answers again\n"), ran.err)
    }

    func testParserErrorsAreUsage() {
        for arguments in [["nonsense"], ["list", "--page", "x"], ["fav"], ["cache", "shrink"], ["status", "--color", "sometimes"],
                          ["show", "pikachu", "--language", "xx"], ["widget", "--width", "5"], ["watch", "--count", "0"]] {
            let ran = Harness.run(arguments, FakeService())
            XCTAssertEqual(ran.code, 2, "\(arguments)")
            XCTAssertTrue(ran.err.contains("Error:") || ran.err.contains("Usage:"), "\(arguments): \(ran.err)")
        }
        XCTAssertEqual(Harness.run(["--help"], FakeService()).code, 0)
        XCTAssertEqual(Harness.run(["list", "--help"], FakeService()).code, 0)
    }

    func testBrowseWithoutATerminalIsUsage() {
        let ran = Harness.run(["browse"], FakeService())
        XCTAssertEqual(ran.code, 2)
        XCTAssertEqual(ran.err, "pokectl: browse needs a terminal on its input and output; for scripts, use 'pokectl list' or 'pokectl search'\n")
    }
}
