import PokedexLocale
import ArgumentParser
import Glibc
import PokedexBusClient
import PokedexModels

/// The reader's language: for the names the service gives (a PokeAPI code, from `--language`
/// or the terminal's locale) and for pokectl's own words (gettext, from the locale).
enum Language {
    /// The code asked of the service: `--language` when given, else the locale's, as gettext
    /// reads the environment (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`).
    nonisolated(unsafe) private(set) static var code = NameLanguage.fromEnvironment(Terminal.environment)

    /// `--language`: a PokeAPI code or a locale; refused when PokeAPI has no names in it.
    static func choose(_ argument: String?) throws {
        guard let argument else { return }
        guard let c = NameLanguage.resolve(argument, fallback: "en") else {
            throw ValidationError(words.trf("PokeAPI has no names in \"%s\": give one of %s, or a locale such as de_DE.UTF-8",
                                            UntrustedText.terminal(argument), NameLanguage.available.joined(separator: ", ")))
        }
        code = c
    }

    /// pokectl's words in the locale's language: the catalogues installed beside the binary
    /// (`../share/locale`), or where `TEXTDOMAINDIR` says.
    static let words = Words.gettext(localeDirectory: Words.localeDirectory(environment: Terminal.environment))

    /// The detail in ``code``, as the service sends it (every key, for `--json`); in English
    /// from a service started before an upgrade, which does not know `LocalizedDetail`.
    static func detail(_ pokemon: String, _ c: PokedexClient) throws(BusError) -> [BusValue] {
        do {
            return try c.values(Pokedex1.localizedDetail, (pokemon, code))
        } catch {
            guard error.name == BusError.Name.unknownMethod else { throw error }
            return try c.values(Pokedex1.detail, pokemon)
        }
    }

    /// The names of `ids` as the games write them, in ``code``; empty from a service too old
    /// to give them (the identifiers are printed then).
    static func names(_ ids: [UInt32], _ c: PokedexClient) -> [UInt32: String] {
        guard !ids.isEmpty, let names = try? c.call(Pokedex1.displayNames, (ids, code)) else { return [:] }
        return Dictionary(names.map { ($0.id, $0.displayName) }, uniquingKeysWith: { a, _ in a })
    }
}

/// `msgid` in the reader's language: pokectl's help and usage, marked for `tools/update-po`.
func tr(_ msgid: String) -> String { Language.words.tr(msgid) }
