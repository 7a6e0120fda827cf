/// Tells when one caller's connection leaves the bus, without waiting for the bus
/// (``NameOwnerFollower`` on its unique name: it has no owner once it left, or had already
/// left before the watch began).
///
/// `left` is called at most once, on the loop thread. Releasing the watch stops it.
final class CallerWatch {
    private var follower: NameOwnerFollower?
    private var left: (() -> Void)?

    /// Watches `name` (a unique name, ":1.42") on `bus`; nil when the bus refuses to send.
    init?(bus: OpaquePointer, name: String, left: @escaping () -> Void) {
        self.left = left
        guard let follower = NameOwnerFollower(bus: bus, name: name, changed: { [weak self] owner in
            if owner == nil { self?.gone() }
        }) else { return nil }
        self.follower = follower
    }

    private func gone() {
        let left = self.left
        self.left = nil
        left?()
    }
}
