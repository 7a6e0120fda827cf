import Glibc

/// Runs `body` on a thread of its own made with pthread_create, not Foundation's `Thread`: when
/// a Foundation thread ends, its run loop is finalized from a thread-specific-data destructor
/// that allocates after ThreadSanitizer has let the thread's allocator cache go, and the test
/// process dies of a SEGV inside TSan (`make check-tsan`). A plain thread has no run loop.
enum PlainThread {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// (`body` need not be Sendable: as with `Thread`, what it shares is the caller's to guard.)
    static func start(_ body: @escaping () -> Void) {
        var thread = pthread_t()
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let r = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        precondition(r == 0, "pthread_create: \(r)")
        pthread_detach(thread)
    }
}
