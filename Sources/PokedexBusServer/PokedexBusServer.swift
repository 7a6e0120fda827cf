import CSystemd
import Glibc
import PokedexCore
import PokedexEventLoop
import PokedexProtocol

/// Publishes a ``PokedexService`` as `io.github.pokedexd.Pokedex1` on the session bus.
///
/// It only translates: the interface is published from its description (``Pokedex1``)
/// with one handler per member (``PokedexHandlers``). The bus belongs to the loop thread
/// (``LoopBound``).
/// A call the memory tier can answer is replied to inline; any other is kept by
/// ``PendingCalls`` and replied to exactly once on the loop thread when its task ends.
public final class PokedexBusServer: Sendable {
    let loop: EventLoop
    let service: PokedexService
    let log: Logger
    let idleTimeout: Double
    let shutdownGrace: Double

    /// The connection and everything that changes: the loop thread's alone (checked on each access).
    struct State {
        var bus: OpaquePointer?
        var object: BusObject?
        var searchProviders: [BusObject] = []
        var pending: PendingCalls?
        var queue: CallQueue?
        var lastActivity: UInt64 = 0
        var idleTimer: EventSource?
        var graceTimer: EventSource?
        var exit = ExitSequence()
        var lastSyncSignal: UInt64 = 0
        var lastSyncState = SyncState.idle
        /// Set when the loop should end once no call is pending.
        var exitWhenDrained = false
        /// Set when the bus has confirmed the name's release: every call it routed here is
        /// read by then (it answers ReleaseName after them).
        var nameReleased = false
    }
    private let state: LoopBound<State>

    var bus: OpaquePointer? { get { state.value.bus } set { state.value.bus = newValue } }
    var object: BusObject? { get { state.value.object } set { state.value.object = newValue } }
    var searchProviders: [BusObject] { get { state.value.searchProviders } set { state.value.searchProviders = newValue } }
    /// Set by ``start()``.
    var pending: PendingCalls { state.value.pending! }
    /// Set by ``start()``.
    var queue: CallQueue { state.value.queue! }
    /// No call is queued or pending: the service may exit.
    var drained: Bool { pending.isEmpty && queue.isEmpty }
    var lastActivity: UInt64 { get { state.value.lastActivity } set { state.value.lastActivity = newValue } }
    var idleTimer: EventSource? { get { state.value.idleTimer } set { state.value.idleTimer = newValue } }
    var graceTimer: EventSource? { get { state.value.graceTimer } set { state.value.graceTimer = newValue } }
    var exit: ExitSequence { get { state.value.exit } _modify { yield &state.value.exit } }
    var lastSyncSignal: UInt64 { get { state.value.lastSyncSignal } set { state.value.lastSyncSignal = newValue } }
    var lastSyncState: SyncState { get { state.value.lastSyncState } set { state.value.lastSyncState = newValue } }
    var exitWhenDrained: Bool { get { state.value.exitWhenDrained } set { state.value.exitWhenDrained = newValue } }
    var nameReleased: Bool { get { state.value.nameReleased } set { state.value.nameReleased = newValue } }

    /// - Parameters:
    ///   - idleTimeout: seconds without calls after which the service releases its name and
    ///     exits (D-Bus activation brings it back); 0 = never.
    ///   - shutdownGrace: seconds that calls in flight get to finish on SIGTERM.
    public init(loop: EventLoop, service: PokedexService, idleTimeout: Double, shutdownGrace: Double = 5,
                log: @escaping Logger) {
        self.loop = loop
        self.service = service
        self.idleTimeout = idleTimeout
        self.shutdownGrace = shutdownGrace
        self.log = log
        state = LoopBound(State(), loop: loop)
    }

    /// A connection to the session bus, for ``start(on:)``: made before the sandbox refuses new
    /// Unix sockets.
    public static func connect() throws(BusError) -> OpaquePointer {
        var b: OpaquePointer?
        try busCheck(sd_bus_open_user_with_description(&b, "pokedexd"), "cannot connect to the session bus")
        return b!
    }

    /// Publishes the object on `connection` (from ``connect()``; a new one when nil), takes the
    /// name and tells systemd READY=1. Call on the loop thread, before ``EventLoop/run()``.
    public func start(on connection: OpaquePointer? = nil) throws(BusError) {
        if let connection { bus = connection } else { bus = try Self.connect() }
        try busCheck(sd_bus_attach_event(bus, loop.event, 0), "cannot attach the bus to the event loop")
        sd_bus_set_exit_on_disconnect(bus, 1)
        state.value.pending = PendingCalls(loop: loop, bus: bus!, deadline: service.configuration.requestDeadline,
                                           limits: .thisMachine)
        pending.onReply = { [unowned self] in
            lastActivity = loop.nowMicroseconds
            exitIfDone()
        }
        do {
            state.value.queue = try CallQueue(loop: loop) { [bus] in CallQueue.unsentBytes(on: bus!) }
        } catch {
            throw BusError(name: "org.freedesktop.DBus.Error.Failed", message: "cannot queue calls: \(error)")
        }
        queue.onDrained = { [unowned self] in
            exitIfDone()
        }
        let activity = { [unowned self] in lastActivity = loop.nowMicroseconds }
        object = try BusObject(bus: bus!, loop: loop, interface: Pokedex1.interface,
                               methods: PokedexHandlers.methods(service), properties: PokedexHandlers.properties(service),
                               pending: pending, queue: queue, onCall: activity)
        // The desktop's search providers, on the same connection and name.
        searchProviders = [
            try BusObject(bus: bus!, loop: loop, interface: SearchProvider2.interface, methods: DesktopSearchHandlers.gnome(service),
                          properties: [], pending: pending, queue: queue, onCall: activity),
            try BusObject(bus: bus!, loop: loop, interface: KRunner1.interface, methods: DesktopSearchHandlers.krunner(service),
                          properties: [], pending: pending, queue: queue, onCall: activity),
        ]
        service.observe { [loop, unowned self] event in
            loop.execute { self.announce(event) }
        }
        let r = sd_bus_request_name(bus, Pokedex1.busName, 0)
        if r == -EEXIST || r == -EALREADY {
            throw BusError(name: "org.freedesktop.DBus.Error.AddressInUse",
                           message: "another pokedexd already owns \(Pokedex1.busName) on this bus")
        }
        try busCheck(r, "cannot own \(Pokedex1.busName)")
        lastActivity = loop.nowMicroseconds
        armIdleTimer(after: idleTimeout)
        loop.manager.notify("READY=1\nSTATUS=Serving \(Pokedex1.busName)")
    }

    // MARK: Signals and properties

    private func announce(_ event: ServiceEvent) {
        switch event {
        case .favorite(let change): announce(change)
        case .online: propertiesChanged(Pokedex1.online.name)
        case .sync(let progress):
            // At most ten a second; a change of state (running, done, cancelled…) always goes out.
            let now = loop.nowMicroseconds
            let stateChanged = progress.state != lastSyncState
            if stateChanged || now - lastSyncSignal >= 100_000 {
                lastSyncSignal = now
                lastSyncState = progress.state
                propertiesChanged(stateChanged ? [Pokedex1.syncProgress.name, Pokedex1.syncState.name] : [Pokedex1.syncProgress.name])
            }
        case .cacheCleared:
            emit(Pokedex1.cacheCleared, ())
        }
    }

    private func propertiesChanged(_ names: [String]) {
        var strings: [UnsafeMutablePointer<CChar>?] = names.map { strdup($0) } + [nil]
        sd_bus_emit_properties_changed_strv(bus, Pokedex1.objectPath, Pokedex1.interfaceName, &strings)
        for p in strings { free(p) }
    }

    private func propertiesChanged(_ name: String) { propertiesChanged([name]) }

    private func announce(_ change: FavoriteChange) {
        emit(Pokedex1.favoriteChanged, (change.id, change.name, change.favorite))
        propertiesChanged(Pokedex1.favorites.name)
    }

    /// Sends `signal` with `values` from the service's object.
    private func emit<Value>(_ signal: Signal<Value>, _ values: Value) {
        var msg: OpaquePointer?
        if sd_bus_message_new_signal(bus, &msg, Pokedex1.objectPath, Pokedex1.interfaceName, signal.name) >= 0, let msg {
            if (try? signal.write(MessageWriter(msg), values)) != nil {
                sd_bus_send(bus, msg, nil)
            }
            sd_bus_message_unref(msg)
        }
    }

    // MARK: Idle exit and shutdown

    private func armIdleTimer(after seconds: Double) {
        guard idleTimeout > 0 else { return }
        idleTimer = try? loop.timer(after: UInt64(max(seconds, 0.01) * 1_000_000)) { [unowned self] in
            let idle = Double(loop.nowMicroseconds - lastActivity) / 1_000_000
            if drained && idle >= idleTimeout {
                log(.info, "idle for \(Int(idleTimeout)) s; exiting until the next call activates the service")
                perform(exit.idle())
            } else {
                // Not idle yet, or a call is still being worked on: look again later.
                armIdleTimer(after: max(idleTimeout - idle, 1))
            }
        }
    }

    /// SIGTERM: stop taking new work under the name, give calls in flight `shutdownGrace`
    /// seconds, fail what is left, and exit.
    ///
    /// A SIGTERM during an idle exit's drain gets the same grace: the name is already released.
    /// Calls still saving a change when the grace ends are let answer with what they did, for
    /// at most ``commitGrace`` seconds more.
    public func shutdown() {
        let steps = exit.terminate()
        guard !steps.isEmpty else { return }
        log(.info, "stopping; \(pending.count + queue.count) call(s) in flight")
        perform(steps)
    }

    /// Does what the exit sequence says, in order (internal: the lifecycle tests start an idle
    /// exit's drain with a call in flight, a window too narrow to reach by timing).
    func perform(_ steps: [ExitSequence.Step]) {
        for step in steps {
            switch step {
            case .notifyStopping:
                loop.manager.notify("STOPPING=1")
                // Before the name goes: a watcher hears why before it hears the name vanish.
                emit(Pokedex1.stopping, (exit.terminating ? Pokedex1.StopReason.stop : .idle).rawValue)
                // Nothing new starts in the background; what runs is cancelled while the loop still turns.
                service.beginShutdown()
            case .releaseName: releaseNameAndExit()
            case .armGrace: armGrace()
            }
        }
    }

    private func armGrace() {
        let unavailable = PokedexError.Kind.unavailable.dbusName
        let nothingDone = ServiceMessages.joined(ServiceMessages.shuttingDown, ServiceMessages.nothingChanged)
        graceTimer = try? loop.timer(after: UInt64(shutdownGrace * 1_000_000)) { [unowned self] in
            // From now on a call is failed as it arrives, the ones still on their way from
            // before the release included: the bus may not have confirmed it yet (busy, or
            // stopped), and exiting before it has would leave those calls unanswered.
            queue.failAll(name: unavailable, message: nothingDone)
            let left = pending.failAll(name: unavailable, message: nothingDone)
            exitWhenDrained = true
            if left > 0 { log(.info, "\(left) call(s) are saving a change; exiting once they answer") }
            if exitIfDone() { return }
            graceTimer = try? loop.timer(after: UInt64(Self.commitGrace * 1_000_000)) { [unowned self] in
                pending.abandonAll(name: unavailable, message: "pokedexd stopped while saving this change; check whether it was made before trying again")
                finishExit()
            }
        }
    }

    /// Seconds a change under way at the end of the grace period still gets.
    static let commitGrace = 2.0

    /// Releases the name first, so the bus queues or activates new calls instead of losing
    /// them; calls already routed here are still answered. Exits once none is pending.
    private func releaseNameAndExit() {
        idleTimer = nil
        let me = Unmanaged.passUnretained(self).toOpaque()
        let r = sd_bus_release_name_async(bus, nil, Pokedex1.busName, { _, userdata, _ in
            let server = Unmanaged<PokedexBusServer>.fromOpaque(userdata!).takeUnretainedValue()
            server.nameReleased = true
            server.exitWhenDrained = true
            server.exitIfDone()
            return 1
        }, me)
        if r < 0 {
            nameReleased = true  // nothing to wait for
            exitWhenDrained = true
            exitIfDone()
        }
    }

    /// Ends the loop once an exit is under way, no call is pending and the bus has confirmed
    /// the name's release; whether it did.
    @discardableResult
    private func exitIfDone() -> Bool {
        guard exitWhenDrained && drained && nameReleased else { return false }
        finishExit()
        return true
    }

    private func finishExit() {
        graceTimer = nil
        sd_bus_flush(bus)
        sd_event_exit(loop.event, 0)
    }

    /// Flushes and closes the connection. Call after the loop ended.
    public func close() {
        if let bus { sd_bus_flush_close_unref(bus) }
        bus = nil
    }
}
