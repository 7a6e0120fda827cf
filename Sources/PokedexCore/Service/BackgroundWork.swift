import Dispatch
import PokedexLocks
import PokedexNetwork

/// The one owner of the service's background work: the warm start, probing a host that is
/// down, pre-warming pages and sprites, revalidating stale records, writing records behind
/// their answers, notifications and the desktop search's warming. Each job is a task kept
/// here until it ends; ``shutdown()`` cancels them all and returns when every one has ended,
/// so nothing the service started outlives it (the spirit of swift-service-lifecycle's
/// `ServiceGroup`, without its dependency).
///
/// Jobs end on cancellation as fetches do (``FetchError/cancelled(url:)``); a job that must
/// not be lost at exit (a cache write) is refused once shutdown began, and its caller does it
/// inline instead.
final class BackgroundWork: Sendable {
    private struct State {
        var next = 0
        var tasks: [Int: Task<Void, Never>] = [:]
        /// Jobs that run for the service's whole life (the notifications' queue): cancelled at
        /// shutdown like any, but never waited for by ``idle()``.
        var resident: Set<Int> = []
        var stopping = false
        /// Who waits for the jobs to end: `all` counts the resident ones too.
        var waiters: [(all: Bool, continuation: CheckedContinuation<Void, Never>)] = []

        func done(all: Bool) -> Bool { all ? tasks.isEmpty : tasks.count == resident.count }
    }
    private let state = Mutex(State())
    /// Entered per job: what a thread that is not a task (pokedexd's main, at exit) waits on.
    private let jobs = DispatchGroup()

    public init() {}

    /// Starts `job` as a task that inherits the caller's task-locals (its fetch priority),
    /// unless shutdown began. Returns whether it started.
    @discardableResult
    func run(_ priority: TaskPriority, _ job: @escaping @Sendable () async -> Void) -> Bool {
        start(resident: false) { id in Task(priority: priority) { [weak self] in await job(); self?.ended(id) } }
    }

    /// Starts `job`, which runs until the service stops (a queue's consumer): ``idle()`` does
    /// not wait for it; ``shutdown()`` cancels it like any other.
    @discardableResult
    func runResident(_ priority: TaskPriority, _ job: @escaping @Sendable () async -> Void) -> Bool {
        start(resident: true) { id in Task(priority: priority) { [weak self] in await job(); self?.ended(id) } }
    }

    /// Starts `job` as a task of its own, inheriting nothing from the caller, unless shutdown
    /// began. Returns whether it started.
    @discardableResult
    func runDetached(_ priority: TaskPriority, _ job: @escaping @Sendable () async -> Void) -> Bool {
        start(resident: false) { id in Task.detached(priority: priority) { [weak self] in await job(); self?.ended(id) } }
    }

    private func start(resident: Bool, _ make: (Int) -> Task<Void, Never>) -> Bool {
        // Created under the lock: a job that ends at once waits for its own entry to exist.
        state.withLock { s in
            guard !s.stopping else { return false }
            let id = s.next
            s.next &+= 1
            jobs.enter()
            if resident { s.resident.insert(id) }
            s.tasks[id] = make(id)
            return true
        }
    }

    private func ended(_ id: Int) {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.tasks.removeValue(forKey: id)
            s.resident.remove(id)
            jobs.leave()
            let (all, some) = (s.done(all: true), s.done(all: false))
            let ready = s.waiters.filter { $0.all ? all : some }
            s.waiters.removeAll { $0.all ? all : some }
            return ready.map(\.continuation)
        }
        for w in waiters { w.resume() }
    }

    /// Jobs running now.
    public var running: Int { state.withLock { $0.tasks.count } }

    /// Returns when no job is running but the resident ones (at once if none is): what tests
    /// wait on instead of polling, and what shutdown waits for.
    public func idle() async { await waitUntilDone(all: false) }

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

    /// Refuses new jobs and cancels every running one; returns at once. Jobs end as their
    /// fetches see the cancellation (curl's transfers are removed on the loop, which must run).
    public func stop() {
        let tasks = state.withLock { s -> [Task<Void, Never>] in
            s.stopping = true
            return Array(s.tasks.values)
        }
        for t in tasks { t.cancel() }
    }

    /// ``stop()``, then returns when every job has ended.
    public func shutdown() async {
        stop()
        await waitUntilDone(all: true)
    }

    /// Blocks the calling thread (never a task's) until every job has ended, at most `timeout`
    /// seconds; returns how many are still running.
    public func wait(timeout: Double) -> Int {
        _ = jobs.wait(timeout: .now() + timeout)
        return running
    }
}
