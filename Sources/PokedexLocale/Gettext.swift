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
        return Words(decimalSeparator: separator.isEmpty ? "." : separator, lookup: { msgid in
            // gettext answers with the msgid's own pointer when it has no translation: read
            // the answer while that buffer lives.
            msgid.withCString { p in
                guard let translated = pokedex_gettext(p), translated != p else { return msgid }
                return String(cString: translated)
            }
        }, plural: { one, many, n in
            one.withCString { p1 in
                many.withCString { p2 in
                    guard let translated = pokedex_ngettext(p1, p2, UInt(max(0, n))) else { return n == 1 ? one : many }
                    return translated == p1 ? one : translated == p2 ? many : String(cString: translated)
                }
            }
        })
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
