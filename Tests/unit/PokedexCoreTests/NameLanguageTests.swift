import PokedexLocks
import PokedexTestKit
import XCTest
@testable import PokedexCore

/// The session's locale as a PokeAPI language, and the desktop's names in it.
final class NameLanguageTests: XCTestCase {
    func testLocalesAsPokeAPICodes() {
        let cases: [(String, String?)] = [
            ("de_DE.UTF-8", "de"), ("de_AT.UTF-8@euro", "de"), ("fr_CA.UTF-8", "fr"), ("es_MX.UTF-8", "es"), ("it_IT", "it"),
            ("ja_JP.UTF-8", "ja-hrkt"), ("ko_KR.UTF-8", "ko"), ("zh_CN.UTF-8", "zh-hans"), ("zh_SG", "zh-hans"),
            ("zh_TW.UTF-8", "zh-hant"), ("zh_HK.UTF-8", "zh-hant"), ("zh", "zh-hans"), ("en_GB.UTF-8", "en"), ("ja", "ja-hrkt"),
            ("pt_BR.UTF-8", nil), ("ru_RU.UTF-8", nil), ("", nil), ("_", nil),
        ]
        for (locale, code) in cases { XCTAssertEqual(NameLanguage.code(forLocale: locale), code, locale) }
    }

    func testTheEnvironmentAsGettextReadsIt() {
        let cases: [([String: String], String)] = [
            ([:], "en"),
            (["LANG": "de_DE.UTF-8"], "de"),
            (["LANG": "de_DE.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"], "ja-hrkt"),
            (["LANG": "de_DE.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8", "LC_ALL": "fr_FR.UTF-8"], "fr"),
            (["LANG": "de_DE.UTF-8", "LANGUAGE": "pt_BR:zh_TW:de"], "zh-hant"),
            (["LANG": "pt_BR.UTF-8"], "en"),
            (["LANG": "pt_BR.UTF-8", "LANGUAGE": "pt_BR:pt:es"], "es"),
            (["LANG": "C.UTF-8", "LANGUAGE": "de"], "en"),
            (["LC_ALL": "POSIX", "LANGUAGE": "ja"], "en"),
            (["LANG": "", "LC_ALL": "", "LANGUAGE": "de"], "en"),
        ]
        for (env, code) in cases { XCTAssertEqual(NameLanguage.fromEnvironment(env), code, "\(env)") }
    }

    func makeService(language: String, dir: String) throws -> PokedexService {
        var config = ServiceConfiguration(apiURL: FakePokeAPI.base + "/", spriteHosts: ["sprites.test"],
                                          cacheDirectory: dir + "/cache", dataDirectory: dir + "/data",
                                          spriteURLTemplate: "https://sprites.test/{id}.png", prefetch: false)
        config.language = language
        return PokedexService(configuration: config, client: FakePokeAPI().client,
                              store: try FileCacheStore(directory: config.cacheDirectory, capacity: 1 << 24),
                              favorites: try FavoritesBook(persistence: MemoryFavoritesPersistence()))
    }

    /// GNOME's metas and KRunner's matches name Pokémon in the service's language.
    func testDesktopResultsInTheServicesLanguage() async throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (language, name) in [("en", "Pikachu"), ("ja-hrkt", "ピカチュウ"), ("ko", "피카츄"), ("zh-hant", "皮卡丘")] {
            let s = try makeService(language: language, dir: dir + "/" + language)
            let metas = try await s.desktopMetas(["25"]).value()
            XCTAssertEqual(metas.first?.name, name, language)
            let matches = try await s.krunnerMatch("pika").value()
            XCTAssertEqual(matches.first?.result.name, name, language)
        }
    }
}
