/// The language names are shown in: a PokeAPI code ("de", "ja-hrkt", "zh-hant"), chosen from
/// the locale as a desktop session sets it.
public enum NameLanguage {
    /// The codes PokeAPI has names in, as the bundled name table's columns (a test checks
    /// they agree).
    public static let available = ["en", "de", "fr", "es", "it", "ja", "ja-hrkt", "ja-roma", "ko", "zh-hans", "zh-hant", "es-419"]
    /// The most bytes a caller's language argument may hold.
    public static let maxArgumentBytes = 64

    /// A caller's language: "" (the service's own, `fallback`), a PokeAPI code in any case
    /// ("de", "ja-Hrkt"), or a locale ("de_DE.UTF-8", "zh_TW"). Nil when PokeAPI has no names
    /// in it.
    public static func resolve(_ argument: String, fallback: String) -> String? {
        if argument.isEmpty { return fallback }
        let lower = argument.lowercased()
        if available.contains(lower) { return lower }
        if lower == "roomaji" { return "ja-roma" }
        return code(forLocale: argument)
    }

    /// The language of a session's environment, read as gettext reads it: `LANGUAGE` (a
    /// colon-separated list of preferences, the first one available wins) unless the locale is
    /// C or POSIX, then `LC_ALL`, `LC_MESSAGES`, `LANG`. English when none is available
    /// (`pt_BR`: PokeAPI has no Portuguese names).
    public static func fromEnvironment(_ env: [String: String]) -> String {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { env[$0] }.first { !$0.isEmpty } ?? ""
        let base = name(of: locale)
        if base.isEmpty || base == "C" || base == "POSIX" { return "en" }
        for preference in (env["LANGUAGE"] ?? "").split(separator: ":") {
            if let code = code(forLocale: String(preference)) { return code }
        }
        return code(forLocale: locale) ?? "en"
    }

    /// A POSIX locale name ("de_AT.UTF-8", "zh_TW", "ja") as a PokeAPI code, nil when PokeAPI
    /// has no names in it. Japanese is ja-hrkt, the kana the games print; Chinese is zh-hant
    /// for Taiwan, Hong Kong and Macau, zh-hans elsewhere.
    public static func code(forLocale locale: String) -> String? {
        let parts = name(of: locale).split(separator: "_", maxSplits: 1)
        guard let language = parts.first?.lowercased(), !language.isEmpty else { return nil }
        let territory = parts.count > 1 ? parts[1].uppercased() : ""
        let code: String
        switch language {
        case "ja": code = "ja-hrkt"
        case "zh": code = ["TW", "HK", "MO", "HANT"].contains(territory) ? "zh-hant" : "zh-hans"
        default: code = language
        }
        return available.contains(code) ? code : nil
    }

    /// A locale without its encoding and modifier: "de_AT.UTF-8@euro" is "de_AT".
    private static func name(of locale: String) -> String {
        locale.split(whereSeparator: { $0 == "." || $0 == "@" }).first.map(String.init) ?? ""
    }
}
