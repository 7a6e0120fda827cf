#if canImport(Glibc)
import Glibc
#endif

/// One thread of its own that runs the jobs of every task preferring it
/// (`withTaskExecutorPreference`, and the child tasks and `Task {}` started under it).
///
/// Why: a sync is a few thousand short steps (a body inflated, decoded, written), each woken
/// by a transfer that ended on the event loop's thread. On the shared pool every wake-up could
/// land on another idle thread, each of which then went back to sleep: two context switches a
/// step, 21,000 in a sync. One thread that runs what is queued, in order, and sleeps only when
/// nothing is, halves that (issue 58; `bench/sync-vs-curl`).
///
/// The thread starts at the first job (pokectl, the same binary, never starts it) and lives as
/// long as the process: an instance is never freed. Nothing run on it may wait for another job
/// of the same executor, as on any serial executor.
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: every field below is reached only under `lock`, but for `thread`, written
    // once under it before any job can run.
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private let wake: UnsafeMutablePointer<pthread_cond_t>
    private var queue: [UnownedJob] = []
    private var started = false
    private var sleeping = false
    private var thread = pthread_t()

    public init() {
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
        wake = .allocate(capacity: 1)
        wake.initialize(to: pthread_cond_t())
        pthread_cond_init(wake, nil)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pthread_mutex_lock(lock)
        queue.append(job)
        if !started { start() }
        let asleep = sleeping
        pthread_mutex_unlock(lock)
        if asleep { pthread_cond_signal(wake) }
    }

    /// Whether the caller runs on this executor's thread.
    public var isCurrent: Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return started && pthread_equal(thread, pthread_self()) != 0
    }

    /// Starts the thread; under `lock`. A thread that cannot be made (the process is out of
    /// them) is a state the service cannot run in: its tasks would never run.
    private func start() {
        started = true
        let me = Unmanaged.passRetained(self).toOpaque()  // the thread holds it for good
        let rc = pthread_create(&thread, nil, { arg in
            Unmanaged<ThreadExecutor>.fromOpaque(arg!).takeUnretainedValue().run()
        }, me)
        guard rc == 0 else { fatalError("ThreadExecutor: pthread_create failed: \(rc)") }
    }

    /// Runs what is queued, in order, a batch at a time; sleeps while nothing is.
    private func run() -> Never {
        var batch: [UnownedJob] = []
        let me = asUnownedTaskExecutor()
        while true {
            pthread_mutex_lock(lock)
            while queue.isEmpty {
                sleeping = true
                pthread_cond_wait(wake, lock)
                sleeping = false
            }
            swap(&batch, &queue)
            pthread_mutex_unlock(lock)
            for job in batch { job.runSynchronously(on: me) }
            batch.removeAll(keepingCapacity: true)
        }
    }
}

extension ThreadExecutor {
    /// The executor the current task prefers, where ``prefer(_:_:)`` set it: what an
    /// unstructured task started on the tree's behalf (a single flight's work) is given, as
    /// `Task {}` does not inherit an executor preference, while it does inherit task-locals.
    @TaskLocal public static var preferred: ThreadExecutor?

    /// Runs `body` preferring `executor`, it and every task started for it that asks
    /// ``preferred``.
    public static func prefer<T: Sendable>(_ executor: ThreadExecutor, _ body: () async -> T) async -> T {
        await $preferred.withValue(executor) { await withTaskExecutorPreference(executor) { await body() } }
    }
}
