import CSystemd
import PokedexProtocol

/// Tells when one caller's connection leaves the bus, without waiting for the bus: a match on
/// `NameOwnerChanged` for its unique name, then `GetNameOwner` for a caller that had already
/// left before the match was in place (dbus-daemon answers them in the order sent). Both are
/// sent without waiting for a reply; `sd_bus_track` would make the second a blocking call on
/// the loop thread, which, behind a busy bus daemon, stalls every other caller.
///
/// `left` is called at most once, on the loop thread. Releasing the watch stops it.
final class CallerWatch {
    private var match: OpaquePointer?
    private var query: OpaquePointer?
    private var left: (() -> Void)?

    /// Watches `name` (a unique name, ":1.42") on `bus`; nil when the bus refuses to send.
    init?(bus: OpaquePointer, name: String, left: @escaping () -> Void) {
        self.left = left
        let me = Unmanaged.passUnretained(self).toOpaque()
        let rule = "type='signal',sender='\(FreedesktopBus.daemonName)',path='\(FreedesktopBus.daemonPath)',"
            + "interface='\(FreedesktopBus.daemonName)',member='\(FreedesktopBus.nameOwnerChanged)',arg0='\(name)'"
        guard sd_bus_add_match_async(bus, &match, rule, { m, userdata, _ in
            Unmanaged<CallerWatch>.fromOpaque(userdata!).takeUnretainedValue().ownerChanged(m!)
            return 0
        }, nil, me) >= 0 else { return nil }
        var m: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &m, FreedesktopBus.daemonName, FreedesktopBus.daemonPath,
                                             FreedesktopBus.daemonName, FreedesktopBus.getNameOwner) >= 0, let m else { return nil }
        defer { sd_bus_message_unref(m) }
        let appended = name.withCString { sd_bus_message_append_basic(m, CChar(UInt8(ascii: "s")), $0) }
        guard appended >= 0, sd_bus_call_async(bus, &query, m, { reply, userdata, _ in
            Unmanaged<CallerWatch>.fromOpaque(userdata!).takeUnretainedValue().answered(reply!)
            return 0
        }, me, 0) >= 0 else { return nil }
    }

    deinit {
        sd_bus_slot_unref(match)
        sd_bus_slot_unref(query)
    }

    /// `NameOwnerChanged(name, old, new)`: gone when `new` is empty.
    private func ownerChanged(_ m: OpaquePointer) {
        var values: [String] = []
        for _ in 0..<3 {
            var s: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &s) > 0, let s else { return }
            values.append(String(cString: s))
        }
        if values[2].isEmpty { gone() }
    }

    /// `GetNameOwner`'s reply: an error (`NameHasNoOwner`) when it had already left.
    private func answered(_ reply: OpaquePointer) {
        sd_bus_slot_unref(query)
        query = nil
        if sd_bus_message_is_method_error(reply, BusError.Name.nameHasNoOwner) != 0 { gone() }
    }

    private func gone() {
        let left = self.left
        self.left = nil
        left?()
    }
}
