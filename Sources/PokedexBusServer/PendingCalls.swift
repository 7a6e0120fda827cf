import CSystemd
import PokedexCore
import PokedexEventLoop
import PokedexLocks
import PokedexProtocol

/// Calls answered off the loop: those that could not be answered from memory, and those whose
/// work grows with their arguments. Each keeps a ref on its message, runs as a task, and is
/// replied to exactly once, on the loop thread, when the task ends.
///
/// ``CallAdmission`` decides which run: so many at once in each lane, served fairly between
/// callers. The others wait their turn as a message ref and a closure, not as a tree of tasks
/// (600 uncached calls at once would otherwise hold 600 of them, about 40 KB each). A call's
/// deadline counts from its arrival, waiting included.
///
/// A call's task is cancelled (down to its transfers, through the core's single flights)
/// when nobody waits for it any more: its caller left the bus, or it ran past the service's
/// deadline. Its state belongs to the loop thread (``LoopBound``).
final class PendingCalls: Sendable {
    private struct Call {
        let message: OpaquePointer
        let member: String
        let sender: String?
        let lane: CallAdmission.Lane
        var task: Task<Void, Never>?
        /// Starts the task; set while the call waits for its turn.
        var launch: (() -> Task<Void, Never>)?
        var deadline: EventSource?
        /// What the call waited for when its time ran out ("" if nothing in particular).
        var timedOut: String?
        /// What it is waiting for now, step by step.
        let trace = CallTrace()
    }

    /// The callers with calls pending, each followed by a ``CallerWatch``: when the caller's
    /// connection goes, its calls are cancelled.
    private final class Caller {
        var watch: CallerWatch?
        var calls: Set<UInt64> = []
    }

    /// Everything that changes, and the bus: the loop thread's alone (checked on each access).
    private struct State {
        let bus: OpaquePointer
        var calls: [UInt64: Call] = [:]
        var admission: CallAdmission
        var callers: [String: Caller] = [:]
        var nextID: UInt64 = 0
        /// Called after each reply (idle tracking, exit when drained).
        var onReply: () -> Void = {}
    }

    private let loop: EventLoop
    private let state: LoopBound<State>
    /// Seconds a bounded call may take.
    private let deadline: Double

    private var bus: OpaquePointer { state.value.bus }
    private var calls: [UInt64: Call] { get { state.value.calls } _modify { yield &state.value.calls } }
    private var admission: CallAdmission { get { state.value.admission } _modify { yield &state.value.admission } }
    private var callers: [String: Caller] { get { state.value.callers } _modify { yield &state.value.callers } }
    private var nextID: UInt64 { get { state.value.nextID } _modify { yield &state.value.nextID } }
    /// Called after each reply (idle tracking, exit when drained).
    var onReply: () -> Void { get { state.value.onReply } set { state.value.onReply = newValue } }

    init(loop: EventLoop, bus: OpaquePointer, deadline: Double, limits: CallAdmission.Limits) {
        self.loop = loop
        state = LoopBound(State(bus: bus, admission: CallAdmission(limits)), loop: loop)
        self.deadline = deadline
    }

    var isEmpty: Bool { calls.isEmpty }
    var count: Int { calls.count }

    /// Keeps the call, runs `work` as a task in `lane` when its turn comes, and replies when it
    /// ends. A caller with too many calls waiting is answered at once that it must wait.
    func start<T: Sendable>(
        _ m: OpaquePointer, member: String, bounded: Bool, lane: CallAdmission.Lane,
        _ work: @escaping @Sendable () async throws(PokedexError) -> T,
        _ encode: @escaping @Sendable (MessageWriter, T) throws(BusError) -> Void
    ) {
        nextID += 1
        let id = nextID
        let sender = sd_bus_message_get_sender(m).map { String(cString: $0) }
        let admitted = admission.arrive(id, caller: sender ?? "", lane: lane)
        if admitted == .refused {
            let message = ServiceMessages.format(ServiceMessages.tooManyWaiting, member, String(admission.limits.maxWaiting))
            return Replies.fail(m, name: PokedexError.Kind.unavailable.dbusName, message: message)
        }
        var call = Call(message: sd_bus_message_ref(m), member: member, sender: sender, lane: lane)
        let launch = { [loop, trace = call.trace] in
            let body: @Sendable () async -> Void = {
                let result: Result<T, PokedexError> = await CallTrace.$current.withValue(trace) {
                    do throws(PokedexError) { return .success(try await work()) } catch { return .failure(error) }
                }
                loop.execute { self.complete(id, result, encode) }
            }
            // Heavy work on its own threads, below the loop's CPU priority.
            return lane == .heavy ? Task(executorPreference: ThreadExecutor.heavyLane, operation: body) : Task(operation: body)
        }
        // The deadline counts from the arrival: armed before the work can start, so a clock
        // read by the work (or by whoever watches it) never runs ahead of the timer.
        if bounded {
            call.deadline = try? loop.timer(after: UInt64(deadline * 1_000_000)) { [unowned self] in expire(id) }
        }
        if admitted == .start {
            call.task = launch()
        } else {
            call.launch = launch
        }
        calls[id] = call
        if let sender { follow(sender, id) }
    }

    private func complete<T>(_ id: UInt64, _ result: Result<T, PokedexError>, _ encode: (MessageWriter, T) throws(BusError) -> Void) {
        // Already failed by a shutdown that could not wait: it was answered once.
        guard let call = calls.removeValue(forKey: id) else { return }
        unfollow(call.sender, id)
        launch(admission.finish(id))
        defer { sd_bus_message_unref(call.message) }
        switch result {
        case .success(let value):
            Replies.send(call.message) { w throws(BusError) in try encode(w, value) }
        case .failure(let e) where call.timedOut != nil:
            let step = call.timedOut.map { $0.isEmpty ? "" : ": it was still \($0)" } ?? ""
            Replies.fail(call.message, name: PokedexError.Kind.unavailable.dbusName,
                         message: "\(call.member) did not finish within \(Self.seconds(deadline))\(step) (\(e.message))")
        case .failure(let e):
            Replies.fail(call.message, name: e.dbusName, message: e.message)
        }
        onReply()
    }

    /// Starts the calls whose turn has come.
    private func launch(_ ids: [UInt64]) {
        for id in ids {
            guard let launch = calls[id]?.launch else { continue }
            calls[id]!.launch = nil
            calls[id]!.task = launch()
        }
    }

    /// A call that never started is answered (or, its caller gone, dropped) without running.
    private func dropWaiting(_ id: UInt64, reply message: String?) {
        guard let call = calls[id], call.launch != nil else { return }
        calls.removeValue(forKey: id)
        launch(admission.finish(id))
        unfollow(call.sender, id)
        if let message { Replies.fail(call.message, name: PokedexError.Kind.unavailable.dbusName, message: message) }
        sd_bus_message_unref(call.message)
        onReply()
    }

    /// Past the deadline: the work is cancelled; its reply says so.
    private func expire(_ id: UInt64) {
        guard let call = calls[id] else { return }
        if call.launch != nil {
            let ahead = admission.running(call.lane)
            return dropWaiting(id, reply: "\(call.member) did not finish within \(Self.seconds(deadline)): it waited its turn behind \(ahead) calls in progress")
        }
        // Read before cancelling: cancellation unwinds the steps.
        calls[id]!.timedOut = call.trace.waitingFor ?? ""
        call.task?.cancel()
    }

    /// Shutdown, once the grace period is over: every call that has not begun its change is
    /// answered now with `message` (which says nothing was changed) and its work cancelled. A
    /// call whose change is under way (``CallTrace/closeUnlessCommitting()``) is left to answer
    /// with what it did: failing it could invite a blind retry that undoes the change.
    /// Returns how many calls are left.
    func failAll(name: String, message: String) -> Int {
        for (id, call) in calls where call.trace.closeUnlessCommitting() {
            fail(id, call, name: name, message: message)
        }
        return calls.count
    }

    /// The last resort at exit: answers whatever is left with `message`.
    func abandonAll(name: String, message: String) {
        for (id, call) in calls { fail(id, call, name: name, message: message) }
    }

    private func fail(_ id: UInt64, _ call: Call, name: String, message: String) {
        calls.removeValue(forKey: id)
        // Nothing new starts at shutdown: what the admission would start next is left waiting,
        // to be failed in its turn by the same sweep.
        _ = admission.finish(id)
        unfollow(call.sender, id)
        call.task?.cancel()
        Replies.fail(call.message, name: name, message: message)
        sd_bus_message_unref(call.message)
    }

    // MARK: Callers

    /// Follows the caller of call `id`. A caller that has already left (its call waited in
    /// the queue meanwhile) is found out when the bus answers, like one that leaves later.
    private func follow(_ sender: String, _ id: UInt64) {
        if let caller = callers[sender] {
            caller.calls.insert(id)
            return
        }
        let caller = Caller()
        caller.watch = CallerWatch(bus: bus, name: sender) { [unowned self] in callerLeft(sender) }
        guard caller.watch != nil else { return }  // not followed: its work runs to its end
        caller.calls.insert(id)
        callers[sender] = caller
    }

    private func unfollow(_ sender: String?, _ id: UInt64) {
        guard let sender, let caller = callers[sender] else { return }
        caller.calls.remove(id)
        if caller.calls.isEmpty { callers.removeValue(forKey: sender) }
    }

    /// The caller's connection is gone: nobody will read these replies.
    private func callerLeft(_ name: String) {
        guard let caller = callers.removeValue(forKey: name) else { return }
        for id in caller.calls {
            if calls[id]?.launch != nil { dropWaiting(id, reply: nil) } else { calls[id]?.task?.cancel() }
        }
    }

    static func seconds(_ s: Double) -> String {
        s == s.rounded() ? "\(Int(s)) s" : "\(s) s"
    }
}
