import CSystemd
import Glibc
import PokedexCore
import PokedexEventLoop
import PokedexLocks
import PokedexProtocol

/// `pokedexd --launcher`: ``Launcher1`` on the session bus, each call handed to a launcher that
/// starts programs itself (it is outside pokedexd's sandbox). Started by D-Bus activation when
/// pokedexd first asks; releases its name and ends after ``Launcher1/idleSeconds`` without a
/// call. What it started goes on: the terminal is the session's, not the launcher's.
///
/// It takes calls from pokedexd alone, the owner of ``Pokedex1/busName`` (``NameOwnerFollower``):
/// pokedexd admitted each launch already, by its own caller (``LaunchGate``, ``LaunchBudget``),
/// so the launcher applies no limits of its own, which, keyed by pokedexd's one connection,
/// would drop launches pokedexd had said yes to. Any other peer is refused, and told to ask
/// pokedexd.
public final class LauncherServer {
    private let loop: EventLoop
    private let launcher: any DesktopLauncher
    private let idleSeconds: Double
    private let log: Logger
    private var bus: OpaquePointer?
    private var pending: PendingCalls?
    private var queue: CallQueue?
    private var object: BusObject?
    private var idleTimer: EventSource?
    private var service: NameOwnerFollower?
    private var lastCall: UInt64 = 0

    public init(loop: EventLoop, launcher: any DesktopLauncher, idleSeconds: Double = Launcher1.idleSeconds, log: @escaping Logger) {
        self.loop = loop
        self.launcher = launcher
        self.idleSeconds = idleSeconds
        self.log = log
    }

    /// The routes: a launch the launcher could not start is `Unavailable`, with why, and so is
    /// a call from anyone but the service (`isService`).
    static func methods(_ launcher: any DesktopLauncher, isService: @escaping @Sendable (String?) -> Bool) -> [MethodRoute] {
        [
            Launcher1.openBrowse.route { (args: (UInt32, String, String), caller: String?) throws(PokedexError) -> Answer<Void> in
                guard isService(caller) else { throw notTheService }
                let (card, query, token) = args
                if !token.isEmpty, let caller { launcher.setActivationToken(token, caller: caller) }
                let launch = BrowseLaunch(card: card == 0 ? nil : card, query: query)
                guard launcher.openBrowse(launch, caller: caller, failed: {}) else {
                    throw .unavailable("no terminal could be started: install one (gnome-terminal, konsole, xterm, …) or set TERMINAL")
                }
                return .now(())
            },
            Launcher1.copy.route { (text: String, caller: String?) throws(PokedexError) -> Answer<Void> in
                guard isService(caller) else { throw notTheService }
                guard launcher.copy(text, caller: caller) else {
                    throw .unavailable("nothing can copy to the clipboard: install wl-clipboard, xclip or xsel")
                }
                return .now(())
            },
        ]
    }

    /// What a peer other than pokedexd hears.
    static let notTheService = PokedexError.unavailable(
        "\(Launcher1.busName) opens pokedexd's launches only; ask pokedexd (\(Pokedex1.busName): ActivateResult, LaunchSearch) or run pokectl browse")

    /// Connects, publishes the object and takes the name. Call on the loop thread, before
    /// ``EventLoop/run()``.
    public func start() throws(BusError) {
        var b: OpaquePointer?
        try busCheck(sd_bus_open_user_with_description(&b, "pokedexd-launcher"), "cannot connect to the session bus")
        bus = b
        try busCheck(sd_bus_attach_event(b, loop.event, 0), "cannot attach the bus to the event loop")
        sd_bus_set_exit_on_disconnect(b, 1)
        let pending = PendingCalls(loop: loop, bus: b!, deadline: 10, limits: .thisMachine)
        self.pending = pending
        do {
            queue = try CallQueue(loop: loop) { CallQueue.unsentBytes(on: b!) }
        } catch {
            throw BusError(name: "org.freedesktop.DBus.Error.Failed", message: "cannot queue calls: \(error)")
        }
        // Before the name is taken: the call that activated the launcher comes after the answer.
        let owner = Mutex<String?>(nil)
        guard let service = NameOwnerFollower(bus: b!, name: Pokedex1.busName, changed: { new in owner.withLock { $0 = new } }) else {
            throw BusError(name: "org.freedesktop.DBus.Error.Failed", message: "cannot watch who owns \(Pokedex1.busName)")
        }
        self.service = service
        let isService: @Sendable (String?) -> Bool = { caller in caller != nil && caller == owner.withLock { $0 } }
        object = try BusObject(bus: b!, loop: loop, interface: Launcher1.interface, methods: Self.methods(launcher, isService: isService), properties: [],
                               pending: pending, queue: queue!, onCall: { [unowned self] in lastCall = loop.nowMicroseconds })
        try busCheck(sd_bus_request_name(b, Launcher1.busName, 0), "cannot own \(Launcher1.busName)")
        lastCall = loop.nowMicroseconds
        armIdleTimer(after: idleSeconds)
    }

    private func armIdleTimer(after seconds: Double) {
        idleTimer = try? loop.timer(after: UInt64(max(seconds, 0.01) * 1_000_000)) { [unowned self] in
            let idle = Double(loop.nowMicroseconds - lastCall) / 1_000_000
            guard idle >= idleSeconds, pending?.isEmpty ?? true else { return armIdleTimer(after: max(idleSeconds - idle, 1)) }
            log(.info, "idle for \(Int(idleSeconds)) s; exiting until pokedexd asks again")
            releaseNameAndExit()
        }
    }

    /// The name released first (the bus confirms it), so a call that comes meanwhile starts a
    /// new launcher rather than meeting one that is leaving.
    private func releaseNameAndExit() {
        idleTimer = nil
        let me = Unmanaged.passUnretained(self).toOpaque()
        let r = sd_bus_release_name_async(bus, nil, Launcher1.busName, { _, userdata, _ in
            let server = Unmanaged<LauncherServer>.fromOpaque(userdata!).takeUnretainedValue()
            sd_bus_flush(server.bus)
            sd_event_exit(server.loop.event, 0)
            return 1
        }, me)
        if r < 0 { sd_event_exit(loop.event, 0) }
    }

    /// Flushes and closes the connection. Call after the loop ended.
    public func close() {
        object = nil
        service = nil
        if let bus { sd_bus_flush_close_unref(bus) }
        bus = nil
    }
}
