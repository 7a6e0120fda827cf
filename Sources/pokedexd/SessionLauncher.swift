import Glibc
import PokedexProcess
import PokedexBusServer
import PokedexCore
import PokedexEventLoop
import PokedexLocks
import PokedexProtocol

/// Starts programs in the user's session for the desktop's search providers: `pokectl browse`
/// in a terminal, a clipboard tool. Each runs as a transient unit of the user manager
/// (``TransientUnits``, `StartTransientUnit` on a connection made at start), so it is outside
/// pokedexd's sandbox and has the session's environment. When the manager does not take it, it
/// is started directly, unless Landlock confines pokedexd: a program started directly would
/// share that sandbox (read-only files, no network, nothing it may execute). Then pokedexd's
/// launcher opens it (``Launcher1``: `pokedexd --launcher`, which D-Bus activation starts as the
/// bus's child, outside the sandbox); when that fails too, the journal says why and the caller
/// hears of it (`failed`). The launcher itself is this class with no units: it starts directly.
/// Never waits for the program: the loop reaps what it started itself
/// (``EventLoop/reap(_:failed:)``).
///
/// What the caller sent never becomes an option: the query follows pokectl's `--`, a
/// `$TERMINAL` that is not a known terminal gets no query, at most one launch of a kind a
/// second goes ahead (``LaunchGate``), and each caller, and all together, have a budget of
/// launches (``LaunchBudget``); the journal says when a caller meets either. The launcher applies
/// none: it takes calls from pokedexd alone, which admitted each already (``LauncherServer``).
/// The terminal is the one the desktop would choose (``TerminalCommand/choose``).
final class SessionLauncher: DesktopLauncher {
    private let pokectl: String
    private let path: [String]
    /// The session's environment, as the user manager gave it: `TERMINAL`, `XDG_CURRENT_DESKTOP`,
    /// the locale.
    private let environment: [String: String]
    /// Landlock confines this process's files, and so whatever it starts directly.
    private let confined: Bool
    /// nil in the launcher: it starts every program itself.
    private let units: TransientUnits?
    private let loop: EventLoop
    private let log: Logger
    private let tokens = Mutex(ActivationTokens())
    private let gates = Mutex<(kinds: [String: LaunchGate], budget: LaunchBudget)>(([:], LaunchBudget()))
    /// Whether launches meet the gate and the budgets: not in the launcher.
    private let limited: Bool

    init(environment: [String: String], units: TransientUnits?, confined: Bool, limited: Bool = true, loop: EventLoop,
         log: @escaping Logger) {
        self.confined = confined
        self.limited = limited
        self.units = units
        self.loop = loop
        self.log = log
        path = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        self.environment = environment
        // pokectl next to this pokedexd, else whichever is on PATH.
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let dir = n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: "/").dropLast()
            .joined(separator: "/") : ""
        pokectl = access("/" + dir + "/pokectl", X_OK) == 0 ? "/" + dir + "/pokectl" : "pokectl"
    }

    func setActivationToken(_ token: String, caller: String) {
        let now = Self.now()
        tokens.withLock { $0.set(token, caller: caller, now: now) }
    }

    func openBrowse(_ launch: BrowseLaunch, caller: String?, failed: @escaping @Sendable () -> Void) -> Bool {
        guard admit("browse", caller: caller) else { return true }  // one terminal for the burst
        let token = tokens.withLock { $0.take(caller: caller, now: Self.now()) }
        guard let argv = browseCommand(launch) else { return false }
        let ask = Launcher1.openBrowse, args = (launch.card ?? 0, launch.query, token ?? "")
        return run(argv, token: token, failed: failed, viaLauncher: { [units] done in units?.askLauncher(ask, args, done: done) })
    }

    /// What opens `pokectl browse` on `launch`: the terminal the desktop would choose
    /// (``TerminalCommand/choose``), else the desktop's own launcher on the app entry (without
    /// the card or the query); nil if none is.
    private func browseCommand(_ launch: BrowseLaunch) -> [String]? {
        TerminalCommand.choose(launch, pokectl: pokectl, environment: environment, find: find, resolve: Self.resolve) { [log] in log(.notice, $0) }
            ?? find("gtk-launch").map { [$0, "io.github.pokedexd.Pokedex1"] }
    }

    func copy(_ text: String, caller: String?) -> Bool {
        guard admit("copy", caller: caller) else { return true }
        for (tool, args) in [("wl-copy", [String]()), ("xclip", ["-selection", "clipboard"]), ("xsel", ["--clipboard", "--input"])] {
            guard let exe = find(tool) else { continue }
            // The text is an argument to sh, never part of its script.
            return run(["/bin/sh", "-c", "printf %s \"$1\" | \"$0\"" + args.map { " " + $0 }.joined(), exe, text], token: nil,
                       viaLauncher: { [units] done in units?.askLauncher(Launcher1.copy, text, done: done) })
        }
        return false
    }

    /// Whether a launch of `kind` for `caller` (nil: the service's own card) may go now; the
    /// first refusal of a burst is logged, with whose it was.
    private func admit(_ kind: String, caller: String?) -> Bool {
        guard limited else { return true }
        let now = Self.now()
        let who = caller ?? "pokedexd's card"
        let (gate, verdict, refused) = gates.withLock { g -> (Bool, LaunchBudget.Verdict, Int) in
            guard g.kinds[kind, default: LaunchGate()].admit(now: now) else { return (false, .admitted, g.kinds[kind]?.refused ?? 0) }
            let v = g.budget.admit(caller: who, now: now)
            return (true, v, g.budget.refused[who] ?? 0)
        }
        guard refused == 1 else { return gate && verdict == .admitted }
        let B = LaunchBudget.self
        switch (gate, verdict) {
        case (false, _):
            log(.notice, "\(kind) asked again by \(who) within \(LaunchGate.interval) s of the last one: not started again")
        case (_, .callerSpent):
            log(.warning, "\(kind) asked by \(who), which has used its launches (\(Int(B.perCaller.burst)) at once, then one every "
                + "\(Int(B.perCaller.every)) s): not started; its later calls are refused in silence until it has one again")
        case (_, .overallSpent):
            log(.warning, "\(kind) asked by \(who), but the desktop's callers together have used their launches (\(Int(B.overall.burst)) "
                + "at once, then one every \(Int(B.overall.every)) s): not started")
        case (_, .admitted): break
        }
        return gate && verdict == .admitted
    }

    /// The file a path ends at, its links followed (`realpath`); the path itself if it cannot.
    private static func resolve(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    private func find(_ name: String) -> String? {
        if name.hasPrefix("/") { return access(name, X_OK) == 0 ? name : nil }
        guard !name.contains("/") else { return nil }
        return path.lazy.map { $0 + "/" + name }.first { access($0, X_OK) == 0 }
    }

    private static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Starts `argv` as a transient unit of the user manager, or directly, and hands it to the
    /// loop to reap. When the manager does not take it (none on this bus), `argv` is started
    /// directly, and the journal says why; confined, the launcher is asked instead
    /// (`viaLauncher`, which hands its answer to the function it gets). When nothing could
    /// start it, `failed` runs.
    private func run(_ argv: [String], token: String?, failed: @escaping @Sendable () -> Void = {},
                     viaLauncher: @escaping @Sendable (@escaping @Sendable (String?) -> Void) -> Void) -> Bool {
        guard let exe = find(argv[0]) else {
            log(.warning, "cannot start \(argv[0]): it is not on PATH")
            return false
        }
        guard let units else { return direct(argv, token: token) }
        let name = argv.joined(separator: " ")
        units.start([exe] + argv.dropFirst(), environment: token.map { ["XDG_ACTIVATION_TOKEN=" + $0] } ?? [],
                    description: "\(argv[0]), started by pokedexd for the desktop") { [self] error in
            guard let error else { return log(.info, "started \(name) in the user manager") }
            guard confined else {
                log(.warning, "the user manager could not start \(argv[0]) (\(error)); starting it directly")
                if !direct(argv, token: token) { failed() }
                return
            }
            viaLauncher { [self] launcherError in
                guard let launcherError else {
                    return log(.info, "the user manager could not start \(argv[0]) (\(error)); pokedexd's launcher (\(Launcher1.busName)) started it")
                }
                log(.warning, "the user manager could not start \(argv[0]) (\(error)), \(Self.sharesSandbox), and pokedexd's launcher "
                    + "(\(Launcher1.busName)) could not either (\(launcherError)); is the user manager running (systemctl --user status)? "
                    + "Is \(Launcher1.busName).service installed beside pokedexd's? Or start pokedexd with --landlock=no")
                failed()
            }
        }
        return true
    }

    /// Why nothing is started directly under Landlock.
    private static let sharesSandbox = "a program pokedexd starts itself would share its Landlock sandbox"

    /// Starts `argv` itself (its activation token in the environment).
    private func direct(_ argv: [String], token: String?) -> Bool {
        spawn(argv, env: token.map { ["XDG_ACTIVATION_TOKEN": $0] } ?? [:], name: argv.joined(separator: " "))
    }

    private func spawn(_ argv: [String], env: [String: String], name: String) -> Bool {
        guard let pid = ChildProcess.spawn(argv, setenv: env) else {
            log(.warning, "cannot start \(argv[0]): \(String(cString: strerror(errno)))")
            return false
        }
        // Labelled: a trailing closure would be `exited`, and every exit was logged as a failure
        // to wait, its status read as an errno ("Success", "Block device required").
        loop.reap(pid, exited: { [log] status in
            if status != 0 { log(.info, "\(name) exited with status \(status)") }
        }, failed: { [log] code in
            log(.warning, "cannot wait for process \(pid): \(String(cString: strerror(code)))")
        })
        log(.info, "started \(name)")
        return true
    }
}
