/// Which calls run now, and which wait their turn: fairly between callers, so one caller's
/// queue of expensive calls cannot delay another's cheap ones.
///
/// - Each call runs in a lane: `.heavy` for work that grows with its arguments (names for
///   4,096 ids, metas, searches), `.light` for the rest. A lane has room for so many calls at
///   once; the heavy lane's room is smaller than the machine's cores, so a thread is always left
///   for light work and the loop.
/// - Each caller may run at most ``perCaller`` calls of a lane at once, and keep at most
///   ``maxWaiting`` waiting in all; past that, a call is refused at once.
/// - When room frees in a lane, the callers waiting for it are served in turn (round-robin),
///   each its oldest call first.
///
/// Pure bookkeeping, no bus and no clock: ``PendingCalls`` asks it what to start, and the
/// property tests drive it with random arrivals and endings.
struct CallAdmission {
    enum Lane: Int, CaseIterable, Sendable {
        case light, heavy
    }

    struct Limits: Equatable {
        /// Calls each lane runs at once.
        var room: [Lane: Int]
        /// Calls of one lane one caller runs at once.
        var perCaller: [Lane: Int]
        /// Calls one caller may have waiting, in all lanes.
        var maxWaiting: Int

        /// For a machine with `cores`: heavy work leaves a core free (one lane for one core).
        static func forMachine(cores: Int, running: Int = 128) -> Limits {
            let heavy = max(1, cores - 1)
            return Limits(room: [.light: max(1, running), .heavy: heavy],
                          perCaller: [.light: max(1, running / 4), .heavy: max(1, heavy / 2)], maxWaiting: 512)
        }
    }

    private struct Lanes {
        /// Each caller's waiting calls in this lane, oldest first.
        var waiting: [String: [UInt64]] = [:]
        /// Callers with calls waiting, in the order they are served.
        var turn: [String] = []
        var running = 0
        var runningBy: [String: Int] = [:]
    }

    let limits: Limits
    private var lanes: [Lane: Lanes] = [.light: Lanes(), .heavy: Lanes()]
    /// Each call: its caller and lane, and whether it runs.
    private var calls: [UInt64: (caller: String, lane: Lane, running: Bool)] = [:]
    private var waitingBy: [String: Int] = [:]

    init(_ limits: Limits) { self.limits = limits }

    enum Arrival: Equatable {
        /// It may start now.
        case start
        /// It waits its turn.
        case wait
        /// Its caller already has ``Limits/maxWaiting`` calls waiting.
        case refused
    }

    /// A call arrives: whether it starts now, waits, or is refused (and then forgotten).
    mutating func arrive(_ id: UInt64, caller: String, lane: Lane) -> Arrival {
        var l = lanes[lane]!
        // The caller's own older calls come first. Others waiting are all at their own caps
        // when there is room (``admit`` leaves none free otherwise), so this one may go ahead.
        if l.waiting[caller] == nil, l.running < limits.room[lane]!, l.runningBy[caller, default: 0] < limits.perCaller[lane]! {
            l.running += 1
            l.runningBy[caller, default: 0] += 1
            lanes[lane] = l
            calls[id] = (caller, lane, true)
            return .start
        }
        guard waitingBy[caller, default: 0] < limits.maxWaiting else { return .refused }
        if l.waiting[caller] == nil { l.turn.append(caller) }
        l.waiting[caller, default: []].append(id)
        lanes[lane] = l
        waitingBy[caller, default: 0] += 1
        calls[id] = (caller, lane, false)
        return .wait
    }

    /// A call ends (answered, failed, or dropped while waiting): the calls that may start now,
    /// in the order to start them.
    mutating func finish(_ id: UInt64) -> [UInt64] {
        guard let call = calls.removeValue(forKey: id) else { return [] }
        var l = lanes[call.lane]!
        if call.running {
            l.running -= 1
            l.runningBy[call.caller]! -= 1
            if l.runningBy[call.caller] == 0 { l.runningBy.removeValue(forKey: call.caller) }
        } else {
            waitingBy[call.caller]! -= 1
            if waitingBy[call.caller] == 0 { waitingBy.removeValue(forKey: call.caller) }
            l.waiting[call.caller]!.removeAll { $0 == id }
            if l.waiting[call.caller]!.isEmpty {
                l.waiting.removeValue(forKey: call.caller)
                l.turn.removeAll { $0 == call.caller }
            }
        }
        lanes[call.lane] = l
        return admit(call.lane)
    }

    /// Starts waiting calls of `lane` while there is room: callers in turn, each its oldest,
    /// passing over a caller at its own cap (to the back of the turn).
    private mutating func admit(_ lane: Lane) -> [UInt64] {
        var l = lanes[lane]!
        var started: [UInt64] = []
        var skipped = 0
        while l.running < limits.room[lane]!, skipped < l.turn.count {
            let caller = l.turn.removeFirst()
            guard l.runningBy[caller, default: 0] < limits.perCaller[lane]! else {
                l.turn.append(caller)
                skipped += 1
                continue
            }
            skipped = 0
            let id = l.waiting[caller]!.removeFirst()
            if l.waiting[caller]!.isEmpty { l.waiting.removeValue(forKey: caller) } else { l.turn.append(caller) }
            l.running += 1
            l.runningBy[caller, default: 0] += 1
            waitingBy[caller]! -= 1
            if waitingBy[caller] == 0 { waitingBy.removeValue(forKey: caller) }
            calls[id]!.running = true
            started.append(id)
        }
        lanes[lane] = l
        return started
    }

    // MARK: What the tests and Status read

    func isRunning(_ id: UInt64) -> Bool { calls[id]?.running ?? false }
    func isKnown(_ id: UInt64) -> Bool { calls[id] != nil }
    func running(_ lane: Lane) -> Int { lanes[lane]!.running }
    func running(_ lane: Lane, by caller: String) -> Int { lanes[lane]!.runningBy[caller, default: 0] }
    func waiting(_ lane: Lane, by caller: String) -> [UInt64] { lanes[lane]!.waiting[caller] ?? [] }
    func waiting(by caller: String) -> Int { waitingBy[caller, default: 0] }
    var waitingCount: Int { waitingBy.values.reduce(0, +) }
}
