import Synchronization

/// A value behind a lock, shareable between tasks (a `Mutex` is not copyable, so it
/// cannot be captured by several task closures directly).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<R: Sendable>(_ body: (inout sending Value) -> sending R) -> R { mutex.withLock(body) }
}
