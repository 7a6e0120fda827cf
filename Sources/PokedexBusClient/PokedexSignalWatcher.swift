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
///
/// Any peer on the bus can emit a signal with the service's path and interface. Only those
/// whose sender is the unique name that owns ``Pokedex1/busName`` at the time are kept: the bus
/// filters by the name, and the watcher checks the unique name itself, following the owner
/// through `NameOwnerChanged` as the service exits and is started again.
public final class PokedexSignalWatcher {
    let bus: OpaquePointer
    var slots: [OpaquePointer?] = [nil, nil]
    var received: [BusSignal] = []
    /// The unique name (`:1.42`) that owns the service's name now; nil while nobody does.
    public private(set) var owner: String?
    /// Whether the service's owner changes come out of ``next(timeout:)`` too.
    let reportsOwner: Bool

    /// The member of the signal ``next(timeout:)`` gives for a change of the service's owner
    /// (with `reportingOwner`): values are the name, the old owner and the new ("" for none).
    public static let ownerChanged = FreedesktopBus.nameOwnerChanged

    /// Connects and subscribes; signals sent after this returns are seen. With
    /// `reportingOwner`, the service's owner changes (``ownerChanged``) are given too: the
    /// service stopped, or started.
    public init(reportingOwner: Bool = false) throws(BusError) {
        reportsOwner = reportingOwner
        var b: OpaquePointer?
        let r = sd_bus_open_user_with_description(&b, "pokectl-watch")
        guard r >= 0, let b else { throw BusError(errno: r, "cannot connect to the session bus") }
        bus = b
        let me = Unmanaged.passUnretained(self).toOpaque()
        let owners = "type='signal',sender='\(FreedesktopBus.daemonName)',path='\(FreedesktopBus.daemonPath)',"
            + "interface='\(FreedesktopBus.daemonName)',member='\(FreedesktopBus.nameOwnerChanged)',arg0='\(Pokedex1.busName)'"
        try busCheck(sd_bus_add_match(bus, &slots[0], owners, { m, userdata, _ in
            let me = Unmanaged<PokedexSignalWatcher>.fromOpaque(userdata!).takeUnretainedValue()
            guard PokedexSignalWatcher.sender(m) == FreedesktopBus.daemonName,
                  let values = try? MessageReader(m!).readAll(), values.count == 3, let new = values[2].string else { return 0 }
            me.owner = new.isEmpty ? nil : new
            if me.reportsOwner { me.received.append(BusSignal(interface: FreedesktopBus.daemonName, member: PokedexSignalWatcher.ownerChanged, values: values)) }
            return 0
        }, me), "cannot follow the service's owner")
        let signals = "type='signal',sender='\(Pokedex1.busName)',path='\(Pokedex1.objectPath)'"
        try busCheck(sd_bus_add_match(bus, &slots[1], signals, { m, userdata, _ in
            let me = Unmanaged<PokedexSignalWatcher>.fromOpaque(userdata!).takeUnretainedValue()
            guard let sender = PokedexSignalWatcher.sender(m), sender == me.owner else { return 0 }
            let iface = sd_bus_message_get_interface(m).map { String(cString: $0) } ?? ""
            let member = sd_bus_message_get_member(m).map { String(cString: $0) } ?? ""
            let values = (try? MessageReader(m!).readAll()) ?? []
            me.received.append(BusSignal(interface: iface, member: member, values: values))
            return 0
        }, me), "cannot subscribe to signals")
        // After the matches: an owner change from here on is seen, and this is the owner now.
        owner = Self.currentOwner(bus)
    }

    deinit {
        for slot in slots { sd_bus_slot_unref(slot) }
        sd_bus_flush_close_unref(bus)
    }

    static func sender(_ m: OpaquePointer?) -> String? { sd_bus_message_get_sender(m).map { String(cString: $0) } }

    /// `GetNameOwner`; nil when the service is not running (the watcher does not start it).
    static func currentOwner(_ bus: OpaquePointer) -> String? {
        daemonCall(bus, FreedesktopBus.getNameOwner, Pokedex1.busName)?.first?.string
    }

    /// A call to the bus daemon itself (never to the service, so nothing is activated), with
    /// one string argument or none; nil when it fails.
    static func daemonCall(_ bus: OpaquePointer, _ member: String, _ argument: String? = nil) -> [BusValue]? {
        var error = sd_bus_error()
        var reply: OpaquePointer?
        var m: OpaquePointer?
        defer { sd_bus_error_free(&error); sd_bus_message_unref(reply); sd_bus_message_unref(m) }
        guard sd_bus_message_new_method_call(bus, &m, FreedesktopBus.daemonName, FreedesktopBus.daemonPath,
                                             FreedesktopBus.daemonName, member) >= 0, let m else { return nil }
        if let argument, (try? MessageWriter(m).append(argument)) == nil { return nil }
        guard sd_bus_call(bus, m, 5_000_000, &error, &reply) >= 0, let reply else { return nil }
        return try? MessageReader(reply).readAll()
    }

    /// The next signal, waiting at most `timeout` seconds (nil: forever); nil on timeout.
    public func next(timeout: Double?) throws(BusError) -> BusSignal? {
        switch try wait(timeout: timeout, endingWith: nil) {
        case .signal(let s): return s
        case .timeout, .readerGone: return nil
        }
    }

    /// What ``wait(timeout:endingWith:)`` saw first.
    public enum Wake: Equatable, Sendable {
        case signal(BusSignal)
        case timeout
        /// The reader of `endingWith` went away (a pipe's far end closed): a follower whose
        /// output nobody reads any more ends, instead of waiting for a signal to write into a
        /// closed pipe (a bar restarted, its script left behind).
        case readerGone
    }

    /// The next signal, at most `timeout` seconds (nil: forever), or the hang-up of `fd`
    /// (the follower's stdout), whichever comes first.
    public func wait(timeout: Double?, endingWith fd: Int32?) throws(BusError) -> Wake {
        let start = monotonicSeconds()
        while true {
            if !received.isEmpty { return .signal(received.removeFirst()) }
            let r = sd_bus_process(bus, nil)
            if r < 0 { throw BusError.disconnected(errno: r) }
            if r > 0 { continue }
            var waitMillis: Int32 = -1
            if let timeout {
                let left = timeout - (monotonicSeconds() - start)
                if left <= 0 { return .timeout }
                waitMillis = Int32(min(left * 1000 + 1, 86_400_000))
            }
            // sd-bus's own deadline (a pending call's), as sd_bus_wait would honour it.
            var busDeadline: UInt64 = 0
            if sd_bus_get_timeout(bus, &busDeadline) > 0, busDeadline != UInt64.max {
                var ts = timespec()
                clock_gettime(CLOCK_MONOTONIC, &ts)
                let now = UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
                let ms = Int32(clamping: busDeadline > now ? (busDeadline - now + 999) / 1000 : 0)
                waitMillis = waitMillis < 0 ? ms : min(waitMillis, ms)
            }
            let busFD = sd_bus_get_fd(bus)
            if busFD < 0 { throw BusError.disconnected(errno: busFD) }
            let events = sd_bus_get_events(bus)
            if events < 0 { throw BusError.disconnected(errno: events) }
            var fds = [pollfd(fd: busFD, events: Int16(events), revents: 0)]
            // No events asked of the reader's end: poll reports POLLERR or POLLHUP regardless.
            if let fd { fds.append(pollfd(fd: fd, events: 0, revents: 0)) }
            let n = poll(&fds, nfds_t(fds.count), waitMillis)
            if n < 0 && errno != EINTR { throw BusError.disconnected(errno: -errno) }
            if fds.count > 1, fds[1].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return .readerGone }
        }
    }
}

/// Seconds on `CLOCK_MONOTONIC`, for the waits' own time-outs.
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
