import Dispatch
import Synchronization

/// Work of the loop's (not Sendable) handed to it by ``EventLoop/runAndWait(_:)`` and waited
/// for. Exactly one side claims it: the loop, which runs it on its thread, or the caller, who
/// takes it back once the loop has ended without running it (queued after the loop's last
/// look at its queue, it would otherwise be waited for forever).
final class AwaitedWork: @unchecked Sendable {
    // @unchecked: `work` is called at most once, on the loop's thread, by whoever wins `claim`.
    private let work: () -> Void
    private let claim = Atomic<UInt8>(Claim.queued)
    private let done = DispatchSemaphore(value: 0)

    private enum Claim {
        static let queued: UInt8 = 0, taken: UInt8 = 1
    }

    init(_ work: @escaping () -> Void) { self.work = work }

    /// On the loop's thread: runs the work, unless its caller took it back.
    func runUnlessWithdrawn() {
        guard take() else { return }
        work()
        done.signal()
    }

    /// Whether the work ran, waiting up to `seconds` for it.
    func finished(within seconds: Double) -> Bool {
        done.wait(timeout: .now() + seconds) == .success
    }

    /// The caller takes the work back; false when the loop has it already (it runs, or ran).
    func withdraw() -> Bool { take() }

    private func take() -> Bool {
        claim.compareExchange(expected: Claim.queued, desired: Claim.taken, ordering: .acquiringAndReleasing).exchanged
    }
}
