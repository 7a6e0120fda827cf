/// The language names are shown in: a PokeAPI code ("de", "ja-hrkt", "zh-hant"), chosen from
/// the locale as a desktop session sets it.
public enum NameLanguage {
    /// The codes the bundled table has names in.
    public static var available: [String] { BundledNames.columns }

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
