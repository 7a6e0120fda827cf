import PokedexLocks
import PokedexModels

/// Merges concurrent loads of the same key into one: the first caller starts the work,
/// later callers wait for the same result. Once it ends, the next call starts afresh.
///
/// A caller whose task is cancelled stops waiting at once. The work goes on while anyone
/// else still waits for it, and is cancelled when the last waiter leaves.
///
/// ``lead(_:_:)`` runs the work in the caller's own task instead, for callers who are not
/// waited on by a person (a sync's thousands of loads, each with one caller): no task started,
/// no thread woken for it.
package final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// One caller. Its fields are guarded by the flight map's lock.
    // @unchecked: a reference shared by the map and the caller's cancellation handler; its
    // fields change only under `state`'s lock, which the type system cannot see.
    private final class Waiter: @unchecked Sendable {
        var continuation: CheckedContinuation<Value, any Error>?
        var cancelled = false
    }

    private struct Flight {
        let generation: UInt64
        var waiters: [ObjectIdentifier: Waiter] = [:]
        var task: Task<Void, Never>?
        /// Run by a caller of ``lead(_:_:)`` in its own task: it stays while that caller runs it,
        /// whoever else leaves.
        var led = false
    }

    private struct State {
        var flights: [Key: Flight] = [:]
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Runs `work` for `key`, or joins the run already under way.
    public func run(_ key: Key, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let waiter = Waiter()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Value, any Error>) in
                let started: UInt64? = state.withLock { s in
                    if waiter.cancelled { c.resume(throwing: CancellationError()); return nil }
                    waiter.continuation = c
                    if s.flights[key] != nil {
                        s.flights[key]!.waiters[ObjectIdentifier(waiter)] = waiter
                        return nil
                    }
                    s.generation += 1
                    s.flights[key] = Flight(generation: s.generation, waiters: [ObjectIdentifier(waiter): waiter])
                    return s.generation
                }
                guard let generation = started else { return }
                let task = start(key, generation, work)
                // Gone already: finished (cancelling then is harmless), or every waiter left.
                let orphaned = state.withLock { s -> Bool in
                    guard s.flights[key]?.generation == generation else { return true }
                    s.flights[key]!.task = task
                    return s.flights[key]!.waiters.isEmpty
                }
                if orphaned { task.cancel() }
            }
        } onCancel: {
            leave(key, waiter)
        }
    }

    /// Runs `work` for `key` in the caller's own task, or joins the run already under way (as
    /// ``run(_:_:)``). Others who call meanwhile join it. A caller cancelled meanwhile is
    /// answered once the work ends (it is cancelled with the caller); those who joined are not
    /// answered with that cancellation: the work starts again for them, in a task of its own.
    public func lead(_ key: Key, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        if Task.isCancelled { throw CancellationError() }
        let led: UInt64? = state.withLock { s in
            guard s.flights[key] == nil else { return nil }
            s.generation += 1
            s.flights[key] = Flight(generation: s.generation, led: true)
            return s.generation
        }
        guard let generation = led else { return try await run(key, work) }
        let result: Result<Value, any Error>
        do { result = .success(try await work()) } catch { result = .failure(error) }
        if Task.isCancelled, case .failure = result {
            handOver(key, generation, work)
        } else {
            finish(key, generation, result)
        }
        return try result.get()
    }

    /// The leader of a run was cancelled: the run starts again in a task of its own for those
    /// who joined it, or ends if nobody did.
    private func handOver(_ key: Key, _ generation: UInt64, _ work: @escaping @Sendable () async throws -> Value) {
        state.withLock { s in
            guard var f = s.flights[key], f.generation == generation else { return }
            guard !f.waiters.isEmpty else {
                s.flights.removeValue(forKey: key)
                return
            }
            f.led = false
            f.task = start(key, generation, work)
            s.flights[key] = f
        }
    }

    /// A task of its own for run `generation` of `key`, which finishes it; on the executor the
    /// caller's tree prefers, if it named one (a sync's thread).
    private func start(_ key: Key, _ generation: UInt64, _ work: @escaping @Sendable () async throws -> Value) -> Task<Void, Never> {
        Task(executorPreference: PreferredExecutor.current) {
            let result: Result<Value, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            self.finish(key, generation, result)
        }
    }

    private func finish(_ key: Key, _ generation: UInt64, _ result: Result<Value, any Error>) {
        let continuations = state.withLock { s -> [CheckedContinuation<Value, any Error>] in
            guard let f = s.flights[key], f.generation == generation else { return [] }
            s.flights.removeValue(forKey: key)
            return f.waiters.values.compactMap { w in
                defer { w.continuation = nil }
                return w.continuation
            }
        }
        for c in continuations { c.resume(with: result) }
    }

    /// A waiter's task was cancelled: it stops waiting; the last one to leave cancels the work.
    private func leave(_ key: Key, _ waiter: Waiter) {
        let (continuation, abandoned) = state.withLock { s -> (CheckedContinuation<Value, any Error>?, Task<Void, Never>?) in
            waiter.cancelled = true
            guard let c = waiter.continuation else { return (nil, nil) }
            waiter.continuation = nil
            guard var f = s.flights[key] else { return (c, nil) }
            f.waiters.removeValue(forKey: ObjectIdentifier(waiter))
            if f.waiters.isEmpty && !f.led {
                s.flights.removeValue(forKey: key)
                return (c, f.task)
            }
            s.flights[key] = f
            return (c, nil)
        }
        abandoned?.cancel()
        continuation?.resume(throwing: CancellationError())
    }

    /// How many loads are under way.
    public var count: Int { state.withLock { $0.flights.count } }

    /// How many callers wait for `key`'s load now.
    public func waiters(for key: Key) -> Int { state.withLock { $0.flights[key]?.waiters.count ?? 0 } }
}
