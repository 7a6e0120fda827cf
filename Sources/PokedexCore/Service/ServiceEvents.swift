import PokedexLocks

/// Where the service's events go: the one observer a bus adapter registers.
final class ServiceEvents: Sendable {
    /// The handler inside a struct, never as the lock's own value: a function stored as a
    /// generic `Value` is reabstracted on every `withLock`, and the write-back of the `inout`
    /// wraps it in one more thunk each time, so each event would call through one more level
    /// than the last (a stack that grew ~130 bytes per event, and overflowed after ~60,000).
    private struct Observer {
        let handler: @Sendable (ServiceEvent) -> Void
    }

    private let observer = Mutex<Observer?>(nil)

    func observe(_ handler: @escaping @Sendable (ServiceEvent) -> Void) { observer.withLock { $0 = Observer(handler: handler) } }

    func emit(_ event: ServiceEvent) { observer.withLock { $0 }?.handler(event) }
}
