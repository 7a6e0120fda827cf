#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// The XDG base directories, with the specification's fallbacks.
public enum XDGPaths {
    static func env(_ name: String) -> String? {
        guard let v = ProcessInfo.processInfo.environment[name], v.hasPrefix("/") else { return nil }
        return v
    }
    static var home: String {
        if let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty { return home }
        // As glibc's tools do without $HOME: the password database's entry.
        if let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir { return String(cString: dir) }
        return "/"
    }

    /// `$XDG_CACHE_HOME`, or `~/.cache`.
    public static func cacheHome() -> String { env("XDG_CACHE_HOME") ?? home + "/.cache" }
    /// `$XDG_DATA_HOME`, or `~/.local/share`.
    public static func dataHome() -> String { env("XDG_DATA_HOME") ?? home + "/.local/share" }

    /// `path` made absolute once, at start, against `directory` (the working directory): a
    /// relative `--cache-dir cache` means `$PWD/cache`, whatever the service's directory later.
    /// `.` and `..` components are resolved by name, without following links.
    public static func absolute(_ path: String, from directory: String = FileManager.default.currentDirectoryPath) -> String {
        let joined = path.hasPrefix("/") ? path : directory + "/" + path
        var parts: [Substring] = []
        for part in joined.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
