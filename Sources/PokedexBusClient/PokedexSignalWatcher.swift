import CSystemd
import Glibc
import PokedexProtocol

/// A signal as received: its interface, member and arguments.
public struct BusSignal: Equatable, Sendable {
    public var interface: String
    public var member: String
    public var values: [BusValue]
}

/// Follows the service's signals (`FavoriteChanged`, `PropertiesChanged`) on its own
/// connection. One watcher belongs to one thread.
public final class PokedexSignalWatcher {
    let bus: OpaquePointer
    var slot: OpaquePointer?
    var received: [BusSignal] = []

    /// Connects and subscribes; signals sent after this returns are seen.
    public init() throws(BusError) {
        var b: OpaquePointer?
        let r = sd_bus_open_user_with_description(&b, "pokectl-watch")
        guard r >= 0, let b else { throw BusError(errno: r, "cannot connect to the session bus") }
        bus = b
        let match = "type='signal',path='\(Pokedex1.objectPath)'"
        try busCheck(sd_bus_add_match(bus, &slot, match, { m, userdata, _ in
            let me = Unmanaged<PokedexSignalWatcher>.fromOpaque(userdata!).takeUnretainedValue()
            let iface = sd_bus_message_get_interface(m).map { String(cString: $0) } ?? ""
            let member = sd_bus_message_get_member(m).map { String(cString: $0) } ?? ""
            let values = (try? MessageReader(m!).readAll()) ?? []
            me.received.append(BusSignal(interface: iface, member: member, values: values))
            return 0
        }, Unmanaged.passUnretained(self).toOpaque()), "cannot subscribe to signals")
    }

    deinit {
        sd_bus_slot_unref(slot)
        sd_bus_flush_close_unref(bus)
    }

    /// The next signal, waiting at most `timeout` seconds (nil: forever); nil on timeout.
    public func next(timeout: Double?) throws(BusError) -> BusSignal? {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let start = Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        while true {
            if !received.isEmpty { return received.removeFirst() }
            let r = sd_bus_process(bus, nil)
            try busCheck(r, "lost the bus connection")
            if r > 0 { continue }
            var wait = UInt64.max
            if let timeout {
                clock_gettime(CLOCK_MONOTONIC, &ts)
                let left = timeout - (Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9 - start)
                if left <= 0 { return nil }
                wait = UInt64(left * 1_000_000)
            }
            try busCheck(sd_bus_wait(bus, wait), "lost the bus connection")
        }
    }
}
