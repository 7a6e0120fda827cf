import PokedexLocks

/// Merges concurrent loads of the same key into one: the first caller starts the work,
/// later callers await the same task. Once it ends, the next call starts afresh.
public final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let inFlight = Mutex<[Key: Task<Value, any Error>]>([:])

    public init() {}

    /// Runs `work` for `key`, or joins the run already under way.
    public func run(_ key: Key, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let task: Task<Value, any Error> = inFlight.withLock { map in
            if let running = map[key] { return running }
            let t = Task<Value, any Error> {
                defer { _ = self.inFlight.withLock { $0.removeValue(forKey: key) } }
                return try await work()
            }
            map[key] = t
            return t
        }
        return try await task.value
    }

    /// How many loads are under way.
    public var count: Int { inFlight.withLock { $0.count } }
}
