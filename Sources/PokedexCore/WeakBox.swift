import PokedexLocks

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
