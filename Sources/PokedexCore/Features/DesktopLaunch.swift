/// The rules of a launch from the desktop's search providers, apart from the spawning: which
/// argv a terminal gets, how often a launch may happen, and whose activation token goes with
/// it. A caller's text (the search typed in GNOME's overview, a KRunner token) never lands
/// where a terminal or pokectl reads options.
public enum TerminalCommand {
    /// Terminals by name, most specific first, and the options that come before the program
    /// they run: each of these takes the rest of its argv as the program and its arguments.
    /// (gnome-terminal's and kgx's `-e` take one string that their parser reads on from, so
    /// they get `--`.)
    public static let known: [(name: String, run: [String])] = [
        ("x-terminal-emulator", ["-e"]), ("gnome-terminal", ["--"]), ("kgx", ["--"]), ("ptyxis", ["--"]),
        ("konsole", ["-e"]), ("xfce4-terminal", ["-x"]), ("mate-terminal", ["-x"]), ("terminator", ["-x"]),
        ("kitty", []), ("alacritty", ["-e"]), ("foot", []), ("wezterm", ["start", "--"]),
        ("xterm", ["-e"]), ("uxterm", ["-e"]), ("urxvt", ["-e"]), ("st", ["-e"]),
    ]

    /// The convention of a terminal named by its path or name (`$TERMINAL`), when it is one
    /// of ``known``.
    public static func convention(of terminal: String) -> [String]? {
        let base = terminal.split(separator: "/").last.map(String.init) ?? terminal
        return known.first { $0.name == base }?.run
    }

    /// `pokectl browse` in `terminal`, the query after `--` so that pokectl takes it as the
    /// search whatever it looks like (`--help` is a search for "--help").
    public static func browse(terminal: String, run: [String], pokectl: String, query: String) -> [String] {
        [terminal] + run + [pokectl, "browse"] + (query.isEmpty ? [] : ["--", query])
    }
}

/// At most one launch of a kind a second: a burst of calls (200 `LaunchSearch` in a second, a
/// double click) opens one terminal. The time is the caller's, in seconds (monotonic).
public struct LaunchGate: Sendable {
    /// The shortest time between two launches.
    public static let interval = 1.0

    private var last: Double?
    /// Calls refused since the last launch (one journal line per burst).
    public private(set) var refused = 0

    public init() {}

    /// Whether a launch at `now` may go ahead; a refused one is counted.
    public mutating func admit(now: Double) -> Bool {
        if let last, now - last < Self.interval, now >= last {
            refused += 1
            return false
        }
        last = now
        refused = 0
        return true
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
