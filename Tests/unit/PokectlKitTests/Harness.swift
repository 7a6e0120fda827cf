import PokedexBusClient
import PokedexLocale
import XCTest
@testable import PokectlKit

/// What a command did: its exit code, stdout and stderr.
struct Ran {
    var code: Int32
    var out: String
    var err: String
}

/// Runs pokectl's commands in process: the arguments parsed as the main parses them, the
/// command run in a context of the test's (a fake service, buffers for stdout and stderr, no
/// terminal, 80 columns, the words of `words`).
enum Harness {
    /// The catalogues `make catalogues` built (.build/locale), as the words tests read them.
    static let localeDirectory: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)  // Tests/unit/PokectlKitTests/Harness.swift
        return parts.joined(separator: "/") + "/.build/locale"
    }()

    static let german = Catalogues(directory: localeDirectory).words("de")

    /// `environment`: added to the context's (`COLUMNS`, `COLORTERM`…).
    static func run(_ arguments: [String], _ fake: FakeService, words: Words = .english, language: String = "en",
                    environment: [String: String] = [:],
                    connect: (@Sendable () throws(BusError) -> any PokedexService)? = nil,
                    events: FakeEvents? = nil) -> Ran {
        switch PokectlProgram.parsing(arguments) {
        case .failure(let ended):
            return Ran(code: ended.code, out: ended.code == 0 ? ended.text : "", err: ended.code == 0 ? "" : ended.text)
        case .success(let parsed):
            let options = (parsed.command as? any PokectlCommand)?.options ?? ContextOptions()
            let out = TextStream(.buffer), err = TextStream(.buffer)
            // Not `connect ?? { fake }`: an optional typed-throws closure defaulted that way is
            // miscompiled by Swift 6.3 (the closure called is garbage).
            let reach: @Sendable () throws(BusError) -> any PokedexService
            if let connect { reach = connect } else { reach = { () throws(BusError) -> any PokedexService in fake } }
            let context = Context(environment: ["COLUMNS": "80", "TERM": "xterm-256color"].merging(environment) { $1 },
                                  language: language, words: words,
                                  color: options.color, json: options.json, isTerminal: false, out: out, err: err,
                                  connect: reach,
                                  follow: { () throws(BusError) -> any ServiceEvents in
                                      guard let events else { throw BusError(name: BusError.Name.noServer, message: "no session bus in the test") }
                                      return events
                                  })
            let code = PokectlProgram.run(parsed, in: context)
            return Ran(code: code, out: out.text, err: err.text)
        }
    }
}

/// The service's data the tests share: a few Pokémon, in English and German.
enum Fixtures {
    static func entry(_ id: UInt32, _ name: String, favorite: Bool = false) -> ListEntry {
        ListEntry(id: id, name: name, spritePath: "/cache/sprites/\(id).png", favorite: favorite)
    }

    static let pikachu = entry(25, "pikachu", favorite: true)
    static let bulbasaur = entry(1, "bulbasaur")
    static let charizard = entry(6, "charizard")

    static let german: [UInt32: String] = [1: "Bisasam", 6: "Glurak", 25: "Pikachu"]
    static let english: [UInt32: String] = [1: "Bulbasaur", 6: "Charizard", 25: "Pikachu"]

    /// A fake that answers the names in `language` (de or en).
    static func service() -> FakeService {
        let fake = FakeService()
        fake.on(Pokedex1.displayNames) { (ids, language) in
            let names = language == "de" ? german : english
            return ids.compactMap { id in names[id].map { DisplayName(id: id, name: "", displayName: $0) } }
        }
        return fake
    }

    static func notFound(_ what: String) -> BusError {
        BusError(name: PokedexError.namePrefix + "NotFound", message: "no Pokémon named \"\(what)\"")
    }
}
