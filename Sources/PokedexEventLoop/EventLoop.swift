import CSystemd
import Dispatch
import Glibc
import Synchronization
import PokedexLocks

/// One `sd_event` loop on one thread. It owns the bus connection and the curl multi
/// handle; other threads hand it work through ``execute(_:)``, which queues a closure
/// and wakes the loop through an `eventfd`.
///
/// Its timers (``timer(after:_:)``: the idle exit, the grace period, a call's deadline) run on
/// the system's monotonic clock, or on a ``ManualLoopClock`` a test moves by hand; curl's
/// (``networkTimer(after:_:)``) always on the system's, as the network's time-outs are real.
///
/// Everything but ``execute(_:)`` and ``exit(_:)`` must be called on the loop thread.
public final class EventLoop: @unchecked Sendable {
    // @unchecked: `sd_event*` is a C handle, and `children` is touched only on the loop thread
    // (from work queued with `execute`); LoopBound cannot hold it, as LoopBound needs the loop.
    // Everything else is immutable or behind a Mutex.
    /// The `sd_event*`.
    public let event: OpaquePointer
    private let wakeFD: Int32
    private var wakeSource: OpaquePointer?
    // PokedexLocks', not Synchronization's (imported for Atomic): Swift 6.0 finds both.
    private let queue = PokedexLocks.Mutex<[@Sendable () -> Void]>([])
    /// The loop's thread (`pthread_self()`), 0 until ``run()``: an atomic, as every access to
    /// loop-bound state reads it.
    private let loopThread = Atomic<UInt>(0)
    /// Where the loop is in its life: one value, so no reader sees it ended before it started.
    private let phase = Atomic<UInt8>(Phase.notStarted)
    private enum Phase {
        static let notStarted: UInt8 = 0, running: UInt8 = 1, ended: UInt8 = 2
    }
    /// The clock a test moves by hand, for ``timer(after:_:)``; nil: the system's.
    public let manualClock: ManualLoopClock?
    /// Children being waited for (loop thread only).
    private var children: [pid_t: ChildWatch] = [:]
    /// The service manager, told through a socket made now, before any sandbox closes the door
    /// on new ones.
    public let manager: ServiceManager
    /// The watchdog's timer and what it sends (``enableWatchdog()``; loop thread only).
    private var watchdog: (source: OpaquePointer, ping: WatchdogPing)?

    /// - Parameters:
    ///   - clock: a clock a test moves by hand for the loop's timers; nil (the service): the
    ///     system's monotonic clock.
    ///   - notifySocket: the service manager's socket (`NOTIFY_SOCKET`, or a test's).
    public init(clock: ManualLoopClock? = nil,
                notifySocket: String? = getenv("NOTIFY_SOCKET").map { String(cString: $0) }) throws(EventLoopError) {
        manualClock = clock
        manager = ServiceManager(notifySocket: notifySocket)
        var e: OpaquePointer?
        var r = sd_event_new(&e)
        guard r >= 0, let e else { throw .init("sd_event_new", r) }
        event = e
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wakeFD >= 0 else { throw .init("eventfd", -errno) }
        r = sd_event_add_io(event, &wakeSource, wakeFD, UInt32(EPOLLIN.rawValue), { _, fd, _, userdata in
            var value: UInt64 = 0
            _ = read(fd, &value, 8)
            Unmanaged<EventLoop>.fromOpaque(userdata!).takeUnretainedValue().drain(limit: EventLoop.drainBatch)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
        guard r >= 0 else { throw .init("sd_event_add_io", r) }
        // Just below the bus and curl: what waits on a descriptor is read first (sd-bus reads a
        // message a turn, and queues each call cheaply), then up to a batch of this work, so a
        // thousand tasks ending at once (each posting its reply) do not keep a Ping unread.
        sd_event_source_set_priority(wakeSource, Int64(SD_EVENT_PRIORITY_NORMAL) + 1)
    }

    deinit {
        if let watchdog { sd_event_source_disable_unref(watchdog.source) }
        sd_event_source_disable_unref(wakeSource)
        close(wakeFD)
        sd_event_unref(event)
    }

    /// Queues `work` to run on the loop thread. Safe from any thread.
    ///
    /// The loop is woken by the work that finds the queue empty; what joins it there finds it
    /// woken already (the loop reads the `eventfd` before it takes the queue, and wakes itself
    /// for what it leaves): a sync's 6,000 transfers started were as many `write` calls.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        let first = queue.withLock { q -> Bool in
            q.append(work)
            return q.count == 1
        }
        guard first else { return }
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// Runs the work queued with ``execute(_:)`` now, on the calling thread: after ``run()``
    /// returned, for whatever still needs the loop's thread at exit (a cancelled transfer
    /// removed from curl's multi handle).
    public func runQueued() {
        preconditionInLoop()
        drain()
    }

    /// Work run per turn of the loop; what is left waits for the next turn.
    public static let drainBatch = 64

    /// Runs queued work, at most `limit` items (all of it at exit); if some is left, the loop
    /// comes back for it after its other sources had their turn.
    private func drain(limit: Int = .max) {
        var ran = 0
        while ran < limit {
            let batch = queue.withLock { q -> [@Sendable () -> Void] in
                let n = min(q.count, limit - ran)
                let b = Array(q.prefix(n))
                q.removeFirst(n)
                return b
            }
            if batch.isEmpty { return }
            for work in batch { work() }
            ran += batch.count
        }
        if !queue.withLock({ $0.isEmpty }) {
            var one: UInt64 = 1
            _ = write(wakeFD, &one, 8)
        }
    }

    /// Runs `work` on the loop's thread and returns once it ran: queued where the loop runs on
    /// another thread, at once where the caller is that thread or the loop has not started.
    /// Once the loop has ended, nothing runs on it any more: returns false without running
    /// `work`, also when the loop ended while the caller waited (work queued just after the
    /// loop's last drain would otherwise be waited for forever).
    @discardableResult
    public func runAndWait(_ work: @escaping () -> Void) -> Bool {
        if inLoop || phase.load(ordering: .acquiring) == Phase.notStarted {
            work()
            return true
        }
        if hasEnded { return false }
        let awaited = AwaitedWork(work)
        execute { awaited.runUnlessWithdrawn() }
        while !awaited.finished(within: 0.01) {
            if hasEnded && awaited.withdraw() { return false }
        }
        return true
    }

    /// Whether ``run()`` runs the loop now (on some thread).
    public var isRunning: Bool { phase.load(ordering: .acquiring) == Phase.running }

    /// Whether ``run()`` ran and returned: nothing fires on the loop any more.
    public var hasEnded: Bool { phase.load(ordering: .acquiring) == Phase.ended }

    /// Whether the caller runs on the loop thread.
    public var inLoop: Bool {
        let t = loopThread.load(ordering: .acquiring)
        guard t != 0 else { return false }
        return pthread_equal(t, pthread_self()) != 0
    }

    /// Traps, in release builds too, when called off the loop thread once the loop runs
    /// (before, the thread that will run it is setting up). ``LoopBound`` calls it on every
    /// access to loop-bound state.
    public func preconditionInLoop(file: StaticString = #fileID, line: UInt = #line) {
        let t = loopThread.load(ordering: .acquiring)
        guard t != 0 else { return }
        precondition(pthread_equal(t, pthread_self()) != 0, "called off the event loop's thread", file: file, line: line)
    }

    /// Lets the service manager watch the loop: where it asked (`WatchdogSec=`, which sets
    /// `WATCHDOG_USEC` and `WATCHDOG_PID`), a timer of the loop's own sends `WATCHDOG=1` at half
    /// the interval through ``manager``, so a loop thread that is wedged stops the pings and the
    /// manager restarts the service. Returns the interval in seconds, 0 when none was asked
    /// for, or a negative errno. Call on the loop's thread, once.
    public func enableWatchdog() -> Double {
        guard let usec = ServiceManager.watchdogInterval() else { return 0 }
        let ping = WatchdogPing(manager: manager, half: usec / 2)
        var s: OpaquePointer?
        let r = sd_event_add_time_relative(event, &s, CLOCK_MONOTONIC, ping.half, ping.half / 10, { source, _, userdata in
            let ping = Unmanaged<WatchdogPing>.fromOpaque(userdata!).takeUnretainedValue()
            ping.manager.notify("WATCHDOG=1")
            sd_event_source_set_time_relative(source, ping.half)
            sd_event_source_set_enabled(source, Int32(SD_EVENT_ONESHOT))
            return 0
        }, Unmanaged.passUnretained(ping).toOpaque())
        guard r >= 0, let s else { return Double(r) }
        watchdog = (s, ping)
        return Double(usec) / 1_000_000
    }

    /// Runs the loop on the calling thread until ``exit(_:)``; returns the exit code.
    public func run() -> Int32 {
        loopThread.store(pthread_self(), ordering: .releasing)
        phase.store(Phase.running, ordering: .releasing)
        let r = sd_event_loop(event)
        phase.store(Phase.ended, ordering: .releasing)
        drain()
        return r
    }

    /// Asks the loop to stop after this iteration. Safe from any thread.
    public func exit(_ code: Int32 = 0) {
        execute { [self] in _ = sd_event_exit(self.event, code) }
    }

    /// Monotonic time now, in microseconds, as the loop sees it (the manual clock's in a test).
    public var nowMicroseconds: UInt64 { manualClock?.nowMicroseconds ?? systemNowMicroseconds }

    /// The system's monotonic time as the loop sees it: the time its iteration began
    /// (`sd_event_now`), or the clock's own before the loop first ran.
    private var systemNowMicroseconds: UInt64 {
        var now: UInt64 = 0
        return sd_event_now(event, CLOCK_MONOTONIC, &now) < 0 ? monotonicMicroseconds() : now
    }

    // MARK: Sources

    /// Watches a file descriptor. The source lives until the returned object is released.
    public func watch(fd: Int32, events: UInt32, _ handler: @escaping (UInt32) -> Void) throws(EventLoopError) -> EventSource {
        let box = EventSource.Box(io: handler)
        var s: OpaquePointer?
        let r = sd_event_add_io(event, &s, fd, events, { _, _, revents, userdata in
            Unmanaged<EventSource.Box>.fromOpaque(userdata!).takeUnretainedValue().io?(revents)
            return 0
        }, Unmanaged.passUnretained(box).toOpaque())
        guard r >= 0, let s else { throw .init("sd_event_add_io", r) }
        return EventSource(source: s, box: box)
    }

    /// Calls `handler` once, `microseconds` from now on the loop's clock (a test's manual one,
    /// else the system's).
    public func timer(after microseconds: UInt64, _ handler: @escaping () -> Void) throws(EventLoopError) -> EventSource {
        if let manualClock { return manualClock.schedule(after: microseconds, handler) }
        return try networkTimer(after: microseconds, handler)
    }

    /// Calls `handler` once, `microseconds` from now on the system's monotonic clock, whatever
    /// the loop's: curl's time-outs are the network's, in real time.
    public func networkTimer(after microseconds: UInt64, _ handler: @escaping () -> Void) throws(EventLoopError) -> EventSource {
        let box = EventSource.Box(fire: handler)
        var s: OpaquePointer?
        let r = sd_event_add_time(event, &s, CLOCK_MONOTONIC, systemNowMicroseconds + microseconds, 1000, { _, _, userdata in
            Unmanaged<EventSource.Box>.fromOpaque(userdata!).takeUnretainedValue().fire?()
            return 0
        }, Unmanaged.passUnretained(box).toOpaque())
        guard r >= 0, let s else { throw .init("sd_event_add_time", r) }
        return EventSource(source: s, box: box)
    }

    /// Calls `handler` on every turn of the loop while the source is on
    /// (``EventSource/setEnabled(_:)``; it starts off), but only when nothing else is pending:
    /// below every other source, so what waits on a descriptor or a timer goes first. For work
    /// the loop takes in slices.
    public func whenIdle(_ handler: @escaping () -> Void) throws(EventLoopError) -> EventSource {
        try deferred(handler, priority: Int64(SD_EVENT_PRIORITY_IDLE))
    }

    /// Calls `handler` at the loop's next turn, once each time ``EventSource/fireOnce()`` asks
    /// (it starts off), beside the descriptors and timers of the same priority: what a timer
    /// set to fire now does, without a `timerfd` to set and read (curl asks to be called at
    /// once 6,000 times a sync).
    public func nextTurn(_ handler: @escaping () -> Void) throws(EventLoopError) -> EventSource {
        try deferred(handler, priority: Int64(SD_EVENT_PRIORITY_NORMAL))
    }

    /// A source of ``whenIdle(_:)``'s kind at `priority` (lower runs first), off at first.
    func deferred(_ handler: @escaping () -> Void, priority: Int64) throws(EventLoopError) -> EventSource {
        let box = EventSource.Box(fire: handler)
        var s: OpaquePointer?
        let r = sd_event_add_defer(event, &s, { _, userdata in
            Unmanaged<EventSource.Box>.fromOpaque(userdata!).takeUnretainedValue().fire?()
            return 0
        }, Unmanaged.passUnretained(box).toOpaque())
        guard r >= 0, let s else { throw .init("sd_event_add_defer", r) }
        sd_event_source_set_priority(s, priority)
        sd_event_source_set_enabled(s, Int32(SD_EVENT_OFF))
        return EventSource(source: s, box: box)
    }

    /// Handles a signal. The caller must have blocked it in every thread first
    /// (``blockSignals(_:)`` before any thread starts).
    public func onSignal(_ signo: Int32, _ handler: @escaping () -> Void) throws(EventLoopError) -> EventSource {
        let box = EventSource.Box(fire: handler)
        var s: OpaquePointer?
        let r = sd_event_add_signal(event, &s, signo, { _, _, userdata in
            Unmanaged<EventSource.Box>.fromOpaque(userdata!).takeUnretainedValue().fire?()
            return 0
        }, Unmanaged.passUnretained(box).toOpaque())
        guard r >= 0, let s else { throw .init("sd_event_add_signal", r) }
        return EventSource(source: s, box: box)
    }

    /// Reaps child `pid` on the loop when it exits (`sd_event_add_child`), instead of a thread
    /// waiting for each. SIGCHLD must be blocked in every thread (``blockSignals(_:)``). Safe
    /// from any thread; `exited` gets its exit status (128 + the signal that killed it), on the
    /// loop; `failed` gets the errno when the child cannot be watched.
    public func reap(_ pid: pid_t, exited: @escaping @Sendable (Int32) -> Void = { _ in },
                     failed: @escaping @Sendable (Int32) -> Void = { _ in }) {
        execute { [self] in
            let watch = ChildWatch(pid: pid, loop: self, exited: exited)
            let r = sd_event_add_child(event, &watch.source, pid, WEXITED, { _, info, userdata in
                let w = Unmanaged<ChildWatch>.fromOpaque(userdata!).takeUnretainedValue()
                if let info {
                    let status = info.pointee._sifields._sigchld.si_status
                    w.exited(info.pointee.si_code == CLD_EXITED ? status : 128 + status)
                }
                // sd-event reaps the child once this returns; the source goes after that.
                let pid = w.pid
                w.loop?.execute { [weak loop = w.loop] in loop?.children[pid] = nil }
                return 0
            }, Unmanaged.passUnretained(watch).toOpaque())
            if r < 0 {
                failed(-r)
                var status: Int32 = 0
                _ = waitpid(pid, &status, WNOHANG)
            } else {
                children[pid] = watch
            }
        }
    }

    /// Blocks `signals` in the calling thread, and so in every thread it starts later.
    /// Call first thing in `main`, before any other thread exists.
    public static func blockSignals(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }
}

/// `CLOCK_MONOTONIC` now, in microseconds, read from the clock itself (not the loop's iteration).
func monotonicMicroseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
}
