import CSystemd
import Glibc
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
/// Replies leave in the order they were made, so a Ping's reply waits behind every reply still
/// on its way to the bus daemon. When dbus-daemon is the slower (a hundred busy callers on two
/// cores), that is every call in flight, up to hundreds of milliseconds. So no batch starts
/// while more than ``backlogLimit`` bytes of replies wait to be read by the bus: the calls
/// wait here instead, where turns apply, and the loop looks again a millisecond later (longer
/// each time it is still behind, up to ``backlogRetryMax``: a frozen bus daemon costs a few
/// wake-ups a second).
///
/// Belongs to the loop thread, as the bus does.
final class CallQueue {
    /// Calls worked on before the loop looks at the bus again.
    static let batch = 16
    /// Bytes of replies on their way to the bus above which no new batch starts: a few
    /// milliseconds of dbus-daemon's reading, enough that it never waits for the next batch.
    static let backlogLimit = 128 * 1024
    /// Microseconds before the first look at the backlog once it is over the limit; each
    /// next look waits twice as long, up to ``backlogRetryMax``.
    static let backlogRetry: UInt64 = 1000
    static let backlogRetryMax: UInt64 = 64_000

    private struct Queued {
        let message: OpaquePointer
        let work: (OpaquePointer) -> Void
    }

    private let loop: EventLoop
    private var turns: SenderTurns<Queued>
    private var source: EventSource?
    /// The bytes of replies not yet taken by the bus (``unsentBytes(on:)``).
    private let backlog: () -> Int
    /// Set while the backlog is over the limit: when to look again.
    private var retry: EventSource?
    private var retryDelay = backlogRetry
    /// Times the queue waited for the bus to take its replies (for the tests).
    private(set) var backlogWaits = 0
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
        didSet { updateSource() }
    }

    init(loop: EventLoop, limits: TurnLimits = .init(), backlog: @escaping () -> Int) throws(EventLoopError) {
        self.loop = loop
        self.backlog = backlog
        turns = SenderTurns(limits)
        source = try loop.whenIdle { [unowned self] in workOnBatch() }
    }

    /// Bytes `bus` has written and the bus daemon has not read yet (`SIOCOUTQ` of its socket),
    /// or `Int.max` when sd-bus itself still holds messages it could not write.
    static func unsentBytes(on bus: OpaquePointer) -> Int {
        var held: UInt64 = 0
        if sd_bus_get_n_queued_write(bus, &held) >= 0, held > 0 { return .max }
        return unsentBytes(fd: sd_bus_get_fd(bus))
    }

    /// Bytes written to the socket `fd` and not yet read by its peer (0 when it cannot tell).
    static func unsentBytes(fd: Int32) -> Int {
        var bytes: Int32 = 0
        guard fd >= 0, ioctl(fd, UInt(TIOCOUTQ), &bytes) == 0 else { return 0 }  // SIOCOUTQ
        return Int(max(bytes, 0))
    }

    var isEmpty: Bool { turns.isEmpty }
    var count: Int { turns.count }

    /// Keeps `m` to be worked on by `work` in its sender's turn, or refuses it at once when the
    /// sender already keeps its share.
    func arrive(_ m: OpaquePointer, member: String, _ work: @escaping (OpaquePointer) -> Void) {
        loop.preconditionInLoop()
        if let closed { return Replies.fail(m, name: closed.name, message: closed.message) }
        let sender = sd_bus_message_get_sender(m).map { String(cString: $0) } ?? ""
        guard turns.arrive(Queued(message: sd_bus_message_ref(m), work: work), from: sender) == .queued else {
            let message = ServiceMessages.format(ServiceMessages.tooManyWaiting, member, String(turns.queued(by: sender)))
            Replies.fail(m, name: PokedexError.Kind.unavailable.dbusName, message: message)
            sd_bus_message_unref(m)  // the ref the refused call would have kept
            return
        }
        guard !paused else { return }
        updateSource()
        readSinceBatch += 1
        if readSinceBatch >= Self.readsBeforeBatch && retry == nil { workOnBatch() }
    }

    /// The idle source is on while there is work, the queue is not paused, and the bus takes
    /// replies.
    private func updateSource() {
        source?.setEnabled(!paused && !turns.isEmpty && retry == nil)
    }

    /// Works on the next ``batch`` calls, in turns, unless the bus is behind with its replies.
    private func workOnBatch() {
        readSinceBatch = 0
        if backlog() > Self.backlogLimit && waitForBus() { return }
        retryDelay = Self.backlogRetry
        for _ in 0..<Self.batch {
            guard let (queued, _) = turns.next() else { break }
            queued.work(queued.message)
            sd_bus_message_unref(queued.message)
        }
        guard turns.isEmpty else { return }
        source?.setEnabled(false)
        onDrained()
    }

    /// Stops working until the next look at the backlog; false (work on) when no timer can be
    /// set.
    private func waitForBus() -> Bool {
        do {
            retry = try loop.networkTimer(after: retryDelay) { [unowned self] in
                retry = nil
                updateSource()
            }
        } catch {
            return false
        }
        retryDelay = min(retryDelay * 2, Self.backlogRetryMax)
        backlogWaits += 1
        updateSource()
        return true
    }

    /// Set by ``failAll(name:message:)``: every call from then on is answered with it at once.
    private var closed: (name: String, message: String)?

    /// Shutdown: every call not yet worked on is answered now with this error, and every call
    /// that arrives later as it arrives.
    func failAll(name: String, message: String) {
        closed = (name, message)
        for (queued, _) in turns.removeAll() {
            Replies.fail(queued.message, name: name, message: message)
            sd_bus_message_unref(queued.message)
        }
        retry = nil
        source?.setEnabled(false)
    }

    deinit {
        for (queued, _) in turns.removeAll() { sd_bus_message_unref(queued.message) }
    }
}
