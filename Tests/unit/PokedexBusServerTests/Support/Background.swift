import Foundation
import PokedexLocks
import PokedexProtocol

/// A blocking bus call made on a thread of its own, so the test can move the clock meanwhile.
final class Background<T: Sendable>: Sendable {
    private let result = Mutex<Result<T, BusError>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping @Sendable () throws(BusError) -> T) {
        PlainThread.start { [result, done] in
            let r: Result<T, BusError>
            do throws(BusError) { r = .success(try work()) } catch { r = .failure(error) }
            result.withLock { $0 = r }
            done.signal()
        }
    }

    /// Whether it was answered yet.
    var isDone: Bool { result.withLock { $0 != nil } }

    /// The answer, waited for (at most `seconds`: a limit only for a test gone wrong).
    func wait(seconds: Double = 30) throws -> Result<T, BusError> {
        guard done.wait(timeout: .now() + seconds) == .success else { throw TestFailure("no answer in \(seconds) s") }
        done.signal()
        return result.withLock { $0! }
    }
}
