import PokedexLocks
import PokedexModels

/// Who waits for a request, which decides its place in the queue and what it does with a
/// host that is down. Set for a whole piece of work with ``withPriority(_:_:)``; child tasks
/// and the single flights they start inherit it.
package enum FetchPriority: Int, Sendable, Comparable, CustomStringConvertible {
    /// A caller waits for it and cannot answer without it. Goes first; a host that is down
    /// still gets one attempt, because a person asked.
    case required = 0
    /// A caller waits for it but answers without it (the sprite in a `Detail`): goes first,
    /// and never waits on a host that is down.
    case optional = 1
    /// Pre-warming the pages ahead of the one on screen.
    case prefetch = 2
    /// Sync, warm start, search filters, revalidation: whatever nobody waits for now.
    case background = 3

    @TaskLocal public static var current: FetchPriority = .required

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// A caller is waiting for it.
    package var isCallers: Bool { self <= .optional }

    public var description: String {
        switch self {
        case .required: return "required"
        case .optional: return "optional"
        case .prefetch: return "prefetch"
        case .background: return "background"
        }
    }
}

/// Runs `work` with every fetch it makes at `priority` (never above the priority already in force).
package func withPriority<T: Sendable, E: Error>(_ priority: FetchPriority, _ work: () async throws(E) -> T) async throws(E) -> T {
    let effective = max(priority, FetchPriority.current)
    let result: Result<T, E> = await FetchPriority.$current.withValue(effective) {
        do throws(E) { return .success(try await work()) } catch { return .failure(error) }
    }
    return try result.get()
}

/// What one bus call is waiting for right now, so a call that runs out of time can say which
/// step did: "waiting for pokemon-species 25 from pokeapi.co".
public final class CallTrace: Sendable {
    @TaskLocal public static var current: CallTrace?

    private let steps = Mutex<[(id: UInt64, what: String)]>([])
    private let counter = Mutex<UInt64>(0)

    public init() {}

    /// The most recent step still under way, if any.
    public var waitingFor: String? { steps.withLock { $0.last?.what } }

    /// Whether the call's change has begun, so that a shutdown never answers "nothing was
    /// changed" for a call that changed something, nor lets a change begin after saying so.
    private enum Commit { case open, committing, closed }
    private let commit = Mutex(Commit.open)

    /// The call is about to make its change (a favorite saved to disk). False if the call was
    /// already answered at shutdown: then the change must not be made.
    public func beginCommit() -> Bool {
        commit.withLock { c in
            guard c != .closed else { return false }
            c = .committing
            return true
        }
    }

    /// At shutdown: closes the call if it has not begun a change, and says so (true: it may be
    /// answered "nothing was changed" now). False: a change is under way; let it answer.
    public func closeUnlessCommitting() -> Bool {
        commit.withLock { c in
            guard c != .committing else { return false }
            c = .closed
            return true
        }
    }

    /// Runs `work` as a named step of the current call (if there is one).
    package static func step<T>(_ what: @autoclosure () -> String, _ work: () async throws -> T) async throws -> T {
        guard let trace = current else { return try await work() }
        let id = trace.counter.withLock { c -> UInt64 in c += 1; return c }
        let text = what()
        trace.steps.withLock { $0.append((id, text)) }
        defer { trace.steps.withLock { $0.removeAll { $0.id == id } } }
        return try await work()
    }
}
