import Glibc
import PokedexCore
import PokedexLocks

/// Starts programs in the user's session for the desktop's search providers: `pokectl browse`
/// in a terminal, a clipboard tool. Each runs as a transient unit of the user manager
/// (`systemd-run --user`), so it is outside pokedexd's sandbox and has the session's
/// environment; without `systemd-run` it is started directly. Never waits for the program.
final class SessionLauncher: DesktopLauncher {
    private let pokectl: String
    private let path: [String]
    private let terminalOverride: String?
    private let log: Logger
    /// Plasma's activation token for the next program (Wayland's focus), used once.
    private let token = Mutex<String?>(nil)

    func setActivationToken(_ token: String) { self.token.withLock { $0 = token } }

    init(environment: [String: String], log: @escaping Logger) {
        self.log = log
        path = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        terminalOverride = environment["TERMINAL"]
        // pokectl next to this pokedexd, else whichever is on PATH.
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let dir = n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: "/").dropLast()
            .joined(separator: "/") : ""
        pokectl = access("/" + dir + "/pokectl", X_OK) == 0 ? "/" + dir + "/pokectl" : "pokectl"
    }

    /// Terminals and how each is told to run a command, most specific first.
    static let terminals: [(name: String, run: [String])] = [
        ("x-terminal-emulator", ["-e"]), ("gnome-terminal", ["--"]), ("kgx", ["--"]), ("konsole", ["-e"]),
        ("xfce4-terminal", ["-x"]), ("kitty", []), ("alacritty", ["-e"]), ("foot", []), ("wezterm", ["start", "--"]), ("xterm", ["-e"]),
    ]

    func openBrowse(_ query: String) -> Bool {
        let command = [pokectl, "browse"] + (query.isEmpty ? [] : [query])
        if let t = terminalOverride, let exe = find(t) { return run([exe, "-e"] + command) }
        for t in Self.terminals {
            if let exe = find(t.name) { return run([exe] + t.run + command) }
        }
        // No terminal known: the desktop's own launcher opens the app entry (without the query).
        if let launch = find("gtk-launch") { return run([launch, "io.github.pokedexd.Pokedex1"]) }
        return false
    }

    func copy(_ text: String) -> Bool {
        for (tool, args) in [("wl-copy", [String]()), ("xclip", ["-selection", "clipboard"]), ("xsel", ["--clipboard", "--input"])] {
            guard let exe = find(tool) else { continue }
            // The text is an argument to sh, never part of its script.
            return run(["/bin/sh", "-c", "printf %s \"$1\" | \"$0\"" + args.map { " " + $0 }.joined(), exe, text])
        }
        return false
    }

    private func find(_ name: String) -> String? {
        if name.hasPrefix("/") { return access(name, X_OK) == 0 ? name : nil }
        return path.lazy.map { $0 + "/" + name }.first { access($0, X_OK) == 0 }
    }

    /// Starts `argv` as a transient unit of the user manager, or directly; reaps it in the background.
    private func run(_ argv: [String]) -> Bool {
        let activation = token.withLock { t in defer { t = nil }; return t }
        let setenv = activation.map { ["--setenv=XDG_ACTIVATION_TOKEN=" + $0] } ?? []
        let full = find("systemd-run").map { [$0, "--user", "--collect", "--quiet"] + setenv + ["--"] + argv } ?? argv
        var pid: pid_t = 0
        var cArgs = full.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let r = posix_spawn(&pid, full[0], &actions, nil, &cArgs, environ)
        guard r == 0 else {
            log(.warning, "cannot start \(full[0]): \(String(cString: strerror(r)))")
            return false
        }
        let reaped = pid
        var thread = pthread_t()
        let box = UnsafeMutablePointer<pid_t>.allocate(capacity: 1)
        box.pointee = reaped
        pthread_create(&thread, nil, { arg in
            let p = arg!.assumingMemoryBound(to: pid_t.self)
            var status: Int32 = 0
            waitpid(p.pointee, &status, 0)
            p.deallocate()
            return nil
        }, box)
        pthread_detach(thread)
        log(.info, "started \(argv.joined(separator: " "))")
        return true
    }
}
