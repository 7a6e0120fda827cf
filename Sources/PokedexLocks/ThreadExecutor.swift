#if canImport(Glibc)
import Glibc
#endif

/// Threads of their own that run the jobs of every task preferring them
/// (`withTaskExecutorPreference`, `Task(executorPreference:)`, and the child tasks started
/// under them), in the order they came, each thread sleeping only while nothing is queued.
///
/// Two users: a sync (one thread: a sync is thousands of short steps, each woken by a transfer
/// that ended on the event loop's thread; on the shared pool each wake-up could land on another
/// idle thread, which then slept again, two context switches a step), and the bus's heavy lane
/// (threads at a lower CPU priority, so a flood of expensive calls slows only itself).
///
/// The threads start at the first job (pokectl, the same binary, never starts them) and live as
/// long as the process: an instance is never freed. Nothing run on them may wait for another job
/// of the same executor while every thread is taken, as on any executor.
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: every field below is reached only under `lock`.
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private let wake: UnsafeMutablePointer<pthread_cond_t>
    private var queue = JobQueue()
    private var sleeping = 0
    private var threads: [pthread_t] = []
    private let count: Int
    private let nice: Int32

    /// - Parameters:
    ///   - threads: how many run jobs at once.
    ///   - nice: the nice value they run at (`setpriority`; 0: left as the process has it): nice
    ///     10 gets about a tenth of the CPU when it competes with nice 0, and all of it otherwise.
    public init(threads: Int = 1, nice: Int32 = 0) {
        count = max(1, threads)
        self.nice = nice
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
        if threads.isEmpty { start() }
        let asleep = sleeping > 0
        pthread_mutex_unlock(lock)
        if asleep { pthread_cond_signal(wake) }
    }

    /// Whether the caller runs on one of this executor's threads.
    public var isCurrent: Bool {
        let me = pthread_self()
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return threads.contains { pthread_equal($0, me) != 0 }
    }

    /// Starts the threads; under `lock`. A thread that cannot be made (the process is out of
    /// them) is a state the service cannot run in: the tasks preferring it would never run.
    private func start() {
        for _ in 0..<count {
            let me = Unmanaged.passRetained(self).toOpaque()  // each thread holds it for good
            var thread = pthread_t()
            let rc = pthread_create(&thread, nil, { arg in
                Unmanaged<ThreadExecutor>.fromOpaque(arg!).takeUnretainedValue().run()
            }, me)
            guard rc == 0 else { fatalError("ThreadExecutor: pthread_create failed: \(rc)") }
            pthread_detach(thread)
            threads.append(thread)
        }
    }

    /// Runs what is queued, a job at a time, oldest first; sleeps while nothing is.
    private func run() -> Never {
        // PRIO_PROCESS with 0 is the calling thread on Linux: only this one.
        if nice != 0 { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) }
        let me = asUnownedTaskExecutor()
        while true {
            pthread_mutex_lock(lock)
            while queue.isEmpty {
                sleeping += 1
                pthread_cond_wait(wake, lock)
                sleeping -= 1
            }
            let job = queue.popFirst()!
            pthread_mutex_unlock(lock)
            job.runSynchronously(on: me)
        }
    }
}
