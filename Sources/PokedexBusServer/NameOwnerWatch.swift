import CSystemd
import PokedexLocks
import PokedexProtocol

/// Who owns a well-known name now (its unique name), without waiting for the bus: a match on
/// `NameOwnerChanged` for the name, then `GetNameOwner` for an owner it already had. Both are
/// sent before the caller takes a name of its own, so a call that D-Bus activation holds for
/// it comes after both answers (dbus-daemon sends a connection's messages in order).
///
/// ``owner`` may be read from any thread; the answers arrive on the loop thread.
final class NameOwnerWatch: Sendable {
    private struct Slots: @unchecked Sendable {
        var match: OpaquePointer?
        var query: OpaquePointer?
    }
    private let slots = Mutex(Slots())
    private let current = Mutex<String?>(nil)

    /// The owner's unique name (":1.42"); nil while the name has none.
    var owner: String? { current.withLock { $0 } }

    /// Watches `name` on `bus`; nil when the bus refuses to send.
    init?(bus: OpaquePointer, name: String) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        var match: OpaquePointer?, query: OpaquePointer?
        let rule = "type='signal',sender='\(FreedesktopBus.daemonName)',path='\(FreedesktopBus.daemonPath)',"
            + "interface='\(FreedesktopBus.daemonName)',member='\(FreedesktopBus.nameOwnerChanged)',arg0='\(name)'"
        guard sd_bus_add_match_async(bus, &match, rule, { m, userdata, _ in
            Unmanaged<NameOwnerWatch>.fromOpaque(userdata!).takeUnretainedValue().ownerChanged(m!)
            return 0
        }, nil, me) >= 0 else { return nil }
        slots.withLock { $0.match = match }
        var m: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &m, FreedesktopBus.daemonName, FreedesktopBus.daemonPath,
                                             FreedesktopBus.daemonName, FreedesktopBus.getNameOwner) >= 0, let m else { return nil }
        defer { sd_bus_message_unref(m) }
        let appended = name.withCString { sd_bus_message_append_basic(m, CChar(UInt8(ascii: "s")), $0) }
        guard appended >= 0, sd_bus_call_async(bus, &query, m, { reply, userdata, _ in
            Unmanaged<NameOwnerWatch>.fromOpaque(userdata!).takeUnretainedValue().answered(reply!)
            return 0
        }, me, 0) >= 0 else { return nil }
        slots.withLock { $0.query = query }
    }

    deinit {
        let s = slots.withLock { $0 }
        sd_bus_slot_unref(s.match)
        sd_bus_slot_unref(s.query)
    }

    /// `NameOwnerChanged(name, old, new)`: `new` owns it now ("" for nobody).
    private func ownerChanged(_ m: OpaquePointer) {
        var values: [String] = []
        for _ in 0..<3 {
            var s: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &s) > 0, let s else { return }
            values.append(String(cString: s))
        }
        current.withLock { $0 = values[2].isEmpty ? nil : values[2] }
    }

    /// `GetNameOwner`'s reply: the owner, or an error (`NameHasNoOwner`) when there is none.
    /// A change the match brought before it is older than the reply (the match was in place
    /// first, and the bus sends in order); one after it, newer.
    private func answered(_ reply: OpaquePointer) {
        let query = slots.withLock { s in defer { s.query = nil }; return s.query }
        defer { sd_bus_slot_unref(query) }
        var s: UnsafePointer<CChar>?
        let owner = sd_bus_message_is_method_error(reply, nil) == 0 && sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &s) > 0
            ? s.map { String(cString: $0) } : nil
        current.withLock { $0 = owner }
    }
}
