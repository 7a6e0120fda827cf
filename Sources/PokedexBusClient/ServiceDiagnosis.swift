import CSystemd
import Glibc

/// Why the service does not answer, in seconds rather than after a call's timeout: when its
/// name has no owner and activation does not bring it within about 2 s, systemd is asked
/// about the unit (`ActiveState`, `SubState`, `Result`, `ExecMainStatus`) and the answer is
/// one line naming the unit, the failure in words and the command that shows more.
public struct UnitState: Equatable, Sendable {
    public var loadState = "", activeState = "", subState = "", result = ""
    /// `ExecMainCode` (CLD_EXITED 1, CLD_KILLED 2, CLD_DUMPED 3) and `ExecMainStatus`.
    public var execMainCode: Int32 = 0, execMainStatus: Int32 = 0
    /// The `ExecStartPre=` command that failed, when it was that and not the main process:
    /// its program, and its code and status as above.
    public var failedPre: (program: String, code: Int32, status: Int32)?
    /// Whether a job (a start queued by `OnFailure=`) is pending for it.
    public var hasJob = false

    public static func == (a: UnitState, b: UnitState) -> Bool {
        a.loadState == b.loadState && a.activeState == b.activeState && a.subState == b.subState && a.result == b.result
            && a.execMainCode == b.execMainCode && a.execMainStatus == b.execMainStatus
            && a.failedPre?.program == b.failedPre?.program && a.failedPre?.status == b.failedPre?.status
    }

    public init(loadState: String = "", activeState: String = "", subState: String = "", result: String = "",
                execMainCode: Int32 = 0, execMainStatus: Int32 = 0) {
        self.loadState = loadState
        self.activeState = activeState
        self.subState = subState
        self.result = result
        self.execMainCode = execMainCode
        self.execMainStatus = execMainStatus
    }

    /// Whether the unit is on its way up with nothing gone wrong yet.
    public var isStarting: Bool {
        activeState == "activating" && subState != "auto-restart" && (result.isEmpty || result == "success")
    }

    /// One line: `pokedex.service failed to start (exit 217/USER: could not set up its user
    /// namespace); see 'journalctl --user -u pokedex'`, in the language of `w`. Nil when
    /// nothing is wrong with the unit.
    public func explanation(unit: String, words w: Words = .english) -> String? {
        let short = unit.replacingSuffix(".service")
        let more = "; " + w.trf("see 'journalctl --user -u %s'", short)
        switch loadState {
        case "not-found": return w.trf("%s is not installed; run 'make install' (or install the package)", unit)
        case "masked": return w.trf("%s is masked; 'systemctl --user unmask %s' lets it start", unit, short)
        case "bad-setting", "error": return w.trf("%s cannot be loaded (%s)", unit, loadState) + more
        default: break
        }
        if isStarting || activeState == "active" || activeState == "reloading" { return nil }
        let failed = activeState == "failed" || subState == "auto-restart" || (!result.isEmpty && result != "success")
        guard failed else {
            return w.trf("%s is %s (%s) and D-Bus activation did not start it", unit, activeState, subState) + more
        }
        return (subState == "auto-restart" ? w.trf("%s failed to start (%s), systemd retries it", unit, reason(words: w))
                : w.trf("%s failed to start (%s)", unit, reason(words: w))) + more
    }

    /// Failed, yet no exit of its main process recorded and no failed ExecStartPre=: read
    /// across a restart (``ServiceDiagnosis/unitState(_:)`` reads it again).
    public var isTorn: Bool {
        let failed = activeState == "failed" || subState == "auto-restart"
        return loadState == "loaded" && failed && execMainCode == 0 && failedPre == nil
            && ["", "exit-code", "signal", "core-dump"].contains(result)
    }

    /// `exit 217/USER: could not set up its user namespace`, `killed by signal 9/KILL`, ….
    public func reason(words w: Words = .english) -> String {
        switch result {
        case "start-limit-hit":
            return w.tr("it failed too often in a row and systemd stopped trying; 'systemctl --user reset-failed' lets it try again")
        case "timeout": return w.tr("it did not report ready in time")
        case "oom-kill": return w.tr("killed for using too much memory (MemoryMax=)")
        case "resources": return w.tr("systemd could not set up its resources")
        default: break
        }
        if execMainStatus == 0, execMainCode <= 1, let pre = failedPre {
            return w.trf("its ExecStartPre= %s failed: %s", pre.program, Self.describe(code: pre.code, status: pre.status, result: "", words: w))
        }
        return Self.describe(code: execMainCode, status: execMainStatus, result: result, words: w)
    }

    /// ``reason(words:)`` in English.
    public var reason: String { reason() }

    static func describe(code: Int32, status: Int32, result: String, words w: Words = .english) -> String {
        // No exit recorded (read across a restart): what the result says, never "exit 0".
        if code == 0 && (result == "exit-code" || result.isEmpty) { return w.tr("it exited with an error") }
        if code == 2 || code == 3 || result == "signal" || result == "core-dump" {
            let name = Self.signalNames[status].map { "/" + $0 } ?? ""
            return code == 3 ? w.trf("killed by signal %s, core dumped", "\(status)\(name)") : w.trf("killed by signal %s", "\(status)\(name)")
        }
        if let (name, words) = Self.exitStatuses[status] { return "exit \(status)/\(name): " + w.tr(words) }
        return "exit \(status)" + (status == 1 ? "/FAILURE: " + w.tr("it exited with an error") : "")
            + (result.isEmpty || result == "exit-code" ? "" : ", \(result)")
    }

    /// systemd's exit statuses for a service it could not start (systemd.exec(5), "PROCESS
    /// EXIT CODES"), with what each means for this service.
    static let exitStatuses: [Int32: (String, String)] = [
        200: ("CHDIR", Words.english.tr("could not change to its working directory")),
        203: ("EXEC", Words.english.tr("could not execute its binary: is it installed where the unit says, and visible inside its sandbox?")),
        204: ("MEMORY", Words.english.tr("out of memory")), 205: ("LIMITS", Words.english.tr("could not set its resource limits")),
        209: ("STDOUT", Words.english.tr("could not set up its output")), 210: ("CHROOT", Words.english.tr("could not change its root directory")),
        214: ("SETSCHEDULER", Words.english.tr("could not set its scheduling")), 216: ("GROUP", Words.english.tr("could not set its group")),
        217: ("USER", Words.english.tr("could not set up its user namespace")), 218: ("CAPABILITIES", Words.english.tr("could not drop its capabilities")),
        219: ("CGROUP", Words.english.tr("could not set up its control group")), 222: ("STDERR", Words.english.tr("could not set up its error output")),
        225: ("NETWORK", Words.english.tr("could not set up its network namespace")), 226: ("NAMESPACE", Words.english.tr("could not set up its mount namespace")),
        227: ("NO_NEW_PRIVILEGES", Words.english.tr("could not disable privilege gains")), 228: ("SECCOMP", Words.english.tr("could not install its system call filter")),
        230: ("PERSONALITY", Words.english.tr("could not lock its personality")), 231: ("APPARMOR", Words.english.tr("could not apply its AppArmor profile")),
        232: ("ADDRESS_FAMILIES", Words.english.tr("could not restrict its address families")),
        237: ("KEYRING", Words.english.tr("could not set up its keyring")), 239: ("CACHE_DIRECTORY", Words.english.tr("could not create its cache directory")),
        245: ("BPF", Words.english.tr("could not apply its BPF programs")),
    ]
    static let signalNames: [Int32: String] = [1: "HUP", 2: "INT", 4: "ILL", 6: "ABRT", 7: "BUS", 8: "FPE", 9: "KILL",
                                               11: "SEGV", 13: "PIPE", 15: "TERM", 31: "SYS"]
}

extension String {
    fileprivate func replacingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}

extension PokedexClient {
    /// The user unit that provides the service (the D-Bus service file's `SystemdService=`).
    public static let unitName = "pokedex.service"
    /// What runs when pokedex.service cannot start (its `OnFailure=`): the same service with
    /// Landlock alone, for a kernel that no longer allows the namespaces it was installed with.
    public static let fallbackUnitName = "pokedex-fallback.service"

    /// Nil when the service answers: its name is owned, or activation brings it within
    /// `activation` seconds. Otherwise one line that says why not, asked of systemd, within
    /// about `activation` + 1 s. Without systemd on the bus (a bare `dbus-daemon` that starts
    /// the binary itself), activation is waited for up to the client's timeout, as before.
    public func serviceProblem(activation: Double = 2, words w: Words = .english) -> String? {
        if (try? nameHasOwner(Pokedex1.busName)) == true { return nil }
        let saved = timeout
        defer { timeout = saved }
        timeout = activation
        let started: BusError?
        do { try startService(Pokedex1.busName); started = nil } catch { started = error }
        guard let started else { return nil }
        timeout = 1
        guard let unit = try? unitState(Self.unitName) else {
            // No systemd to ask: a plain bus activating the binary. Wait as long as a call would.
            timeout = saved
            if started.name == BusError.Name.noReply || started.isTimeout {
                if (try? startService(Pokedex1.busName)) != nil { return nil }
            }
            return nil  // the call that follows reports the bus's own error
        }
        // pokedex.service failed, and its OnFailure= starts the fallback: the activation that
        // failed is not the last word, the fallback takes the name in a moment.
        if unit.activeState == "failed", let fallback = try? unitState(Self.fallbackUnitName),
           ["activating", "active", "reloading"].contains(fallback.activeState) || fallback.hasJob {
            for _ in 0..<50 {
                if (try? nameHasOwner(Pokedex1.busName)) == true { return nil }
                usleep(100_000)
            }
        }
        if let why = unit.explanation(unit: Self.unitName, words: w) { return why }
        // systemd says it is starting or running: give it up to 2 s more to take its name.
        for _ in 0..<20 {
            if (try? nameHasOwner(Pokedex1.busName)) == true { return nil }
            usleep(100_000)
            if let now = try? unitState(Self.unitName), let why = now.explanation(unit: Self.unitName, words: w) { return why }
        }
        return w.trf("%s is still starting (%s, %s) and has not taken its bus name after %s s; see 'journalctl --user -u pokedex'",
                     Self.unitName, unit.activeState, unit.subState, String(Int(activation + 2)))
    }

    /// The service's process, when its name is owned but it cannot answer: stopped (`T`: a
    /// `SIGSTOP`, a debugger), or gone (a zombie). One line that says so and what to do; nil when
    /// it runs (or its process cannot be read: another machine's bus, another user's process).
    /// Asked of the bus daemon and `/proc`, so it answers at once, whatever the service does.
    public func stoppedService(words w: Words = .english) -> String? {
        ownerPID().flatMap { stopped($0, words: w) }
    }

    /// Why the service cannot answer a call now, asked before the call at the cost of one round
    /// trip when it runs: ``stoppedService(words:)`` when it has an owner, else
    /// ``serviceProblem(activation:words:)``.
    /// `words` are read only when there is something to say.
    public func readiness(words w: @autoclosure () -> Words = .english) -> String? {
        guard let pid = ownerPID() else { return serviceProblem(words: w()) }
        return stopped(pid, words: w())
    }

    /// The pid of the service's name's owner; nil when the name has none (or the bus says no).
    func ownerPID() -> Int32? {
        guard let pid = try? call(destination: FreedesktopBus.daemonName, path: FreedesktopBus.daemonPath,
                                  interface: FreedesktopBus.daemonName, FreedesktopBus.getConnectionUnixProcessID, { w throws(BusError) in
                                      try w.append(Pokedex1.busName)
                                  }).first?.uint, pid > 0, pid <= UInt64(Int32.max) else { return nil }
        return Int32(pid)
    }

    private func stopped(_ pid: Int32, words: @autoclosure () -> Words) -> String? {
        guard let state = Self.processState(pid) else { return nil }
        let w = state == "T" || state == "t" || state == "Z" || state == "X" ? words() : .english
        switch state {
        case "T", "t":
            return w.trf("pokedexd (pid %s) is stopped (SIGSTOP or a debugger) and answers nothing until it continues: 'kill -CONT %s', or 'systemctl --user restart pokedex'",
                         String(pid), String(pid))
        case "Z", "X":
            return w.trf("pokedexd (pid %s) has exited and its name is being released; try again in a moment", String(pid))
        default:
            return nil
        }
    }

    /// A process's state letter from `/proc/PID/stat` (`R`, `S`, `D`, `T`, `t`, `Z`…).
    static func processState(_ pid: Int32) -> Character? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buf = [UInt8](repeating: 0, count: 512)
        let n = read(fd, &buf, buf.count)
        guard n > 0 else { return nil }
        // `pid (comm) S …`: the comm may hold spaces and parentheses; the state follows the last ')'.
        let line = buf[..<n]
        guard let close = line.lastIndex(of: UInt8(ascii: ")")), close + 2 < n else { return nil }
        return Character(Unicode.Scalar(line[close + 2]))
    }

    /// The unit's state once it is not on its way up (a restart in progress is waited for, up
    /// to `within` seconds), for a report; nil without systemd.
    public static func settledUnitState(within: Double = 1.5) -> UnitState? {
        guard let client = try? PokedexClient(timeout: 1) else { return nil }
        var state = try? client.unitState(unitName)
        var waited = 0.0
        while let s = state, s.isStarting, waited < within {
            usleep(100_000)
            waited += 0.1
            state = try? client.unitState(unitName)
        }
        return state
    }

    /// `org.freedesktop.DBus.NameHasOwner`.
    public func nameHasOwner(_ name: String) throws(BusError) -> Bool {
        try call(destination: FreedesktopBus.daemonName, path: FreedesktopBus.daemonPath, interface: FreedesktopBus.daemonName,
                 "NameHasOwner") { w throws(BusError) in try w.append(name) }.first?.bool ?? false
    }

    /// `org.freedesktop.DBus.StartServiceByName`: returns once the name is owned.
    func startService(_ name: String) throws(BusError) {
        _ = try call(destination: FreedesktopBus.daemonName, path: FreedesktopBus.daemonPath, interface: FreedesktopBus.daemonName,
                     "StartServiceByName") { w throws(BusError) in
            try w.append(name)
            try w.append(UInt32(0))
        }
    }

    /// The unit's state from `org.freedesktop.systemd1` on the user bus (`LoadUnit`, so a unit
    /// that is not loaded is read too); throws when systemd is not there.
    ///
    /// Each property is read on its own, so a unit restarting meanwhile can be read half before
    /// and half after: failed, yet with no exit recorded (the new start cleared it). Such a
    /// reading is taken again, a few times, 20 ms apart.
    public func unitState(_ unit: String) throws(BusError) -> UnitState {
        var state = try readUnitState(unit)
        for _ in 0..<3 where state.isTorn {
            usleep(20_000)
            state = try readUnitState(unit)
        }
        return state
    }

    private func readUnitState(_ unit: String) throws(BusError) -> UnitState {
        // Asked only of a running systemd: a bus that would activate one is not one.
        guard try nameHasOwner("org.freedesktop.systemd1") else {
            throw BusError(name: BusError.Name.serviceUnknown, message: "no systemd on this bus")
        }
        let path = try call(destination: "org.freedesktop.systemd1", path: "/org/freedesktop/systemd1",
                            interface: "org.freedesktop.systemd1.Manager", "LoadUnit") { w throws(BusError) in
            try w.append(unit)
        }.first?.string ?? ""
        func get(_ interface: String, _ name: String) throws(BusError) -> BusValue? {
            try call(destination: "org.freedesktop.systemd1", path: path, interface: FreedesktopBus.properties, "Get") { w throws(BusError) in
                try w.append(interface)
                try w.append(name)
            }.first?.unwrapped
        }
        let u = "org.freedesktop.systemd1.Unit", s = "org.freedesktop.systemd1.Service"
        var state = UnitState(loadState: try get(u, "LoadState")?.string ?? "", activeState: try get(u, "ActiveState")?.string ?? "",
                              subState: try get(u, "SubState")?.string ?? "")
        if case .structure(let job)? = try get(u, "Job"), let id = job.first?.uint, id > 0 { state.hasJob = true }
        if state.loadState == "loaded" {
            state.result = try get(s, "Result")?.string ?? ""
            if case .int(let code)? = try get(s, "ExecMainCode") { state.execMainCode = Int32(clamping: code) }
            if case .int(let status)? = try get(s, "ExecMainStatus") { state.execMainStatus = Int32(clamping: status) }
            // a(sasbttttuii): path, argv, ignore, 4 times, pid, code, status.
            if case .array(let commands)? = try get(s, "ExecStartPre") {
                for case .structure(let f) in commands where f.count == 10 {
                    if case .int(let code) = f[8], case .int(let status) = f[9], code == 1 && status != 0 || code > 1,
                       f[2].bool != true {
                        state.failedPre = (f[0].string ?? "", Int32(clamping: code), Int32(clamping: status))
                    }
                }
            }
        }
        return state
    }
}
