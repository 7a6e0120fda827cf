import CSystemd
import PokedexCore
import PokedexEventLoop
import PokedexProtocol

/// The calls read from the bus and not yet worked on. sd-bus hands the loop one message at a
/// time, in the order dbus-daemon relayed them: worked on as they come, a Ping or one cheap
/// call from a new caller would wait behind every call a hundred busy callers keep in flight.
/// Instead each call is kept (a ref on its message) and worked on in turns between senders
/// (``SenderTurns``), ``batch`` at a time, from a source below every other: the loop reads
/// all that waits on the bus (answering `Peer.Ping` and property reads as it reads) before it
/// works on the next batch.
///
/// Belongs to the loop thread, as the bus does.
final class CallQueue {
    /// Calls worked on before the loop looks at the bus again.
    static let batch = 16

    private struct Queued {
        let message: OpaquePointer
        let work: (OpaquePointer) -> Void
    }

    private let loop: EventLoop
    private var turns: SenderTurns<Queued>
    private var source: EventSource?
    /// Calls read since the last batch. Callers that wait for their replies fall quiet when no
    /// batch runs; a bus that never falls quiet (calls sent without waiting, from many
    /// connections) still gets a batch worked on every ``readsBeforeBatch`` calls read.
    private var readSinceBatch = 0
    static let readsBeforeBatch = 1024
    /// Called when the last queued call has been worked on (exit when drained).
    var onDrained: () -> Void = {}
    /// While set, calls are read and queued but not worked on (for the tests: every call of a
    /// burst queued before the first batch, however the bus delivers them).
    var paused = false {
        didSet { source?.setEnabled(!paused && !turns.isEmpty) }
    }

    init(loop: EventLoop, limits: TurnLimits = .init()) throws(EventLoopError) {
        self.loop = loop
        turns = SenderTurns(limits)
        source = try loop.whenIdle { [unowned self] in workOnBatch() }
    }

    var isEmpty: Bool { turns.isEmpty }
    var count: Int { turns.count }

    /// Keeps `m` to be worked on by `work` in its sender's turn, or refuses it at once when the
    /// sender already keeps its share.
    func arrive(_ m: OpaquePointer, member: String, _ work: @escaping (OpaquePointer) -> Void) {
        loop.preconditionInLoop()
        let sender = sd_bus_message_get_sender(m).map { String(cString: $0) } ?? ""
        guard turns.arrive(Queued(message: sd_bus_message_ref(m), work: work), from: sender) == .queued else {
            let message = ServiceMessages.format(ServiceMessages.tooManyWaiting, member, String(turns.queued(by: sender)))
            Replies.fail(m, name: PokedexError.Kind.unavailable.dbusName, message: message)
            sd_bus_message_unref(m)  // the ref the refused call would have kept
            return
        }
        guard !paused else { return }
        source?.setEnabled(true)
        readSinceBatch += 1
        if readSinceBatch >= Self.readsBeforeBatch { workOnBatch() }
    }

    /// Works on the next ``batch`` calls, in turns.
    private func workOnBatch() {
        readSinceBatch = 0
        for _ in 0..<Self.batch {
            guard let (queued, _) = turns.next() else { break }
            queued.work(queued.message)
            sd_bus_message_unref(queued.message)
        }
        guard turns.isEmpty else { return }
        source?.setEnabled(false)
        onDrained()
    }

    /// Shutdown: every call not yet worked on is answered now with this error.
    func failAll(name: String, message: String) {
        for (queued, _) in turns.removeAll() {
            Replies.fail(queued.message, name: name, message: message)
            sd_bus_message_unref(queued.message)
        }
        source?.setEnabled(false)
    }

    deinit {
        for (queued, _) in turns.removeAll() { sd_bus_message_unref(queued.message) }
    }
}
