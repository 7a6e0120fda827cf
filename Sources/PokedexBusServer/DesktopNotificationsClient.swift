import CSystemd
import Glibc
import PokedexProtocol
import PokedexCore
import PokedexEventLoop
import PokedexModels

/// Shows ``DesktopNotification``s through `org.freedesktop.Notifications` on the session bus.
///
/// It has its own connection, opened at start (``connect()``) and driven by the service's event loop;
/// every call is asynchronous, so a slow or missing notification server never holds up the bus.
/// One bubble serves every change: each call passes the id of the previous one as
/// `replaces_id`, and changes that come while a call is out are merged into the next one.
/// With no notification server it logs one line and goes on.
public final class DesktopNotificationsClient: DesktopNotifier, Sendable {
    static let service = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    /// The app name servers show and group by.
    static let appName = "Pokédex"

    let loop: EventLoop
    let log: Logger

    /// The connection and the bubbles: the loop thread's alone (checked on each access).
    struct State {
        var bus: OpaquePointer?
        var closedSlot: OpaquePointer?
        /// The bubble to replace; 0 for a new one.
        var currentID: UInt32 = 0
        var inFlight = false
        var queued: DesktopNotification?
        /// Whether the missing server was already logged (again only after it worked once).
        var reportedMissing = false
        /// Cards with buttons still open, by notification id: what a button does.
        var cards: [UInt32: @Sendable (String) -> Void] = [:]
        var actionSlot: OpaquePointer?
        /// The unique name of the server that answered the last `Notify`: its signals are the only
        /// ones obeyed. sd-bus does not check a match's sender on the client side, so any
        /// connection could send `ActionInvoked` with the server's path and interface.
        var serverName: String?
    }
    private let state: LoopBound<State>

    var bus: OpaquePointer? { get { state.value.bus } set { state.value.bus = newValue } }
    var closedSlot: OpaquePointer? { get { state.value.closedSlot } _modify { yield &state.value.closedSlot } }
    var currentID: UInt32 { get { state.value.currentID } set { state.value.currentID = newValue } }
    var inFlight: Bool { get { state.value.inFlight } set { state.value.inFlight = newValue } }
    var queued: DesktopNotification? { get { state.value.queued } set { state.value.queued = newValue } }
    var reportedMissing: Bool { get { state.value.reportedMissing } set { state.value.reportedMissing = newValue } }
    var cards: [UInt32: @Sendable (String) -> Void] { get { state.value.cards } _modify { yield &state.value.cards } }
    var actionSlot: OpaquePointer? { get { state.value.actionSlot } _modify { yield &state.value.actionSlot } }
    var serverName: String? { get { state.value.serverName } set { state.value.serverName = newValue } }

    public init(loop: EventLoop, log: @escaping Logger) {
        self.loop = loop
        self.log = log
        state = LoopBound(State(), loop: loop)
    }

    public func show(_ notification: DesktopNotification) {
        loop.execute { [self] in
            if inFlight { queued = notification } else { send(notification) }
        }
    }

    /// Opens the connection and follows `NotificationClosed`, so a closed bubble is not replaced.
    /// pokedexd calls it at start, before its sandbox refuses new Unix sockets; later calls
    /// find it open.
    @discardableResult
    public func connect() -> Bool {
        if bus != nil { return true }
        var b: OpaquePointer?
        guard sd_bus_open_user_with_description(&b, "pokedexd-notify") >= 0, let b else { return false }
        guard sd_bus_attach_event(b, loop.event, 0) >= 0 else {
            sd_bus_unref(b)
            return false
        }
        bus = b
        let me = Unmanaged.passUnretained(self).toOpaque()
        sd_bus_match_signal_async(
            b, &closedSlot, Self.service, Self.path, Self.service, "NotificationClosed",
            { m, userdata, _ in
                let client = Unmanaged<DesktopNotificationsClient>.fromOpaque(userdata!).takeUnretainedValue()
                var id: UInt32 = 0
                guard client.fromServer(m!), sd_bus_message_read_basic(m, CChar(UInt8(ascii: "u")), &id) >= 0 else { return 0 }
                if id == client.currentID { client.currentID = 0 }
                client.cards[id] = nil
                return 0
            }, nil, me)
        return true
    }

    private func send(_ n: DesktopNotification) {
        guard connect(), let bus else {
            missing("cannot connect to the session bus")
            return
        }
        var m: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &m, Self.service, Self.path, Self.service, "Notify") >= 0, let m else { return }
        defer { sd_bus_message_unref(m) }
        do {
            try Self.writeNotify(n, replacing: currentID, to: MessageWriter(m))
        } catch {
            log(.warning, "cannot build a notification: \(error.message)")
            return
        }
        inFlight = true
        let me = Unmanaged.passUnretained(self).toOpaque()
        let r = sd_bus_call_async(bus, nil, m, { reply, userdata, _ in
            Unmanaged<DesktopNotificationsClient>.fromOpaque(userdata!).takeUnretainedValue().answered(reply!)
            return 1
        }, me, 5_000_000)
        if r < 0 {
            inFlight = false
            missing(String(cString: strerror(-r)))
        }
    }

    /// `Notify(s app_name, u replaces_id, s app_icon, s summary, s body, as actions, a{sv} hints, i expire_timeout)`.
    static func writeNotify(_ n: DesktopNotification, replacing id: UInt32, actions: [String] = [],
                            category: String = "x-pokedexd.favorite", to w: MessageWriter) throws(BusError) {
        try w.append(appName)
        try w.append(id)
        try w.append("")
        // The summary is plain text; the body is markup to a server with "body-markup" (the
        // spec's <b>, <i>, <a>, <img>), so the genus in it is escaped, never interpreted.
        try w.append(UntrustedText.terminal(n.summary))
        try w.append(UntrustedText.markup(n.body))
        try w.append(strings: actions.map(UntrustedText.terminal))
        try w.container("a", "{sv}") { () throws(BusError) in
            if !n.imagePath.isEmpty {
                try w.entry("image-path", "s") { () throws(BusError) in try w.append(n.imagePath) }
            }
            try w.entry("sound-name", "s") { () throws(BusError) in try w.append(n.soundName) }
            try w.entry("category", "s") { () throws(BusError) in try w.append(category) }
        }
        var expire: Int32 = -1
        try busCheck(sd_bus_message_append_basic(w.message, CChar(UInt8(ascii: "i")), &expire), "append expire_timeout")
    }

    private func answered(_ reply: OpaquePointer) {
        inFlight = false
        if let error = sd_bus_message_get_error(reply) {
            let name = error.pointee.name.map { String(cString: $0) } ?? "?"
            let message = error.pointee.message.map { String(cString: $0) } ?? ""
            currentID = 0
            missing("\(name): \(message)")
        } else {
            var id: UInt32 = 0
            if sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "u")), &id) >= 0 { currentID = id }
            noteServer(reply)
            reportedMissing = false
        }
        if let next = queued {
            queued = nil
            send(next)
        }
    }

    /// Remembers who answered `Notify`.
    func noteServer(_ reply: OpaquePointer) {
        if let sender = sd_bus_message_get_sender(reply) { serverName = String(cString: sender) }
    }

    /// Whether a signal comes from the server that answered `Notify`; others are dropped.
    func fromServer(_ m: OpaquePointer) -> Bool {
        guard let sender = sd_bus_message_get_sender(m), let serverName else { return false }
        return String(cString: sender) == serverName
    }

    func missing(_ why: String) {
        guard !reportedMissing else { return }
        reportedMissing = true
        log(.notice, "no desktop notifications: \(why); favorites changes go on without them")
    }
}
