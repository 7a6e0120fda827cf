/// What `pokectl browse` opens on: a Pokémon's card (the row a person chose, a form
/// included), a search, or both (the card, and behind it the search it was found by).
public struct BrowseLaunch: Equatable, Sendable {
    /// The Pokémon whose card opens first.
    public var card: UInt32?
    /// The search the grid shows (after Esc, when a card opens first).
    public var query: String

    public init(card: UInt32? = nil, query: String = "") {
        self.card = card
        self.query = query
    }

    /// pokectl's arguments after `browse`: the card by number, then the query after `--`, so
    /// that pokectl takes it as the search whatever it looks like (`--help` is a search). The
    /// query is the shell's terms: browse lists what the shell's search showed for them
    /// (`--desktop-search`), not what its own search line finds.
    public var arguments: [String] {
        (card.map { ["--open", String($0)] } ?? []) + (query.isEmpty ? [] : ["--desktop-search", "--", query])
    }
}

/// Starts programs in the user's session, outside the service (its sandbox), as a launcher
/// would: `pokectl browse` in a terminal. Never waits.
public protocol DesktopLauncher: Sendable {
    /// Opens `pokectl browse` on `launch` in a terminal; false when there is no terminal to
    /// open. `caller` is the bus name that asked (nil for the service's own card buttons): only
    /// its activation token goes with the launch. `failed` runs, once, when a start that went
    /// ahead fails later and nothing else could start it (systemd-run reached no user manager,
    /// and Landlock forbids a direct start).
    func openBrowse(_ launch: BrowseLaunch, caller: String?, failed: @escaping @Sendable () -> Void) -> Bool
    /// Puts `text` on the clipboard for `caller`; false when no clipboard tool is there.
    func copy(_ text: String, caller: String?) -> Bool
    /// The desktop's activation token for the next program `caller` starts (Wayland focus).
    func setActivationToken(_ token: String, caller: String)
}

extension DesktopLauncher {
    /// ``openBrowse(_:caller:failed:)`` where nothing else is to be done if it fails later.
    func openBrowse(_ launch: BrowseLaunch, caller: String?) -> Bool { openBrowse(launch, caller: caller, failed: {}) }
}

/// The rules of a launch from the desktop's search providers, apart from the spawning: which
/// terminal, and which argv it gets. A caller's text (the search typed in GNOME's overview, a
/// KRunner token) never lands where a terminal or pokectl reads options.
public enum TerminalCommand {
    /// Terminals by name, and the options that come before the program they run: each of these
    /// takes the rest of its argv as the program and its arguments. (gnome-terminal's and kgx's
    /// `-e` take one string that their parser reads on from, so they get `--`.)
    public static let known: [(name: String, run: [String])] = [
        ("xdg-terminal-exec", ["--"]), ("x-terminal-emulator", ["-e"]), ("gnome-terminal", ["--"]), ("kgx", ["--"]),
        ("ptyxis", ["--"]), ("konsole", ["-e"]), ("xfce4-terminal", ["-x"]), ("mate-terminal", ["-x"]), ("qterminal", ["-e"]),
        ("terminator", ["-x"]), ("kitty", []), ("alacritty", ["-e"]), ("foot", []), ("wezterm", ["start", "--"]),
        ("xterm", ["-e"]), ("uxterm", ["-e"]), ("urxvt", ["-e"]), ("st", ["-e"]),
    ]

    /// Each desktop's own terminals, by the names `XDG_CURRENT_DESKTOP` lists.
    static let desktops: [String: [String]] = [
        "GNOME": ["kgx", "gnome-terminal", "ptyxis"], "KDE": ["konsole"], "XFCE": ["xfce4-terminal"], "MATE": ["mate-terminal"],
        "X-CINNAMON": ["gnome-terminal"], "CINNAMON": ["gnome-terminal"], "BUDGIE": ["gnome-terminal"], "UNITY": ["gnome-terminal"],
        "LXQT": ["qterminal"], "PANTHEON": ["io.elementary.terminal"],
    ]

    /// The convention of a terminal named by its path or name (`$TERMINAL`), when it is one
    /// of ``known``.
    public static func convention(of terminal: String) -> [String]? {
        let base = terminal.split(separator: "/").last.map(String.init) ?? terminal
        return known.first { $0.name == base }?.run ?? (base == "io.elementary.terminal" ? ["-x"] : nil)
    }

    /// `pokectl browse` on `launch` in `terminal`.
    public static func browse(terminal: String, run: [String], pokectl: String, launch: BrowseLaunch) -> [String] {
        [terminal] + run + [pokectl, "browse"] + launch.arguments
    }

    /// The terminal a person's desktop opens, as the desktop itself chooses one:
    /// `xdg-terminal-exec` (the freedesktop default-terminal spec) where there is one, then
    /// `$TERMINAL`, then the desktop's own (`XDG_CURRENT_DESKTOP`: kgx or gnome-terminal in
    /// GNOME, konsole in Plasma…), then the system's default (`x-terminal-emulator`), then any
    /// other known one, xterm last, with a font that has the language's letters. `find` gives
    /// a program's path, `resolve` the program a path ends at (Debian's `x-terminal-emulator`
    /// is a link through `/etc/alternatives`: where it is xterm, xterm's font goes with it); nil
    /// when no terminal is found. `notice` hears why a search was dropped.
    public static func choose(_ launch: BrowseLaunch, pokectl: String, environment: [String: String],
                              find: (String) -> String?, resolve: (String) -> String = { $0 },
                              notice: (String) -> Void = { _ in }) -> [String]? {
        func started(_ exe: String, _ run: [String]) -> [String] {
            let actual = resolve(exe).split(separator: "/").last.map(String.init) ?? ""
            return browse(terminal: exe, run: (xterms.contains(actual) ? xtermFont(environment) : []) + run, pokectl: pokectl, launch: launch)
        }
        if let exe = find("xdg-terminal-exec") { return browse(terminal: exe, run: ["--"], pokectl: pokectl, launch: launch) }
        if let t = environment["TERMINAL"], !t.isEmpty, let exe = find(t) {
            if let run = convention(of: t) { return started(exe, run) }
            // How this terminal takes a command is not known: xterm's -e, and no caller text.
            if !launch.query.isEmpty {
                notice("TERMINAL=\(t) is not a terminal pokedexd knows how to pass a search to; the search is dropped")
            }
            return browse(terminal: exe, run: ["-e"], pokectl: pokectl, launch: BrowseLaunch(card: launch.card))
        }
        let desktop = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").flatMap { desktops[$0.uppercased()] ?? [] }
        let rest = known.map(\.name).filter { !["xdg-terminal-exec", "xterm", "uxterm"].contains($0) }
        for name in desktop + rest {
            if let exe = find(name), let run = convention(of: name) { return started(exe, run) }
        }
        for name in ["xterm", "uxterm"] {
            if let exe = find(name) { return started(exe, ["-e"]) }
        }
        return nil
    }

    /// xterm under its names: the one whose own font has few of Unicode's letters.
    static let xterms: Set = ["xterm", "uxterm", "lxterm", "koi8rxterm"]

    /// xterm's own font is a bitmap one without most of Unicode: Japanese came out blank, and
    /// so did „ and ⏎. A scalable monospace font (Xft) that fontconfig picks for the session's
    /// language has them, where one is installed (Debian: fonts-noto-cjk for Chinese, Japanese
    /// and Korean).
    static func xtermFont(_ environment: [String: String]) -> [String] {
        let pattern = fontLanguage(environment).map { "monospace:lang=" + $0 } ?? "monospace"
        return ["-fa", pattern, "-fs", "11"]
    }

    /// The language fontconfig is asked for: `ja`, `ko`, `zh-tw`, `zh-cn`; nil for the rest,
    /// whose letters every monospace font has.
    static func fontLanguage(_ environment: [String: String]) -> String? {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let code = String(locale.prefix { $0 != "." && $0 != "@" }.lowercased().map { $0 == "_" ? "-" : $0 })
        switch code.prefix(2) {
        case "ja", "ko": return String(code.prefix(2))
        case "zh": return code == "zh-tw" || code == "zh-hk" ? "zh-tw" : "zh-cn"
        default: return nil
        }
    }
}

/// KRunner's activation token (Wayland's focus for what is opened): kept for the caller who
/// set it, for ``lifetime`` seconds, and given only to a launch by the same caller, once.
public struct ActivationTokens: Sendable {
    /// How long a token waits for its launch: KRunner sends it just before `Run`.
    public static let lifetime = 5.0

    private var held: (token: String, caller: String, at: Double)?

    public init() {}

    /// Whether `token` looks like one: printable ASCII without spaces, at most 256 bytes.
    public static func plausible(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count <= 256 && token.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// Keeps `token` for `caller`; a token that does not look like one is dropped.
    public mutating func set(_ token: String, caller: String, now: Double) {
        held = Self.plausible(token) && !caller.isEmpty ? (token, caller, now) : nil
    }

    /// The token for a launch by `caller` at `now`, used up; nil when it was set by someone
    /// else or too long ago.
    public mutating func take(caller: String?, now: Double) -> String? {
        guard let h = held else { return nil }
        if now - h.at > Self.lifetime || now < h.at {
            held = nil
            return nil
        }
        guard let caller, caller == h.caller else { return nil }
        held = nil
        return h.token
    }
}
