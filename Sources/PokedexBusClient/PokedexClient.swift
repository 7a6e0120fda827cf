import CSystemd
import Glibc
import PokedexModels

/// A blocking client of the Pokédex bus API, for pokectl, scripts and tests.
/// Calls go to the well-known name, so the first one activates the service.
/// One client belongs to one thread.
public final class PokedexClient {
    let bus: OpaquePointer
    /// Per-call timeout, in seconds.
    public var timeout: Double

    /// Connects to the session bus (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`).
    public init(timeout: Double = 30) throws(BusError) {
        var b: OpaquePointer?
        let r = sd_bus_open_user_with_description(&b, "pokectl")
        guard r >= 0, let b else {
            throw BusError(name: "org.freedesktop.DBus.Error.NoServer",
                           message: "cannot connect to the session bus: \(String(cString: strerror(-r)))")
        }
        bus = b
        self.timeout = timeout
    }

    deinit { sd_bus_flush_close_unref(bus) }

    /// Calls a method and returns the reply's values.
    public func call(
        destination: String = PokedexBusNames.busName, path: String = PokedexBusNames.objectPath,
        interface: String = PokedexBusNames.interface, _ member: String,
        _ args: (MessageWriter) throws(BusError) -> Void = { _ throws(BusError) in }
    ) throws(BusError) -> [BusValue] {
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
        return try MessageReader(reply!).readAll()
    }

    /// `ListPage(offset, limit)`.
    public func listPage(offset: UInt32, limit: UInt32) throws(BusError) -> ListPage {
        let v = try call("ListPage") { w throws(BusError) in try w.append(offset); try w.append(limit) }
        guard v.count == 2, let total = v[0].uint else { throw PokedexCoding.malformed("ListPage") }
        return ListPage(total: UInt32(total), entries: try PokedexCoding.entries(v[1]))
    }

    /// `Detail(pokemon)`, decoded.
    public func detail(_ pokemon: String) throws(BusError) -> PokemonDetail {
        try PokedexCoding.detail(try detailValue(pokemon))
    }

    /// `Detail(pokemon)` as the raw `a{sv}` (every key, including ones this client does not know).
    public func detailValue(_ pokemon: String) throws(BusError) -> BusValue {
        let v = try call("Detail") { w throws(BusError) in try w.append(pokemon) }
        guard let d = v.first else { throw PokedexCoding.malformed("Detail") }
        return d
    }

    /// `Search(query, limit)`.
    public func search(_ query: String, limit: UInt32) throws(BusError) -> [ListEntry] {
        let v = try call("Search") { w throws(BusError) in try w.append(query); try w.append(limit) }
        guard let e = v.first else { throw PokedexCoding.malformed("Search") }
        return try PokedexCoding.entries(e)
    }

    /// `ToggleFavorite(pokemon)` → the new state.
    public func toggleFavorite(_ pokemon: String) throws(BusError) -> Bool {
        let v = try call("ToggleFavorite") { w throws(BusError) in try w.append(pokemon) }
        guard let b = v.first?.bool else { throw PokedexCoding.malformed("ToggleFavorite") }
        return b
    }

    /// `SetFavorite(pokemon, favorite)`.
    public func setFavorite(_ pokemon: String, _ favorite: Bool) throws(BusError) {
        _ = try call("SetFavorite") { w throws(BusError) in try w.append(pokemon); try w.append(favorite) }
    }

    /// `ListFavorites()`.
    public func listFavorites() throws(BusError) -> [ListEntry] {
        guard let e = try call("ListFavorites").first else { throw PokedexCoding.malformed("ListFavorites") }
        return try PokedexCoding.entries(e)
    }

    /// `SpritePath(pokemon)`.
    public func spritePath(_ pokemon: String) throws(BusError) -> String {
        guard let s = try call("SpritePath", { w throws(BusError) in try w.append(pokemon) }).first?.string else {
            throw PokedexCoding.malformed("SpritePath")
        }
        return s
    }

    /// `Status()`.
    public func status() throws(BusError) -> ServiceStatus {
        guard let s = try call("Status").first else { throw PokedexCoding.malformed("Status") }
        return try PokedexCoding.status(s)
    }

    /// A property of the Pokedex1 interface.
    public func property(_ name: String) throws(BusError) -> BusValue {
        let v = try call(interface: "org.freedesktop.DBus.Properties", "Get") { w throws(BusError) in
            try w.append(PokedexBusNames.interface)
            try w.append(name)
        }
        guard let p = v.first else { throw PokedexCoding.malformed("Get") }
        return p.unwrapped
    }

    /// `org.freedesktop.DBus.Peer.Ping`, the cheapest round trip.
    public func ping() throws(BusError) {
        _ = try call(interface: "org.freedesktop.DBus.Peer", "Ping")
    }

    /// The object's introspection XML.
    public func introspect() throws(BusError) -> String {
        try call(interface: "org.freedesktop.DBus.Introspectable", "Introspect").first?.string ?? ""
    }
}
