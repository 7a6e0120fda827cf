import CSystemd
import Glibc
import PokedexCore
import PokedexModels
import PokedexProtocol

/// Cards: a notification of their own (never the favorites bubble), with buttons. A button
/// pressed comes back as `ActionInvoked(id, key)`; the card's handler gets the key.
extension DesktopNotificationsClient {
    public func showCard(_ notification: DesktopNotification, actions: [(key: String, label: String)],
                         onAction: @escaping @Sendable (String) -> Void) {
        loop.execute { [self] in sendCard(notification, actions.flatMap { [$0.key, $0.label] }, onAction) }
    }

    /// A card's call in flight: the client, the card and what its buttons do.
    private final class PendingCard {
        let client: DesktopNotificationsClient
        let card: DesktopNotification
        let onAction: @Sendable (String) -> Void
        init(_ client: DesktopNotificationsClient, _ card: DesktopNotification, _ onAction: @escaping @Sendable (String) -> Void) {
            self.client = client
            self.card = card
            self.onAction = onAction
        }
    }

    /// A card that cannot be shown: its own warning (``DesktopNotification/unshown``: one line
    /// per activation, saying what is missing), else a plain one.
    func warnUnshown(_ card: DesktopNotification, _ why: String) {
        log(.warning, card.unshown?.message(card: why) ?? "cannot show a notification: \(why)")
    }

    private func sendCard(_ n: DesktopNotification, _ actions: [String], _ onAction: @escaping @Sendable (String) -> Void) {
        guard connect(), let bus else { return warnUnshown(n, "the session bus cannot be reached for a notification") }
        followActions(bus)
        var m: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &m, Self.service, Self.path, Self.service, "Notify") >= 0, let m else { return }
        defer { sd_bus_message_unref(m) }
        do {
            try Self.writeNotify(n, replacing: 0, actions: actions, category: "x-pokedexd.card", to: MessageWriter(m))
        } catch {
            return log(.warning, "cannot build a notification: \(error.message)")
        }
        let box = Unmanaged.passRetained(PendingCard(self, n, onAction)).toOpaque()
        let r = sd_bus_call_async(bus, nil, m, { reply, userdata, _ in
            let card = Unmanaged<PendingCard>.fromOpaque(userdata!).takeRetainedValue()
            var id: UInt32 = 0
            if let error = sd_bus_message_get_error(reply) {
                let name = error.pointee.name.map { String(cString: $0) } ?? "no answer"
                card.client.warnUnshown(card.card, "no notification server answered (\(name))")
                return 1
            }
            if sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "u")), &id) >= 0, id != 0 {
                if card.client.cards.count > 64 { card.client.cards.removeAll() }  // bounded, whoever never closes them
                card.client.cards[id] = card.onAction
                card.client.noteServer(reply!)
            }
            return 1
        }, box, 5_000_000)
        if r < 0 {
            Unmanaged<PendingCard>.fromOpaque(box).release()
            warnUnshown(n, "no notification could be sent (\(String(cString: strerror(-r))))")
        }
    }

    /// Subscribes to `ActionInvoked` once, from the notification server only: the one that
    /// answered `Notify` (``DesktopNotificationsClient/fromServer(_:)``).
    private func followActions(_ bus: OpaquePointer) {
        guard actionSlot == nil else { return }
        let me = Unmanaged.passUnretained(self).toOpaque()
        sd_bus_match_signal_async(
            bus, &actionSlot, Self.service, Self.path, Self.service, "ActionInvoked",
            { m, userdata, _ in
                let client = Unmanaged<DesktopNotificationsClient>.fromOpaque(userdata!).takeUnretainedValue()
                guard client.fromServer(m!) else { return 0 }
                var id: UInt32 = 0
                let r = MessageReader(m!)
                guard sd_bus_message_read_basic(m, CChar(UInt8(ascii: "u")), &id) >= 0,
                      let key = try? r.readString(maxBytes: Coding.maxArgumentBytes), let action = client.cards[id] else { return 0 }
                action(key)
                return 0
            }, nil, me)
    }
}
