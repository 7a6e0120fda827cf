import CSystemd
import PokedexProtocol

/// A connection of its own that sends calls without waiting for their replies (each busctl
/// waits for its one): what a client keeping many calls in flight looks like to the service.
final class RawCaller {
    private var bus: OpaquePointer?

    init(address: String) throws {
        guard sd_bus_new(&bus) >= 0, sd_bus_set_address(bus, address) >= 0, sd_bus_set_bus_client(bus, 1) >= 0,
              sd_bus_start(bus) >= 0 else { throw TestFailure("cannot connect to \(address)") }
    }

    deinit { sd_bus_flush_close_unref(bus) }

    /// This connection's unique name.
    var name: String {
        var unique: UnsafePointer<CChar>?
        sd_bus_get_unique_name(bus, &unique)
        return unique.map { String(cString: $0) } ?? ""
    }

    /// Sends a call of `member` with no arguments, and does not wait.
    func send(_ member: String) throws {
        var m: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &m, Pokedex1.busName, Pokedex1.objectPath, Pokedex1.interfaceName, member) >= 0
        else { throw TestFailure("cannot build \(member)") }
        defer { sd_bus_message_unref(m) }
        // With a cookie to keep: sent without one, a call says it expects no reply.
        var cookie: UInt64 = 0
        guard sd_bus_send(bus, m, &cookie) >= 0, sd_bus_flush(bus) >= 0 else { throw TestFailure("cannot send \(member)") }
    }
}
