import CSystemd
import Glibc
import PokedexCore
import PokedexEventLoop
import PokedexProtocol

/// Starts programs as transient services of the user's service manager
/// (`org.freedesktop.systemd1.Manager.StartTransientUnit`), as `systemd-run --user --collect`
/// does, so they run outside pokedexd's sandbox, with the session's environment.
///
/// It sends on the service's own connection (``use(_:)``), made at start: once the sandbox
/// refuses the service new Unix sockets, neither a new connection nor `systemd-run` (which would
/// inherit that refusal) could reach the manager. Each call is asynchronous; `done` hears
/// whether the manager took the unit. Where there is no manager, the same connection asks
/// pokedexd's launcher (``askLauncher(_:_:done:)``), which knows the service by it: the owner
/// of ``Pokedex1/busName``.
public final class TransientUnits: Sendable {
    static let service = "org.freedesktop.systemd1"
    static let path = "/org/freedesktop/systemd1"
    static let interface = "org.freedesktop.systemd1.Manager"

    let loop: EventLoop
    private let bus: LoopBound<OpaquePointer?>

    public init(loop: EventLoop) {
        self.loop = loop
        bus = LoopBound(nil, loop: loop)
    }

    /// Sends on `connection`, the service's (``PokedexBusServer/connect()``), which the
    /// server attaches to the loop. Call on the loop's thread, before the first launch.
    public func use(_ connection: OpaquePointer) {
        guard bus.value == nil else { return }
        bus.value = sd_bus_ref(connection)
    }

    /// Starts `argv` (its first element an absolute path) as a new transient service with
    /// `environment` (`NAME=value`) added to the manager's. `done` gets nil once the manager has
    /// taken the unit, or why it did not. Safe from any thread; `done` runs on the loop.
    public func start(_ argv: [String], environment: [String], description: String,
                      done: @escaping @Sendable (String?) -> Void) {
        call(Self.service, Self.path, Self.interface, "StartTransientUnit", done: done) { w throws(BusError) in
            try Self.write(unit: Self.unitName(), argv: argv, environment: environment, description: description, to: w)
        }
    }

    /// Asks pokedexd's launcher (``Launcher1``, which D-Bus activation starts outside the
    /// sandbox) to run `method`. `done` gets nil once it did, or why not. Safe from any thread;
    /// `done` runs on the loop.
    public func askLauncher<Args: Sendable>(_ method: Method<Args, Void>, _ args: Args, done: @escaping @Sendable (String?) -> Void) {
        call(Launcher1.busName, Launcher1.objectPath, Launcher1.interfaceName, method.name, done: done) { w throws(BusError) in
            try method.writeArgs(w, args)
        }
    }

    /// One method call on the launches' connection, its arguments written by `write`; `done`
    /// gets nil for a reply, else the error's message (10 s at most).
    private func call(_ destination: String, _ path: String, _ interface: String, _ member: String,
                      done: @escaping @Sendable (String?) -> Void, write: @escaping @Sendable (MessageWriter) throws(BusError) -> Void) {
        loop.execute { [self] in
            guard let bus = bus.value else { return done("no connection to the session bus") }
            do throws(BusError) {
                var m: OpaquePointer?
                try busCheck(sd_bus_message_new_method_call(bus, &m, destination, path, interface, member), member)
                defer { sd_bus_message_unref(m) }
                try write(MessageWriter(m!))
                let box = Unmanaged.passRetained(Reply(done))
                let r = sd_bus_call_async(bus, nil, m, { reply, userdata, _ in
                    let done = Unmanaged<Reply>.fromOpaque(userdata!).takeRetainedValue().done
                    guard let error = sd_bus_message_get_error(reply) else { done(nil); return 1 }
                    done(error.pointee.message.map { String(cString: $0) } ?? error.pointee.name.map { String(cString: $0) } ?? "error")
                    return 1
                }, box.toOpaque(), 10_000_000)
                if r < 0 {
                    box.release()
                    done(String(cString: strerror(-r)))
                }
            } catch {
                done(error.message)
            }
        }
    }

    /// `StartTransientUnit(s name, s mode, a(sv) properties, a(sa(sv)) aux)`: a service that
    /// runs `argv`, gone once it ends (`CollectMode=inactive-or-failed`, systemd-run's
    /// `--collect`).
    static func write(unit: String, argv: [String], environment: [String], description: String,
                      to w: MessageWriter) throws(BusError) {
        try w.append(unit)
        try w.append("fail")
        try w.container("a", "(sv)") { () throws(BusError) in
            try property(w, "Description", "s") { () throws(BusError) in try w.append(description) }
            try property(w, "CollectMode", "s") { () throws(BusError) in try w.append("inactive-or-failed") }
            if !environment.isEmpty {
                try property(w, "Environment", "as") { () throws(BusError) in try w.append(strings: environment) }
            }
            try property(w, "ExecStart", "a(sasb)") { () throws(BusError) in
                try w.container("a", "(sasb)") { () throws(BusError) in
                    try w.container("r", "sasb") { () throws(BusError) in
                        try w.append(argv[0])
                        try w.append(strings: argv)
                        try w.append(false)
                    }
                }
            }
        }
        try w.container("a", "(sa(sv))") {}
    }

    private static func property(_ w: MessageWriter, _ name: String, _ signature: String,
                                 _ value: () throws(BusError) -> Void) throws(BusError) {
        try w.container("r", "sv") { () throws(BusError) in
            try w.append(name)
            try w.container("v", signature, value)
        }
    }

    /// A new name each time, in the desktop's form for what a launcher started
    /// (`app-<launcher>-<random>.service`).
    static func unitName() -> String {
        "app-pokedexd-" + String(UInt64.random(in: 1...UInt64.max), radix: 16) + ".service"
    }

    private final class Reply {
        let done: @Sendable (String?) -> Void
        init(_ done: @escaping @Sendable (String?) -> Void) { self.done = done }
    }
}
