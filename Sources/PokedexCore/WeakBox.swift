import PokedexLocks

/// A value behind a lock, for closures that must stay Sendable (the value itself must be).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<R: Sendable>(_ body: (inout Value) -> R) -> R { mutex.withLock(body) }
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
