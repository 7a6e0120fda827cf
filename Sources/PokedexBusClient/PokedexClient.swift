import CSystemd
import Glibc
@_exported import PokedexModels
@_exported import PokedexProtocol

/// A blocking client of the Pokédex bus API, for pokectl, scripts and tests.
/// Calls go to the well-known name, so the first one activates the service.
/// One client belongs to one thread.
public final class PokedexClient {
    let bus: OpaquePointer
    /// Per-call timeout, in seconds.
    public var timeout: Double

    /// Connects to the session bus (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`).
    public init(timeout: Double = ServiceDefaults.clientWait) throws(BusError) {
        var b: OpaquePointer?
        let r = sd_bus_open_user_with_description(&b, "pokectl")
        guard r >= 0, let b else {
            throw BusError(name: BusError.Name.noServer,
                           message: "cannot connect to the session bus: \(String(cString: strerror(-r)))")
        }
        bus = b
        self.timeout = timeout
    }

    deinit { sd_bus_flush_close_unref(bus) }

    /// Calls a method and returns the reply's values.
    public func call(
        destination: String = Pokedex1.busName, path: String = Pokedex1.objectPath,
        interface: String = Pokedex1.interfaceName, _ member: String,
        _ args: (MessageWriter) throws(BusError) -> Void = { _ throws(BusError) in }
    ) throws(BusError) -> [BusValue] {
        try callReading(destination: destination, path: path, interface: interface, member, args) { r throws(BusError) in
            try r.readAll()
        }
    }

    /// Calls a method and hands the reply to `read` before releasing it.
    func callReading<T>(
        destination: String = Pokedex1.busName, path: String = Pokedex1.objectPath,
        interface: String = Pokedex1.interfaceName, _ member: String,
        _ args: (MessageWriter) throws(BusError) -> Void, _ read: (MessageReader) throws(BusError) -> T
    ) throws(BusError) -> T {
        var msg: OpaquePointer?
        try busCheck(sd_bus_message_new_method_call(bus, &msg, destination, path, interface, member), "cannot build \(member)")
        defer { sd_bus_message_unref(msg) }
        try args(MessageWriter(msg!))
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let r = sd_bus_call(bus, msg, UInt64(timeout * 1_000_000), &error, &reply)
        if r < 0 {
            if let name = error.name {
                throw BusError(name: String(cString: name), message: error.message.map { String(cString: $0) } ?? "")
            }
            throw BusError(errno: r, "\(member) failed")
        }
        defer { sd_bus_message_unref(reply) }
        return try read(MessageReader(reply!))
    }

    /// Calls a method of the contract and decodes its reply.
    public func call<A, R>(_ method: Method<A, R>, _ args: A) throws(BusError) -> R {
        try callReading(method.name, { w throws(BusError) in try method.writeArgs(w, args) }) { r throws(BusError) in
            try method.readReply(r)
        }
    }

    /// Calls a method of the contract that takes no arguments.
    public func call<R>(_ method: Method<Void, R>) throws(BusError) -> R { try call(method, ()) }

    /// Calls a method of the contract and returns its reply as read, every key included
    /// (for JSON that passes on what the service says); ``Method/decodeReply(_:)`` types it.
    public func values<A, R>(_ method: Method<A, R>, _ args: A) throws(BusError) -> [BusValue] {
        try call(method.name) { w throws(BusError) in try method.writeArgs(w, args) }
    }

    /// A property of the contract, decoded.
    public func get<V>(_ property: Property<V>) throws(BusError) -> V { try property.decode(try self.property(property.name)) }

    public func listPage(offset: UInt32, limit: UInt32) throws(BusError) -> ListPage { try call(Pokedex1.listPage, (offset, limit)) }
    public func detail(_ pokemon: String) throws(BusError) -> PokemonDetail { try call(Pokedex1.detail, pokemon) }
    public func search(_ query: String, limit: UInt32) throws(BusError) -> [ListEntry] { try call(Pokedex1.search, (query, limit)) }
    public func searchDetailed(_ query: String, limit: UInt32) throws(BusError) -> [SearchMatch] {
        try call(Pokedex1.searchDetailed, (query, limit))
    }
    /// → the new state.
    public func searchPage(_ query: String, offset: UInt32, limit: UInt32) throws(BusError) -> ListPage {
        try call(Pokedex1.searchPage, (query, offset, limit))
    }
    public func toggleFavorite(_ pokemon: String) throws(BusError) -> Bool { try call(Pokedex1.toggleFavorite, pokemon) }
    public func setFavorite(_ pokemon: String, _ favorite: Bool) throws(BusError) { try call(Pokedex1.setFavorite, (pokemon, favorite)) }
    public func changeFavorite(_ pokemon: String, _ action: FavoriteAction) throws(BusError) -> FavoriteUpdate {
        try call(Pokedex1.changeFavorite, (pokemon, action))
    }
    public func listFavorites() throws(BusError) -> [ListEntry] { try call(Pokedex1.listFavorites) }
    public func spritePath(_ pokemon: String) throws(BusError) -> String { try call(Pokedex1.spritePath, pokemon) }
    public func randomSprite(favorites: Bool, shinyChance: Double) throws(BusError) -> RandomSprite {
        try call(Pokedex1.randomSprite, (favorites, shinyChance))
    }
    public func status() throws(BusError) -> ServiceStatus { try call(Pokedex1.status) }

    /// A property of the interface, by name, as read.
    public func property(_ name: String) throws(BusError) -> BusValue {
        let v = try call(interface: FreedesktopBus.properties, "Get") { w throws(BusError) in
            try w.append(Pokedex1.interfaceName)
            try w.append(name)
        }
        guard let p = v.first else { throw BusError(name: "org.freedesktop.DBus.Error.InvalidSignature", message: "no value in Get") }
        return p.unwrapped
    }

    /// `org.freedesktop.DBus.Peer.Ping`, the cheapest round trip.
    public func ping() throws(BusError) {
        _ = try call(interface: FreedesktopBus.peer, "Ping")
    }

    /// The object's introspection XML.
    public func introspect() throws(BusError) -> String {
        try call(interface: FreedesktopBus.introspectable, "Introspect").first?.string ?? ""
    }
}

extension PokedexClient {
    /// Sends one call per client (a member taking one string) before waiting for any reply,
    /// so the service sees them all at once. Returns how many were answered without error.
    public static func concurrent(_ calls: [(PokedexClient, String, String)]) throws(BusError) -> Int {
        var slots: [OpaquePointer?] = Array(repeating: nil, count: calls.count)
        final class Tally { var answered = 0; var pending = 0 }
        let tally = Tally()
        tally.pending = calls.count
        for (i, call) in calls.enumerated() {
            var msg: OpaquePointer?
            try busCheck(sd_bus_message_new_method_call(call.0.bus, &msg, Pokedex1.busName, Pokedex1.objectPath,
                                                        Pokedex1.interfaceName, call.1), "build \(call.1)")
            try MessageWriter(msg!).append(call.2)
            try busCheck(sd_bus_call_async(call.0.bus, &slots[i], msg, { reply, userdata, _ in
                let t = Unmanaged<Tally>.fromOpaque(userdata!).takeUnretainedValue()
                if sd_bus_message_is_method_error(reply, nil) == 0 { t.answered += 1 }
                t.pending -= 1
                return 1
            }, Unmanaged.passUnretained(tally).toOpaque(), 60_000_000), "send \(call.1)")
            sd_bus_message_unref(msg)
        }
        while tally.pending > 0 {
            var progressed = false
            for call in calls where sd_bus_process(call.0.bus, nil) > 0 { progressed = true }
            if !progressed { usleep(200) }
        }
        for s in slots { sd_bus_slot_unref(s) }
        return tally.answered
    }
}

/// What a sync waits for, as its progress is polled.
public enum SyncWait: Equatable, Sendable {
    /// The service does not answer (stopped, frozen).
    case service
    /// PokeAPI does not answer: the service's reason for its host, in its words.
    case network(String)
}

extension PokedexClient {
    /// Whether PokeAPI answers, as the service says (`Online`): nil while it does (or the
    /// service cannot say), else the service's reason for its host ("" where it gives none).
    public func networkDown() -> String? {
        guard (try? get(Pokedex1.online)) == false else { return nil }
        guard let s = try? call(Pokedex1.status, ()), let api = s.hosts.first(where: { $0.isAPI && !$0.up }) else { return "" }
        return api.reason
    }

    /// The name of the error ``sync(every:stop:progress:)`` throws when `stop` said so.
    public static let interrupted = "io.github.pokedexd.Client.Interrupted"

    /// `Sync()`, reporting `SyncProgress` every `interval` seconds while it runs, and what it
    /// waits for when it does not move (``SyncWait``, asked every second). Returns (complete,
    /// failed); throws ``interrupted`` as soon as `stop` says (a signal handler's flag).
    public func sync(every interval: Double = 0.1, stop: () -> Bool = { false },
                     progress: (_ done: UInt32, _ total: UInt32, _ waiting: SyncWait?) -> Void) throws(BusError) -> SyncResult {
        final class Outcome { var reply: OpaquePointer?; var error: BusError? }
        let outcome = Outcome()
        // A short timeout: a frozen service is said within a second, not after five.
        let poller = try PokedexClient(timeout: 1)
        var last: (done: UInt32, total: UInt32) = (0, 0)
        var waiting: SyncWait?
        var checked = 0.0
        var msg: OpaquePointer?
        try busCheck(sd_bus_message_new_method_call(bus, &msg, Pokedex1.busName, Pokedex1.objectPath,
                                                    Pokedex1.interfaceName, Pokedex1.sync.name), "build Sync")
        defer { sd_bus_message_unref(msg) }
        var slot: OpaquePointer?
        // A whole sync can take minutes: no call timeout (a day).
        try busCheck(sd_bus_call_async(bus, &slot, msg, { reply, userdata, _ in
            let o = Unmanaged<Outcome>.fromOpaque(userdata!).takeUnretainedValue()
            if let e = sd_bus_message_get_error(reply), let name = e.pointee.name {
                o.error = BusError(name: String(cString: name), message: e.pointee.message.map { String(cString: $0) } ?? "")
            } else {
                o.reply = sd_bus_message_ref(reply)
            }
            return 1
        }, Unmanaged.passUnretained(outcome).toOpaque(), 86_400_000_000), "send Sync")
        defer { sd_bus_slot_unref(slot) }
        while outcome.reply == nil && outcome.error == nil {
            if stop() { throw BusError(name: Self.interrupted, message: "interrupted") }
            let r = sd_bus_process(bus, nil)
            if r < 0 { throw BusError.disconnected(errno: r) }
            if r > 0 { continue }
            let w = sd_bus_wait(bus, UInt64(interval * 1_000_000))
            if w < 0, w != -EINTR { throw BusError.disconnected(errno: w) }
            guard let now = try? poller.get(Pokedex1.syncProgress) else {
                progress(last.done, last.total, .service)
                continue
            }
            last = now
            let t = monotonicSeconds()
            if t - checked >= 1 {
                checked = t
                waiting = poller.networkDown().map(SyncWait.network)
            }
            progress(now.0, now.1, waiting)
        }
        if let e = outcome.error { throw e }
        defer { sd_bus_message_unref(outcome.reply) }
        return try Pokedex1.sync.readReply(MessageReader(outcome.reply!))
    }
}
