import Dispatch
import Glibc
import PokedexLocks

/// Where the heavy lane's calls run (``CallAdmission/Lane/heavy``: names for thousands of ids,
/// searches): threads of their own, at a lower CPU priority (nice 10), so that on a busy machine
/// the loop thread, the light calls' tasks and every other program get the CPU first, and a
/// flood of expensive calls slows only itself. Their tasks prefer this executor
/// (`Task(executorPreference:)`), so the work and whatever it awaits stays here.
///
/// The threads are started once and live as long as the process; jobs run in the order they
/// came (the admission already chose that order fairly between callers).
final class HeavyLaneExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: the queue is behind a Mutex and the semaphore is thread-safe; nothing else
    // is mutable.
    private let jobs = Mutex<[UnownedJob]>([])
    private let ready = DispatchSemaphore(value: 0)

    /// The one executor of the process, with a thread for each of the heavy lane's room.
    static let shared = HeavyLaneExecutor(threads: CallAdmission.Limits.thisMachine.room[.heavy]!)

    /// How much lower than the loop these threads run: nice 10 gets about a tenth of the CPU
    /// when it competes with nice 0, and all of it when nothing else wants it.
    static let nice: Int32 = 10

    init(threads: Int) {
        for _ in 0..<max(1, threads) {
            let box = Unmanaged.passRetained(self).toOpaque()
            var thread = pthread_t()
            let r = pthread_create(&thread, nil, { arg in
                let executor = Unmanaged<HeavyLaneExecutor>.fromOpaque(arg!).takeRetainedValue()
                // PRIO_PROCESS with 0 is the calling thread on Linux: only these threads.
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, HeavyLaneExecutor.nice)
                executor.run()
            }, box)
            if r == 0 { pthread_detach(thread) } else { Unmanaged<HeavyLaneExecutor>.fromOpaque(box).release() }
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        jobs.withLock { $0.append(unowned) }
        ready.signal()
    }

    private func run() -> Never {
        while true {
            ready.wait()
            guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

extension CallAdmission.Limits {
    /// For the cores this process may run on now.
    static var thisMachine: Self { forMachine(cores: max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))) }
}
