#if canImport(Glibc)
import Glibc
#endif

/// A value behind a `pthread_mutex_t`, with the same shape as the standard library's
/// `Synchronization.Mutex`.
///
/// Why not that one: on Linux it is built on a raw futex that ThreadSanitizer cannot see, so
/// every access under it is reported as a race and `make check-sanitizers` would be noise.
/// ThreadSanitizer intercepts `pthread_mutex_lock`, so with this lock its reports are real.
///
/// Keep a function inside a struct, not as `Value` itself (nor as an optional or a tuple
/// element): a function stored as a generic value is reabstracted through the `inout` of
/// every ``withLock(_:)``, and the write-back wraps it in one more thunk each time.
public final class Mutex<Value>: @unchecked Sendable {
    // @unchecked: this is the lock; `value` is reached only between lock and unlock.
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ initialValue: Value) {
        value = initialValue
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    @inline(__always)
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body(&value)
    }
}
