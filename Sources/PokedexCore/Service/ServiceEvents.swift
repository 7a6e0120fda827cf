import PokedexLocks

/// Where the service's events go: the one observer a bus adapter registers.
final class ServiceEvents: Sendable {
    private let observer = Mutex<(@Sendable (ServiceEvent) -> Void)?>(nil)

    func observe(_ handler: @escaping @Sendable (ServiceEvent) -> Void) { observer.withLock { $0 = handler } }

    func emit(_ event: ServiceEvent) { observer.withLock { $0 }?(event) }
}
