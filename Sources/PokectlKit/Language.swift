import Synchronization
import PokedexLocale
import ArgumentParser
import Glibc
import PokedexBusClient
import PokedexModels

/// The reader's language: for the names the service gives (a PokeAPI code, from `--language`
/// or the terminal's locale) and for pokectl's own words (gettext, from the locale).
enum Language {
    /// `--language`: a PokeAPI code or a locale; refused when PokeAPI has no names in it. The
    /// code itself is the ``Context``'s (``Context/language``), else the locale's, as gettext
    /// reads the environment (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`).
    static func choose(_ argument: String?) throws {
        guard let argument else { return }
        guard let c = NameLanguage.resolve(argument, fallback: "en") else {
            throw ValidationError(words.trf("PokeAPI has no names in \"%s\": give one of %s, or a locale such as de_DE.UTF-8",
                                            UntrustedText.terminal(argument), NameLanguage.available.joined(separator: ", ")))
        }
        // In a C or English session pokectl's own words follow it too ("Schillerndes Glurak" under
        // `show --random --language de`, not "Shiny Glurak"); a German reader asking for Japanese
        // names keeps German words. gettext reads LANGUAGE first, though not in the C locale,
        // where C.UTF-8 stands in.
        guard readsEnglish(localeEnvironment) else { return }
        setenv("LANGUAGE", messagesLanguage(c), 1)
        if ["C", "POSIX", ""].contains(String(messagesLocale().split(separator: ".").first ?? "")) { setenv("LC_ALL", "C.UTF-8", 1) }
    }

    /// The catalogue (po/LINGUAS) for a PokeAPI code: `zh-hant` is read in zh_TW.
    static func messagesLanguage(_ code: String) -> String {
        switch code {
        case "ja-hrkt", "ja-roma": return "ja"
        case "zh-hans": return "zh_CN"
        case "zh-hant": return "zh_TW"
        case "es-419": return "es"
        default: return code
        }
    }

    /// The locale gettext reads messages in: LC_ALL, LC_MESSAGES, LANG, as set now.
    private static func messagesLocale() -> String {
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] { if let v = getenv(key).map({ String(cString: $0) }), !v.isEmpty { return v } }
        return "C"
    }

    /// The locale variables as set now (``choose(_:)`` may have set them after the start).
    private static var localeEnvironment: [String: String] {
        var env = Terminal.environment
        for key in ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LC_NUMERIC", "LANG"] { env[key] = getenv(key).map { String(cString: $0) } }
        return env
    }

    /// pokectl's words in the locale's language: the catalogues installed beside the binary
    /// (`../share/locale`), or where `TEXTDOMAINDIR` says.
    /// In a C or English locale the words are the source's own: no catalogue is opened, and a
    /// warm command costs no more than it did before its words were translated.
    static let words = Self.readsEnglish(localeEnvironment) ? Words.english
        : Words.gettext(localeDirectory: Words.localeDirectory(environment: Terminal.environment))

    /// Whether gettext would give the source's words and the C locale's decimal point: messages
    /// and numbers in C, POSIX or English, and no `LANGUAGE` list naming another language.
    static func readsEnglish(_ env: [String: String]) -> Bool {
        func category(_ name: String) -> String {
            for key in ["LC_ALL", name, "LANG"] { if let v = env[key], !v.isEmpty { return v } }
            return "C"
        }
        func english(_ locale: String) -> Bool {
            locale == "C" || locale == "POSIX" || locale.hasPrefix("C.") || locale.hasPrefix("en_") || locale == "en"
        }
        let messages = category("LC_MESSAGES")
        // gettext reads LANGUAGE only when the messages locale is not C (C.UTF-8 is not C).
        let list = english(messages) && !(messages == "C" || messages == "POSIX") ? env["LANGUAGE"] ?? "" : ""
        let languages = list.split(separator: ":").map(String.init).filter { !$0.isEmpty }
        return english(messages) && english(category("LC_NUMERIC")) && languages.allSatisfy { english($0) || $0.hasPrefix("en") }
    }
}

/// pokectl's help texts (abstracts, discussions, each option's help), marked for
/// `tools/update-po`. The argument parser builds them whenever it parses, so they are read in
/// the reader's language only once a help page or a usage error is being written
/// (``HelpWords/reading``): a command that prints no words opens no catalogue.
enum HelpWords {
    static let reading = Atomic<Bool>(false)
}

/// `msgid` in the reader's language while ``HelpWords/reading``, else as written.
func tr(_ msgid: String) -> String { HelpWords.reading.load(ordering: .relaxed) ? Language.words.tr(msgid) : msgid }
