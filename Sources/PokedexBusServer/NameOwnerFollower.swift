import CSystemd
import PokedexProtocol

/// Who owns a bus name, followed without waiting for the bus: a match on `NameOwnerChanged` for
/// the name, then `GetNameOwner` for an owner it had before the match was in place (dbus-daemon
/// answers them in the order sent, so a change the match brings before the reply is older than
/// it). Both are sent without waiting for a reply; `sd_bus_track` would make the second a
/// blocking call on the loop thread, which, behind a busy bus daemon, stalls every other caller.
///
/// `changed` runs on the loop thread with the owner's unique name (":1.42"), nil once it has
/// none. Releasing the follower stops it.
final class NameOwnerFollower {
    private var match: OpaquePointer?
    private var query: OpaquePointer?
    private let changed: (String?) -> Void

    /// Follows `name` (well-known or unique) on `bus`; nil when the bus refuses to send.
    init?(bus: OpaquePointer, name: String, changed: @escaping (String?) -> Void) {
        self.changed = changed
        let me = Unmanaged.passUnretained(self).toOpaque()
        let rule = "type='signal',sender='\(FreedesktopBus.daemonName)',path='\(FreedesktopBus.daemonPath)',"
            + "interface='\(FreedesktopBus.daemonName)',member='\(FreedesktopBus.nameOwnerChanged)',arg0='\(name)'"
        guard sd_bus_add_match_async(bus, &match, rule, { m, userdata, _ in
            Unmanaged<NameOwnerFollower>.fromOpaque(userdata!).takeUnretainedValue().ownerChanged(m!)
            return 0
        }, nil, me) >= 0 else { return nil }
        var m: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &m, FreedesktopBus.daemonName, FreedesktopBus.daemonPath,
                                             FreedesktopBus.daemonName, FreedesktopBus.getNameOwner) >= 0, let m else { return nil }
        defer { sd_bus_message_unref(m) }
        let appended = name.withCString { sd_bus_message_append_basic(m, CChar(UInt8(ascii: "s")), $0) }
        guard appended >= 0, sd_bus_call_async(bus, &query, m, { reply, userdata, _ in
            Unmanaged<NameOwnerFollower>.fromOpaque(userdata!).takeUnretainedValue().answered(reply!)
            return 0
        }, me, 0) >= 0 else { return nil }
    }

    deinit {
        sd_bus_slot_unref(match)
        sd_bus_slot_unref(query)
    }

    /// `NameOwnerChanged(name, old, new)`: `new` owns it now ("" for nobody).
    private func ownerChanged(_ m: OpaquePointer) {
        var values: [String] = []
        for _ in 0..<3 {
            var s: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &s) > 0, let s else { return }
            values.append(String(cString: s))
        }
        changed(values[2].isEmpty ? nil : values[2])
    }

    /// `GetNameOwner`'s reply: the owner, or `NameHasNoOwner` when there is none (any other
    /// error says nothing of the owner).
    private func answered(_ reply: OpaquePointer) {
        sd_bus_slot_unref(query)
        query = nil
        if sd_bus_message_is_method_error(reply, BusError.Name.nameHasNoOwner) != 0 { return changed(nil) }
        var s: UnsafePointer<CChar>?
        guard sd_bus_message_is_method_error(reply, nil) == 0, sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &s) > 0, let s else { return }
        changed(String(cString: s))
    }
}
