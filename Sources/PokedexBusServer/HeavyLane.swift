import Glibc
import PokedexLocks

extension ThreadExecutor {
    /// Where the heavy lane's calls run (``CallAdmission/Lane/heavy``: names for thousands of ids,
    /// searches): threads of their own, one for each of the lane's room, at a lower CPU priority
    /// (nice 10), so that on a busy machine the loop thread, the light calls' tasks and every
    /// other program get the CPU first, and a flood of expensive calls slows only itself. Their
    /// tasks prefer this executor (`Task(executorPreference:)`), so the work and whatever it
    /// awaits stays here; jobs run in the order they came (the admission already chose that
    /// order fairly between callers).
    static let heavyLane = ThreadExecutor(threads: CallAdmission.Limits.thisMachine.room[.heavy]!, nice: 10)
}

extension CallAdmission.Limits {
    /// For the cores this process may run on now.
    static var thisMachine: Self { forMachine(cores: max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))) }
}
