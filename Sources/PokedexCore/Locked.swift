import Synchronization

/// A value behind a lock, shareable between tasks (a `Mutex` is not copyable, so it
/// cannot be captured by several task closures directly).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<R: Sendable>(_ body: (inout sending Value) -> sending R) -> R { mutex.withLock(body) }
}

/// A weak reference that can cross threads: lets a closure made in an initializer reach the
/// object once it exists, without keeping it alive.
final class WeakBox<T: AnyObject & Sendable>: Sendable {
    private struct Ref: @unchecked Sendable { weak var object: T? }
    private let ref = Mutex(Ref())

    init() {}

    var value: T? {
        get { ref.withLock { $0.object } }
        set { ref.withLock { $0.object = newValue } }
    }
}
