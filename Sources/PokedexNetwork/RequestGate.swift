import PokedexLocks
import PokedexModels

/// The network's budget, in one place: requests in flight (in all, and per host that does not
/// multiplex) and bytes of bodies held until they are decoded. Callers go first, and room is
/// always kept for them: pre-warming and background work never fill the last slots.
///
/// A request waits here, not in libcurl's own queue, so a caller's request does not queue
/// behind prefetch: the order is decided here, by ``FetchPriority``, first come first served
/// within one priority. (Until an HTTPS host has answered once, its requests are let through
/// as if it multiplexed; were it HTTP/1.1 after all, curl's per-host cap queues the excess of
/// that first burst.)
package final class RequestGate: Sendable {
    package struct Limits: Sendable {
        /// Requests in flight at once, over every host.
        var maxInFlight = 64
        /// Requests in flight to one host that does not multiplex (HTTP/1.1), or not known yet.
        var perHostConnections = 6
        /// Bytes of bodies fetched and not yet decoded.
        var maxHeldBytes = 8 << 20
        /// Slots kept for callers: background work may not take them.
        var reserve: Int { max(1, maxInFlight / 8) }

        package init(maxInFlight: Int = 64, perHostConnections: Int = 6, maxHeldBytes: Int = 8 << 20) {
            self.maxInFlight = maxInFlight
            self.perHostConnections = perHostConnections
            self.maxHeldBytes = maxHeldBytes
        }
    }

    /// One admitted request: its slot and the bytes it holds.
    package final class Ticket: Sendable {
        fileprivate let host: String
        fileprivate let held = Mutex<(bytes: Int, inFlight: Bool)>((0, true))
        fileprivate init(host: String, bytes: Int) {
            self.host = host
            held.withLock { $0.bytes = bytes }
        }
    }

    // @unchecked: a reference shared by the queue and the caller's cancellation handler; its
    // mutable fields change only under the gate's lock, which the type system cannot see.
    final class Waiter: @unchecked Sendable {
        let id: UInt64
        let host: String
        let url: String
        var priority: FetchPriority
        let bytes: Int
        /// Until the host has answered once: whether it may multiplex (see ``HTTPRequest/mayMultiplex(_:)``).
        var mayMultiplex: Bool { HTTPRequest.mayMultiplex(url) }
        var continuation: CheckedContinuation<Ticket, any Error>?
        init(id: UInt64, host: String, url: String, priority: FetchPriority, bytes: Int) {
            self.id = id
            self.host = host
            self.url = url
            self.priority = priority
            self.bytes = bytes
        }
    }

    struct State {
        var inFlight = 0
        var perHost: [String: Int] = [:]
        var heldBytes = 0
        var waiting: [Waiter] = []
        var nextID: UInt64 = 0
        var maxInFlightSeen = 0
    }

    package let limits: Limits
    private let multiplexes: @Sendable (String) -> Bool?
    private let state = Mutex(State())

    /// - Parameter multiplexes: whether a host multiplexes (HTTP/2); nil while unknown.
    ///
    /// A host no one has heard from yet is not a host that is down: a cold start's first
    /// burst (the list and the first screen's sprites) goes at once. What a dead host costs is
    /// bounded by the connection, not by a wait: over HTTPS the burst shares the one
    /// connection being opened (curl's PIPEWAIT), so a host out of reach receives no request
    /// at all; an HTTP/1.1 host receives at most its ``Limits/perHostConnections``. The first
    /// failure takes the host down (``HostHealth``), and what still waits here is not sent.
    package init(limits: Limits, multiplexes: @escaping @Sendable (String) -> Bool?) {
        self.limits = limits
        self.multiplexes = multiplexes
    }

    /// Waits for room, in priority order. Throws `CancellationError` if the task is cancelled first.
    package func enter(host: String, url: String, priority: FetchPriority, bytes: Int) async throws -> Ticket {
        let waiter = state.withLock { s -> Waiter in
            s.nextID += 1
            return Waiter(id: s.nextID, host: host, url: url, priority: priority, bytes: bytes)
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Ticket, any Error>) in
                let admitted: [(CheckedContinuation<Ticket, any Error>, Ticket)] = state.withLock { s in
                    if Task.isCancelled {
                        c.resume(throwing: CancellationError())
                        return []
                    }
                    waiter.continuation = c
                    let at = s.waiting.firstIndex { ($0.priority, $0.id) > (waiter.priority, waiter.id) } ?? s.waiting.endIndex
                    s.waiting.insert(waiter, at: at)
                    return admit(&s)
                }
                for (c, t) in admitted { c.resume(returning: t) }
            }
        } onCancel: {
            let c: CheckedContinuation<Ticket, any Error>? = state.withLock { s in
                guard let i = s.waiting.firstIndex(where: { $0 === waiter }) else { return nil }
                s.waiting.remove(at: i)
                defer { waiter.continuation = nil }
                return waiter.continuation
            }
            c?.resume(throwing: CancellationError())
        }
    }

    /// The request's transfer ended: its slot is free; its body (`bytes`, or none) is held
    /// until ``release(_:)``.
    package func transferEnded(_ ticket: Ticket, bodyBytes: Int) {
        ticket.held.withLock { h in
            let was = h.bytes
            h.bytes = bodyBytes
            h.inFlight = false
            state.withLock { s in
                s.inFlight -= 1
                s.perHost[ticket.host, default: 1] -= 1
                if s.perHost[ticket.host] == 0 { s.perHost.removeValue(forKey: ticket.host) }
                s.heldBytes += bodyBytes - was
            }
        }
        pump()
    }

    /// Everything the request held is given back (its body was decoded or dropped).
    package func release(_ ticket: Ticket) {
        let (bytes, inFlight) = ticket.held.withLock { h -> (Int, Bool) in
            defer { h = (0, false) }
            return (h.bytes, h.inFlight)
        }
        state.withLock { s in
            if inFlight {
                s.inFlight -= 1
                s.perHost[ticket.host, default: 1] -= 1
                if s.perHost[ticket.host] == 0 { s.perHost.removeValue(forKey: ticket.host) }
            }
            s.heldBytes -= bytes
        }
        pump()
    }

    /// A caller now waits for `url`, which background work asked for first: it moves up.
    package func promote(_ url: String, to priority: FetchPriority) {
        let admitted: [(CheckedContinuation<Ticket, any Error>, Ticket)] = state.withLock { s in
            var moved = false
            for w in s.waiting where w.url == url && w.priority > priority {
                w.priority = priority
                moved = true
            }
            guard moved else { return [] }
            s.waiting.sort { ($0.priority, $0.id) < ($1.priority, $1.id) }
            return admit(&s)
        }
        for (c, t) in admitted { c.resume(returning: t) }
    }

    /// (in flight now, most in flight at once so far, bytes held, waiting).
    package var usage: (inFlight: Int, maxInFlight: Int, heldBytes: Int, waiting: Int) {
        state.withLock { ($0.inFlight, $0.maxInFlightSeen, $0.heldBytes, $0.waiting.count) }
    }

    private func pump() {
        let admitted = state.withLock { admit(&$0) }
        for (c, t) in admitted { c.resume(returning: t) }
    }

    private func admit(_ s: inout State) -> [(CheckedContinuation<Ticket, any Error>, Ticket)] {
        var out: [(CheckedContinuation<Ticket, any Error>, Ticket)] = []
        for w in Self.admit(&s, limits: limits, multiplexes: multiplexes) {
            if let c = w.continuation {
                w.continuation = nil
                out.append((c, Ticket(host: w.host, bytes: w.bytes)))
            }
        }
        return out
    }

    /// Admits every waiter that fits, in priority order, and returns them. A waiter held back
    /// by the byte budget holds back everyone after it, so large bodies cannot starve.
    ///
    /// It runs each time a transfer ends, with a sync's eighty workers in line: it stops at the
    /// first waiter of work nobody waits for once that work has no room left (the line is in
    /// priority order, so only such work follows), and a host is asked whether it multiplexes,
    /// and found full, once a call rather than once a waiter (the whole line was walked and
    /// hashed: 14 % of a sync's instructions over HTTP/1.1).
    static func admit(_ s: inout State, limits: Limits, multiplexes: (String) -> Bool?) -> [Waiter] {
        var admitted: [Waiter] = []
        // This call's hosts: whether each multiplexes, and the most room it was found full at
        // (0: not found full).
        var hosts: [(name: String, multiplexes: Bool?, fullAt: Int)] = []
        var i = 0
        while i < s.waiting.count, s.inFlight < limits.maxInFlight {
            let w = s.waiting[i]
            let callers = w.priority.isCallers
            let globalRoom = callers ? limits.maxInFlight : limits.maxInFlight - limits.reserve
            let byteRoom = callers ? limits.maxHeldBytes : limits.maxHeldBytes / 4 * 3
            if s.heldBytes > 0 && s.heldBytes + w.bytes > byteRoom { break }
            // No room left for work nobody waits for; only such work follows it in the line.
            if s.inFlight >= globalRoom { break }
            let h: Int
            if let known = hosts.firstIndex(where: { $0.name == w.host }) {
                h = known
            } else {
                hosts.append((w.host, multiplexes(w.host), 0))
                h = hosts.count - 1
            }
            let hostCap = hosts[h].multiplexes ?? w.mayMultiplex ? limits.maxInFlight : limits.perHostConnections
            // Pre-warming may take every connection to an HTTP/1.1 host (a caller is next in
            // line for the first one that frees); work nobody waits for leaves one free.
            let hostRoom = callers || w.priority == .prefetch ? hostCap : max(1, hostCap - 1)
            // The host was full at this room or more already: its count has only grown since.
            if hostRoom <= hosts[h].fullAt || s.perHost[w.host, default: 0] >= hostRoom {
                hosts[h].fullAt = max(hosts[h].fullAt, hostRoom)
                i += 1
                continue
            }
            s.waiting.remove(at: i)
            s.inFlight += 1
            s.maxInFlightSeen = max(s.maxInFlightSeen, s.inFlight)
            s.perHost[w.host, default: 0] += 1
            s.heldBytes += w.bytes
            admitted.append(w)
        }
        return admitted
    }
}
