import PokedexLocks
import PokedexNetwork

/// A continuation resumed once, with the value of whichever of several racers comes first.
final class Once<Value: Sendable>: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<Value, Never>?, early: Value?, resumed: Bool)>((nil, nil, false))

    func set(_ c: CheckedContinuation<Value, Never>) {
        let early = state.withLock { s -> Value? in
            if s.resumed { return s.early }
            s.continuation = c
            return nil
        }
        if let early { c.resume(returning: early) }
    }

    func resume(_ value: Value) {
        let c = state.withLock { s -> CheckedContinuation<Value, Never>? in
            guard !s.resumed else { return nil }
            s.resumed = true
            guard let c = s.continuation else { s.early = value; return nil }
            s.continuation = nil
            return c
        }
        c?.resume(returning: value)
    }

    /// `task`'s value if it comes within `seconds` of `clock`, else nil; the task goes on.
    static func first<T: Sendable>(_ task: Task<T, Never>, orNilAfter seconds: Double, clock: any PokedexClock) async -> T?
    where Value == T? {
        let once = Once<T?>()
        let timer = Task {
            try? await clock.sleep(seconds: seconds)
            once.resume(nil)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { (c: CheckedContinuation<T?, Never>) in
            once.set(c)
            Task { once.resume(await task.value) }
        }
    }
}

extension Once where Value == Void {
    func resume() { resume(()) }
}
