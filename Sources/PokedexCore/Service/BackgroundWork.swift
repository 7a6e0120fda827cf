import Dispatch
import PokedexLocks
import PokedexNetwork

/// The one owner of the service's background work: the warm start, probing a host that is
/// down, pre-warming pages and sprites, revalidating stale records, writing records behind
/// their answers, notifications and the desktop search's warming. Each job is a task kept
/// here until it ends; ``stop()`` cancels them and ``shutdown()`` returns when every one has
/// ended, so nothing the service started outlives it (the spirit of swift-service-lifecycle's
/// `ServiceGroup`, without its dependency).
///
/// Three kinds of job:
/// - **ordinary** (``run(_:_:)``, ``runDetached(_:_:)``): cancelled at stop, refused after it.
///   Jobs end on cancellation as fetches do (``FetchError/cancelled(url:)``);
/// - **resident** (``runResident(_:stop:_:)``): runs for the service's life (a queue's consumer);
///   ``idle()`` does not wait for it, and at stop it is told to finish what it holds, not cancelled;
/// - **durable** (``runDurable(_:_:)``): a change a person asked for (a notification's button);
///   never cancelled, started even while stopping, and waited for at exit.
final class BackgroundWork: Sendable {
    private struct Job {
        let task: Task<Void, Never>
        let kind: Kind
        let onStop: (@Sendable () -> Void)?
    }
    private enum Kind { case ordinary, resident, durable }

    private struct State {
        var next = 0
        var jobs: [Int: Job] = [:]
        var residents = 0
        var stopping = false
        /// Who waits for the jobs to end: `all` counts the resident ones too.
        var waiters: [(all: Bool, continuation: CheckedContinuation<Void, Never>)] = []

        func done(all: Bool) -> Bool { all ? jobs.isEmpty : jobs.count == residents }
    }
    private let state = Mutex(State())
    /// Entered per job: what a thread that is not a task (pokedexd's main, at exit) waits on.
    private let group = DispatchGroup()

    init() {}

    /// Starts `job` as a task that inherits the caller's task-locals (its fetch priority),
    /// unless stopping. Returns whether it started.
    @discardableResult
    func run(_ priority: TaskPriority, _ job: @escaping @Sendable () async -> Void) -> Bool {
        start(.ordinary) { id in Task(priority: priority) { await job(); self.ended(id) } }
    }

    /// Starts `job` as a task of its own, inheriting nothing from the caller, unless stopping.
    /// Returns whether it started.
    @discardableResult
    func runDetached(_ priority: TaskPriority, _ job: @escaping @Sendable () async -> Void) -> Bool {
        start(.ordinary) { id in Task.detached(priority: priority) { await job(); self.ended(id) } }
    }

    /// Starts `job`, which runs until the service stops; at stop `stop` is called (it finishes
    /// the job's queue, so what is queued is still done) instead of cancelling it.
    @discardableResult
    func runResident(_ priority: TaskPriority, stop: @escaping @Sendable () -> Void, _ job: @escaping @Sendable () async -> Void) -> Bool {
        start(.resident, onStop: stop) { id in Task(priority: priority) { await job(); self.ended(id) } }
    }

    /// Starts `job`, which is never cancelled and is started even while stopping: a change a
    /// person asked for. Exit waits for it (within its time-out).
    func runDurable(_ priority: TaskPriority, _ job: @escaping @Sendable () async -> Void) {
        _ = start(.durable) { id in Task.detached(priority: priority) { await job(); self.ended(id) } }
    }

    // Each task holds the owner strongly until it ends: `ended` must find it (and the group
    // must not be freed with jobs inside). The cycle task ↔ `jobs[id]` is broken by `ended`.
    private func start(_ kind: Kind, onStop: (@Sendable () -> Void)? = nil, _ make: (Int) -> Task<Void, Never>) -> Bool {
        // Created under the lock: a job that ends at once waits for its own entry to exist.
        state.withLock { s in
            guard !s.stopping || kind == .durable else { return false }
            let id = s.next
            s.next &+= 1
            group.enter()
            if kind == .resident { s.residents += 1 }
            s.jobs[id] = Job(task: make(id), kind: kind, onStop: onStop)
            return true
        }
    }

    private func ended(_ id: Int) {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            guard let job = s.jobs.removeValue(forKey: id) else { return [] }
            if job.kind == .resident { s.residents -= 1 }
            group.leave()
            let (all, some) = (s.done(all: true), s.done(all: false))
            let ready = s.waiters.filter { $0.all ? all : some }
            s.waiters.removeAll { $0.all ? all : some }
            return ready.map(\.continuation)
        }
        for w in waiters { w.resume() }
    }

    /// Jobs running now.
    var running: Int { state.withLock { $0.jobs.count } }

    /// Returns when no job is running but the resident ones (at once if none is): what tests
    /// wait on instead of polling.
    func idle() async { await waitUntilDone(all: false) }

    private func waitUntilDone(all: Bool) async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.done(all: all) { return true }
                s.waiters.append((all, c))
                return false
            }
            if now { c.resume() }
        }
    }

    /// Refuses new jobs but durable ones, cancels the ordinary ones and tells the resident ones
    /// to finish; returns at once. Jobs end as their fetches see the cancellation (curl's
    /// transfers are removed on the loop, which must still turn, or be pumped: ``wait(timeout:pumping:)``).
    func stop() {
        let jobs = state.withLock { s -> [Job] in
            s.stopping = true
            return Array(s.jobs.values)
        }
        for job in jobs {
            switch job.kind {
            case .ordinary: job.task.cancel()
            case .resident: job.onStop?()
            case .durable: break
            }
        }
    }

    /// ``stop()``, then returns when every job has ended.
    func shutdown() async {
        stop()
        await waitUntilDone(all: true)
    }

    /// Blocks the calling thread (never a task's) until every job has ended, at most `timeout`
    /// seconds, calling `pumping` every 10 ms meanwhile (the event loop's queued work, when
    /// the loop no longer runs); returns how many are still running.
    func wait(timeout: Double, pumping: () -> Void = {}) -> Int {
        var left = timeout
        while left > 0 {
            if group.wait(timeout: .now() + min(left, 0.01)) == .success { return 0 }
            pumping()
            left -= 0.01
        }
        return running
    }
}
