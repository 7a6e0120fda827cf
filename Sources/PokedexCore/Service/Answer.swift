/// What a call's handler gives back: the answer now, when everything it needs is in
/// memory, or work that produces it later. Each call decides this in one place; the bus
/// adapter replies inline for `.now` and from a task for `.later`.
public enum Answer<T: Sendable>: Sendable {
    case now(T)
    case later(@Sendable () async throws(PokedexError) -> T)

    /// The answer if it is ready now, else nil.
    public var ready: T? { if case .now(let v) = self { return v } else { return nil } }

    /// The same answer, transformed, now or later as it comes.
    public func map<U: Sendable>(_ f: @escaping @Sendable (T) -> U) -> Answer<U> {
        switch self {
        case .now(let v): return .now(f(v))
        case .later(let work): return .later { () throws(PokedexError) in f(try await work()) }
        }
    }

    /// The answer `f` gives for this one: now when both are, else later.
    public func flatMap<U: Sendable>(_ f: @escaping @Sendable (T) -> Answer<U>) -> Answer<U> {
        switch self {
        case .now(let v): return f(v)
        case .later(let work): return .later { () throws(PokedexError) in try await f(try await work()).value() }
        }
    }

    /// The answer, waiting for it if needed.
    public func value() async throws(PokedexError) -> T {
        switch self {
        case .now(let v): return v
        case .later(let work): return try await work()
        }
    }
}
