import CSystemd
import Glibc
import PokedexLocks

/// Runs the jobs of the tasks that prefer it on the event loop's thread, in slices taken only
/// when nothing else is pending: below every other source, the bus's and curl's and the call
/// queue's idle batches, so a person's call waits at most for the job running when it came.
///
/// What it is for: a sync. Its steps are woken by transfers that end on this thread; run here,
/// a transfer's end, the body's decoding and the next transfer's start follow one another on
/// one thread, with no thread woken for each (on a thread of their own, the wake-ups and
/// switches cost 5 % of a sync's CPU over HTTP/2, 15 % over HTTP/1.1; curl, on one thread,
/// pays none of it).
///
/// A slice runs jobs in the order they came until none is left or its time (2 ms unless the
/// init is told otherwise) has passed, then the loop takes its other sources before the next.
/// A job is not cut: one long step holds the loop for its whole length, as it would hold a
/// thread (a body longer than any PokeAPI sends is decoded on the pool for that reason).
///
/// Make it on the loop's thread or before the loop runs; jobs may be queued from any thread.
/// After ``EventLoop/run()`` returned, ``runQueued()`` runs what is left, as the loop's own.
public final class LoopTaskExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `source` is touched only on the loop's thread; the queue is behind its lock.
    private let loop: EventLoop
    /// How long a slice runs jobs before the loop's other sources are looked at again.
    private let sliceMicroseconds: UInt64
    private let queue = Mutex(Queue())
    private var source: EventSource?

    private struct Queue {
        var jobs = JobQueue()
        /// Whether the source is on or asked to be: the job that finds it off turns it on.
        var armed = false
    }

    /// Below the loop's idle work (``EventLoop/whenIdle(_:)``, the bus's call queue): a sync is
    /// the work nobody waits for.
    static let priority = Int64(SD_EVENT_PRIORITY_IDLE) + 1

    public init(loop: EventLoop, slice: Duration = .milliseconds(2)) throws(EventLoopError) {
        self.loop = loop
        let (seconds, attoseconds) = slice.components
        sliceMicroseconds = UInt64(max(0, seconds)) * 1_000_000 + UInt64(max(0, attoseconds / 1_000_000_000_000))
        source = try loop.deferred({ [unowned self] in runSlice() }, priority: Self.priority)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let arm = queue.withLock { q -> Bool in
            q.jobs.append(job)
            if q.armed { return false }
            q.armed = true
            return true
        }
        guard arm else { return }
        // Off the loop's thread the source is turned on by the loop (sd-event is one thread's).
        // Nothing turns it off before that: only a slice does, and a slice runs only while on.
        if loop.inLoop { source?.setEnabled(true) } else { loop.execute { [self] in source?.setEnabled(true) } }
    }

    /// Whether the caller runs on the loop's thread, where this executor's jobs run.
    public var isCurrent: Bool { loop.inLoop }

    /// Runs every job queued, and those they queue, on the calling thread: after
    /// ``EventLoop/run()`` returned, as ``EventLoop/runQueued()`` does for the loop's own work.
    public func runQueued() {
        loop.preconditionInLoop()
        let me = asUnownedTaskExecutor()
        while let job = next() { job.runSynchronously(on: me) }
        source?.setEnabled(false)
    }

    /// Runs jobs until none is left (the source goes off) or the slice has passed (it stays on,
    /// and the loop comes back once its other sources have had their turn).
    private func runSlice() {
        // The clock's own time: the loop's (`sd_event_now`) stays where this iteration began.
        let end = monotonicMicroseconds() + sliceMicroseconds
        let me = asUnownedTaskExecutor()
        while let job = next() {
            job.runSynchronously(on: me)
            if monotonicMicroseconds() >= end { return }
        }
        source?.setEnabled(false)
    }

    /// The oldest job, or nil and disarmed when none is left.
    private func next() -> UnownedJob? {
        queue.withLock { q -> UnownedJob? in
            let job = q.jobs.popFirst()
            if job == nil { q.armed = false }
            return job
        }
    }
}
