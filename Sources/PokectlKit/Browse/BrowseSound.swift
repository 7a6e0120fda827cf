import Glibc

/// Whether browse plays the cries, remembered between runs as `off` or `on` in
/// `$XDG_STATE_HOME/pokectl/sound` (else `~/.local/state/pokectl/sound`); on until turned off.
enum BrowseSound {
    static func file(_ environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/pokectl/sound" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.local/state/pokectl/sound"
    }

    static func remembered(_ environment: [String: String]) -> Bool {
        guard let path = file(environment), let f = fopen(path, "r") else { return true }
        defer { fclose(f) }
        var buf = [CChar](repeating: 0, count: 8)
        guard fgets(&buf, Int32(buf.count), f) != nil else { return true }
        return !String(cString: buf).hasPrefix("off")
    }

    /// Written whole or not at all (a temporary file renamed over it); a failure is not worth
    /// a word: the setting is only a convenience.
    static func remember(_ on: Bool, _ environment: [String: String]) {
        guard let path = file(environment) else { return }
        let dir = String(path.dropLast("/sound".count))
        var made = ""
        for part in dir.split(separator: "/") {
            made += "/" + part
            mkdir(made, 0o700)
        }
        let temporary = path + ".tmp.\(getpid())"
        guard let f = fopen(temporary, "w") else { return }
        fputs(on ? "on\n" : "off\n", f)
        let ok = fflush(f) == 0
        fclose(f)
        if !ok || rename(temporary, path) != 0 { unlink(temporary) }
    }
}
