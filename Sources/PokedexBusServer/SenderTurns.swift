/// The order in which the loop works on the calls it has read: by sender, in turns, so a
/// hundred callers each keeping sixteen calls in flight cannot keep a new caller's one cheap
/// call waiting behind all of theirs.
///
/// - A sender with nothing queued is *fresh*: its call goes ahead of the senders already in the
///   rotation (as fq_codel serves new flows first), every other call at least, so fresh
///   arrivals cannot starve the rotation either.
/// - The rest take turns, one call each, oldest first.
/// - A sender may keep at most its share of what all senders keep: ``Limits/perSender``, or,
///   once ``Limits/total`` calls are queued, no more than the others' average (past that a call
///   is refused at once, which costs next to nothing).
///
/// Pure bookkeeping, no bus and no clock: ``CallQueue`` asks it what to serve next, and the
/// property tests drive it with random arrivals.
struct SenderTurns<Call> {
    typealias Limits = TurnLimits

    enum Arrival: Equatable {
        case queued
        /// Its sender already keeps its share.
        case refused
    }

    let limits: Limits
    /// Each sender's calls, oldest first (a head index, so taking one is O(1)).
    private var queues: [String: (calls: [Call], head: Int)] = [:]
    /// Senders whose first call waits: served before the rotation, in arrival order.
    private var fresh: [String] = []
    private var freshHead = 0
    /// Senders with calls left after a turn, in the order their next turn comes.
    private var rotation: [String] = []
    private var rotationHead = 0
    /// Whether the last call served was a fresh sender's (the next goes to the rotation).
    private var lastWasFresh = false
    private(set) var count = 0

    init(_ limits: Limits = Limits()) { self.limits = limits }

    var isEmpty: Bool { count == 0 }
    func queued(by sender: String) -> Int { queues[sender].map { $0.calls.count - $0.head } ?? 0 }
    /// Whether `sender`'s next call is served as a fresh sender's (for the tests; O(senders)).
    func isFresh(_ sender: String) -> Bool { fresh[freshHead...].contains(sender) }

    mutating func arrive(_ call: Call, from sender: String) -> Arrival {
        let mine = queued(by: sender)
        if mine >= limits.perSender { return .refused }
        // Past the total, a sender above the average is the one keeping the others waiting.
        if count >= limits.total, mine > 0, mine * queues.count >= count { return .refused }
        if mine == 0 {
            queues[sender] = ([call], 0)
            fresh.append(sender)
        } else {
            queues[sender]!.calls.append(call)
        }
        count += 1
        return .queued
    }

    /// The next call to work on, and its sender; nil when none is queued.
    mutating func next() -> (call: Call, sender: String)? {
        let sender: String
        let hasFresh = freshHead < fresh.count, hasRotation = rotationHead < rotation.count
        if hasFresh && !(lastWasFresh && hasRotation) {
            sender = fresh[freshHead]
            freshHead += 1
            lastWasFresh = true
        } else if hasRotation {
            sender = rotation[rotationHead]
            rotationHead += 1
            lastWasFresh = false
        } else {
            return nil
        }
        compact()
        var q = queues.removeValue(forKey: sender)!
        let call = q.calls[q.head]
        q.head += 1
        count -= 1
        if q.head < q.calls.count {
            if q.head >= 64 && q.head * 2 >= q.calls.count {
                q.calls.removeFirst(q.head)
                q.head = 0
            }
            queues[sender] = q
            rotation.append(sender)
        }
        return (call, sender)
    }

    /// Every call still queued, oldest of each sender first; the turns are empty after.
    mutating func removeAll() -> [(call: Call, sender: String)] {
        var all: [(Call, String)] = []
        while let n = next() { all.append(n) }
        return all
    }

    /// Drops the served part of the two lists once it is most of them.
    private mutating func compact() {
        if freshHead >= 64 && freshHead * 2 >= fresh.count {
            fresh.removeFirst(freshHead)
            freshHead = 0
        }
        if rotationHead >= 64 && rotationHead * 2 >= rotation.count {
            rotation.removeFirst(rotationHead)
            rotationHead = 0
        }
    }
}

/// How much the senders may keep queued (``SenderTurns``).
struct TurnLimits: Equatable {
    /// Calls one sender may keep queued.
    var perSender = 512
    /// Calls queued in all, past which a sender keeps no more than the average.
    var total = 4096
}
