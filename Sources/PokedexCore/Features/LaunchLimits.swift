/// What keeps the desktop's search providers from opening terminals without end: any peer on
/// the session bus may call `ActivateResult`, `LaunchSearch` or KRunner's `Run`.
///
/// Two limits, both on the caller's monotonic seconds:
/// - ``LaunchGate``: at most one launch of a kind a second, whoever asks (a double click, a
///   burst of 200 calls: one terminal);
/// - ``LaunchBudget``: a few launches at once, then one every so often, for each caller and for
///   all callers together (a peer that asks once a second forever, or many peers).
/// A person clicking results opens each one: the budgets are far above what hands do.

/// At most one launch of a kind a second: a burst of calls (200 `LaunchSearch` in a second, a
/// double click) opens one terminal. The time is the caller's, in seconds (monotonic).
public struct LaunchGate: Sendable {
    /// The shortest time between two launches.
    public static let interval = 1.0

    private var last: Double?
    /// Calls refused since the last launch (one journal line per burst).
    public private(set) var refused = 0

    public init() {}

    /// Whether a launch at `now` may go ahead; a refused one is counted.
    public mutating func admit(now: Double) -> Bool {
        if let last, now - last < Self.interval, now >= last {
            refused += 1
            return false
        }
        last = now
        refused = 0
        return true
    }
}

/// Launches as token buckets: each caller may make ``perCaller``'s `burst` at once, then one
/// every `every` seconds; all callers together ``overall``'s. A refused call spends nothing.
public struct LaunchBudget: Sendable {
    public static let perCaller = (burst: 4.0, every: 15.0)
    public static let overall = (burst: 8.0, every: 5.0)
    /// Callers remembered at most: one whose bucket is full again is forgotten first (a peer
    /// that makes a new connection for each call still meets the overall budget).
    static let maxCallers = 64

    public enum Verdict: Equatable, Sendable {
        case admitted
        /// This caller spent its budget.
        case callerSpent
        /// All callers together spent theirs.
        case overallSpent
    }

    private struct Bucket {
        var tokens: Double
        var at: Double

        mutating func refill(_ now: Double, burst: Double, every: Double) {
            // A clock that went back gives nothing and takes nothing.
            if now > at { tokens = min(burst, tokens + (now - at) / every) }
            at = max(at, now)
        }
    }

    private var callers: [String: Bucket] = [:]
    private var all = Bucket(tokens: overall.burst, at: -.infinity)
    /// Refusals since the last admitted launch, by caller (one journal line per burst).
    public private(set) var refused: [String: Int] = [:]

    public init() {}

    public mutating func admit(caller: String, now: Double) -> Verdict {
        all.refill(now, burst: Self.overall.burst, every: Self.overall.every)
        var mine = callers[caller] ?? Bucket(tokens: Self.perCaller.burst, at: now)
        mine.refill(now, burst: Self.perCaller.burst, every: Self.perCaller.every)
        let verdict: Verdict = mine.tokens < 1 ? .callerSpent : all.tokens < 1 ? .overallSpent : .admitted
        if verdict == .admitted {
            mine.tokens -= 1
            all.tokens -= 1
            refused[caller] = nil
        } else {
            refused[caller, default: 0] += 1
        }
        callers[caller] = mine
        forgetFull(now)
        return verdict
    }

    private mutating func forgetFull(_ now: Double) {
        guard callers.count > Self.maxCallers else { return }
        for (name, var b) in callers {
            b.refill(now, burst: Self.perCaller.burst, every: Self.perCaller.every)
            if b.tokens >= Self.perCaller.burst { callers[name] = nil; refused[name] = nil }
        }
        // Every one still spending: the oldest go (the overall budget still holds).
        while callers.count > Self.maxCallers, let oldest = callers.min(by: { $0.value.at < $1.value.at })?.key {
            callers[oldest] = nil
            refused[oldest] = nil
        }
    }
}
