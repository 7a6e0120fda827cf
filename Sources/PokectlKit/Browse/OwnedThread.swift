import Glibc
import PokedexLocks

/// A thread its owner starts and joins, as swift-nio's `NIOThread` is: nothing detached, nothing
/// left running once its owner is done (browse's lanes and its signal follower).
///
/// The join waits at most `within` seconds: a lane inside a slow call (a Detail from the
/// network, up to the call's timeout) would otherwise hold browse's quit for as long. Such a
/// thread is detached then, and ends with the process; a thread that did end is always joined.
final class OwnedThread {
    private var thread = pthread_t()
    /// Closed by the thread as it ends: its owner polls the read end for the hang-up.
    private let done: (read: Int32, write: Int32)
    private var started = false

    /// Starts `body` on a thread of its own (signals as the caller has them masked).
    init(_ body: @escaping @Sendable () -> Void) {
        done = makePipe(nonblocking: false)
        final class Start: Sendable {
            let body: @Sendable () -> Void
            let done: Int32
            init(_ body: @escaping @Sendable () -> Void, done: Int32) { self.body = body; self.done = done }
        }
        // The thread's own reference, taken back (and released) inside it.
        let box = Unmanaged.passRetained(Start(body, done: done.write)).toOpaque()
        started = pthread_create(&thread, nil, { arg in
            let start = Unmanaged<Start>.fromOpaque(arg!).takeRetainedValue()
            start.body()
            close(start.done)
            return nil
        }, box) == 0
        if !started {
            Unmanaged<Start>.fromOpaque(box).release()
            close(done.write)
            close(done.read)
        }
    }

    /// Waits for the thread to end, at most `within` seconds; true when it ended and was joined.
    @discardableResult
    func join(within seconds: Double) -> Bool {
        guard started else { return true }
        started = false
        guard done.read >= 0 else {
            // No pipe to hear its end by (out of descriptors): never wait on it blind.
            pthread_detach(thread)
            return false
        }
        var pfd = pollfd(fd: done.read, events: Int16(POLLIN), revents: 0)
        let deadline = monotonic() + seconds
        var ended = false
        while true {
            let left = deadline - monotonic()
            let n = poll(&pfd, 1, Int32(max(0, (left * 1000).rounded(.up))))
            if n > 0 { ended = pfd.revents & Int16(POLLHUP | POLLIN) != 0; break }
            if n == 0 || left <= 0 || errno != EINTR { break }
        }
        if ended { pthread_join(thread, nil) } else { pthread_detach(thread) }
        close(done.read)
        return ended
    }
}
