import Glibc
import PokedexLocks

/// Time a test moves by hand, for an ``EventLoop``'s timers, as swift-nio's embedded loop moves
/// its own with `advanceTime(by:)`: the loop runs its file descriptors, signals and queued work
/// for real, and a timer of ``EventLoop/timer(after:_:)`` fires only when the test moves this
/// clock past it, on the loop's thread, in the order they are due. A test of the idle exit, the
/// grace period or a call's deadline then waits no real second for any of them.
///
/// The daemon runs on the system's monotonic clock (an ``EventLoop`` made without one).
public final class ManualLoopClock: @unchecked Sendable {
    // @unchecked: the timers' handlers are the loop's (not Sendable); they are kept here behind
    // the lock and only ever called on the loop's thread.
    private struct Timer {
        let id: UInt64
        let due: UInt64
        let fire: () -> Void
    }

    private struct State {
        var now: UInt64 = 0
        var nextID: UInt64 = 0
        var timers: [Timer] = []
    }

    private let state = Mutex(State())

    /// - Parameter start: the clock's first reading, in microseconds.
    public init(start: UInt64 = 1_000_000) { state.withLock { $0.now = start } }

    /// Now, in microseconds.
    public var nowMicroseconds: UInt64 { state.withLock { $0.now } }

    /// Timers armed and not yet fired or cancelled.
    public var armedTimers: Int { state.withLock { $0.timers.count } }

    /// When the next timer is due, in seconds from now; nil when none is armed.
    public var nextDue: Double? {
        state.withLock { s in s.timers.map(\.due).min().map { Double($0 - min($0, s.now)) / 1_000_000 } }
    }

    /// Arms a timer `microseconds` from now; cancelled with the returned source.
    func schedule(after microseconds: UInt64, _ fire: @escaping () -> Void) -> EventSource {
        let id = state.withLock { s -> UInt64 in
            s.nextID += 1
            s.timers.append(Timer(id: s.nextID, due: s.now &+ microseconds, fire: fire))
            return s.nextID
        }
        return EventSource(cancel: { [weak self] in self?.state.withLock { $0.timers.removeAll { $0.id == id } } })
    }

    /// Moves the clock `seconds` on, firing on `loop`'s thread each timer that falls due, in
    /// order, each with the clock at its due time; returns once they all ran (and what they
    /// queued on the loop with them). From any thread but the loop's while the loop runs; on the
    /// thread that owns a loop that does not run yet, they fire on it. A loop that ended fires
    /// nothing: only the time moves.
    public func advance(by seconds: Double, on loop: EventLoop) {
        let target = state.withLock { $0.now &+ UInt64(max(0, seconds) * 1_000_000) }
        while !loop.hasEnded, let timer = state.withLock({ s -> Timer? in
            guard let i = s.timers.indices.min(by: { (s.timers[$0].due, s.timers[$0].id) < (s.timers[$1].due, s.timers[$1].id) }),
                  s.timers[i].due <= target else { return nil }
            s.now = max(s.now, s.timers[i].due)
            return s.timers.remove(at: i)
        }) {
            loop.runAndWait(timer.fire)
        }
        state.withLock { $0.now = max($0.now, target) }
        // What the timers queued on the loop runs before the clock's caller goes on.
        loop.runAndWait {}
    }
}
