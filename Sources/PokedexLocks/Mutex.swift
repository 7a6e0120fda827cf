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
///
/// `withLock` is inlinable, so each caller has it specialized to its own types: across modules
/// it was called generically, metadata looked up at run time, for every lock taken. The value
/// lives in memory of its own rather than in a stored property, which an `inout` of would have
/// checked for exclusive access at run time on every call (the lock is what makes it exclusive).
public final class Mutex<Value>: @unchecked Sendable {
    // @unchecked: this is the lock; `value` is reached only between lock and unlock.
    @usableFromInline let lock: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let value: UnsafeMutablePointer<Value>

    public init(_ initialValue: Value) {
        value = .allocate(capacity: 1)
        value.initialize(to: initialValue)
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    @inlinable @inline(__always)
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body(&value.pointee)
    }
}
