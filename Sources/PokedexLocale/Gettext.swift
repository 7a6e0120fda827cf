import CLocale
import Glibc
import PokedexModels

extension Words {
    /// The words of the locale the environment names (gettext's "pokedexd" domain under
    /// `localeDirectory`), with its decimal separator; English where the locale is not
    /// installed or has no catalogue.
    public static func gettext(localeDirectory: String) -> Words {
        guard pokedex_bind_messages(localeDirectory) == 0 else { return .english }
        var radix = [CChar](repeating: 0, count: 8)
        pokedex_decimal_point(&radix, UInt(radix.count))
        let separator = String(cString: radix)
        return Words(decimalSeparator: separator.isEmpty ? "." : separator) { msgid in
            // gettext answers with the msgid's own pointer when it has no translation: read
            // the answer while that buffer lives.
            msgid.withCString { p in
                guard let translated = pokedex_gettext(p), translated != p else { return msgid }
                return String(cString: translated)
            }
        }
    }

    /// Where the catalogues of a program installed in `PREFIX/bin` (or `PREFIX/libexec`) are:
    /// `PREFIX/share/locale`, unless `TEXTDOMAINDIR` says, as gettext's shell tools read it.
    public static func localeDirectory(environment: [String: String]) -> String {
        if let dir = environment["TEXTDOMAINDIR"], dir.hasPrefix("/") { return dir }
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        guard n > 0 else { return "/usr/share/locale" }
        var parts = String(decoding: buf[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: "/")
        guard parts.count >= 2 else { return "/usr/share/locale" }
        parts.removeLast(2)
        return "/" + (parts + ["share", "locale"]).joined(separator: "/")
    }
}
