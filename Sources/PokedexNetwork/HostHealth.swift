import FoundationEssentials
import PokedexLocks
import PokedexModels

/// Each host's health, on its own: the API and the sprite host fail independently (some
/// networks block GitHub's raw host while the API answers).
///
/// - A host goes down on a failure to reach it at all (DNS, connect, TLS, time-out), on three
///   cut-off bodies in a row, or on eight server errors in a row with no answer between.
/// - While it is down, nothing is sent to it before its next try is due: callers are answered
///   from what is known ("cannot reach it since …; next try in N s"). When the try is due, one
///   request goes (a caller's who cannot answer without it, or the probe), and whoever else
///   needs the host meanwhile waits for that one attempt's outcome (``Admission/wait``). So
///   no caller, however many, makes it exceed the probe schedule.
/// - It is tried again after 1 s, then 2, 4 … 30 s, each up to a quarter longer at random
///   (``probe(for:)``); any answer brings it back.
/// - Each change is told once (``observe(_:)``): one journal line down, one up.
package final class HostHealth: Sendable {
    /// What a change looks like to the observer.
    package struct Change: Sendable {
        package let host: String
        package let up: Bool
        package let isAPI: Bool
        package let reason: String
    }

    private struct Host {
        /// When it went down, as a person reads it (the wall clock, shown, never compared), and
        /// its next try on the monotonic clock: a wall-clock step or a suspend moves no try.
        var down: (since: Date, reason: String, nextAttempt: Instant, backoff: Double)?
        /// Bumped each time it goes down: an answer to a request sent before that proves nothing.
        var outage = 0
        var serverErrorsInARow = 0
        var cutInARow = 0
        var multiplexed: Bool?
        /// The last URL that failed here: what the probe asks again.
        var probeURL: String?
        /// It went down for server errors (it answers, badly), not for being out of reach.
        var downForErrors = false
        /// While down: the one attempt of this try is under way.
        var attempting = false
        /// Who waits for that attempt's outcome, by ticket.
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    /// How a request may go to its host.
    package enum Admission: Equatable {
        /// Go ahead; `outage` is the host's counter when it was sent.
        case go(outage: Int)
        /// The host is down and its next try is due: this caller makes the one attempt, with no
        /// retries, and calls ``endAttempt(_:)`` when it is over.
        case once(outage: Int)
        /// The host is down and another caller's attempt is under way: wait for it
        /// (``waitForAttempt(_:)``), then ask again.
        case wait
        /// The host went down a moment ago and its next try is this close (at most
        /// ``NetworkSchedule/imminent`` seconds): wait until then, within the caller's deadline, and ask again,
        /// so that one dropped connection does not fail every call of the next second.
        case waitUntil(Instant)
        /// The host is down: fail at once with this message.
        case refused(String)
    }

    /// Each pause is stretched by up to a quarter, at random: copies of the service that saw
    /// the same outage begin do not probe in step (never shorter: the schedule is a floor).
    package static func jitter() -> Double { Double.random(in: 1...1.25) }
    package static let serverErrorsToGoDown = 8
    /// Bodies cut off in a row (no whole answer between them) that take a host down. A host
    /// going away mid-transfer cuts every transfer under way, then refuses connections (which
    /// takes it down at once); a lossy link that cuts one body in ten cuts three in a row about
    /// once in a thousand answers, and a host taken down refuses callers until its next try.
    package static let cutsToGoDown = 6

    private let apiHost: String?
    private let clock: any PokedexClock
    /// The probes' pauses: 1 s, doubling, at most 30 s (scaled down for tests).
    private let schedule: NetworkSchedule
    private let hosts = Mutex<[String: Host]>([:])
    /// Tickets for the callers of ``waitForAttempt(_:)``, so a cancelled one finds its own.
    private let nextTicket = Mutex<UInt64>(0)
    private let observers = Mutex<[@Sendable (Change) -> Void]>([])

    /// - Parameter apiHost: the authority `Online` follows; nil: every host counts.
    package init(apiHost: String?, clock: any PokedexClock, schedule: NetworkSchedule = .init()) {
        self.apiHost = apiHost
        self.clock = clock
        self.schedule = schedule
    }

    /// Adds `handler`, told of every change from the thread that saw it.
    package func observe(_ handler: @escaping @Sendable (Change) -> Void) { observers.withLock { $0.append(handler) } }

    /// `host` or `host:port` of a URL, lower-cased: the key health is tracked under.
    package static func authority(_ url: String) -> String? {
        guard let u = URLComponents(string: url), let host = u.host?.lowercased(), !host.isEmpty else { return nil }
        return u.port.map { "\(host):\($0)" } ?? host
    }

    /// Whether the API host answers (with no API host named: whether every host does).
    package var isOnline: Bool {
        hosts.withLock { h in
            if let apiHost { return h[apiHost]?.down == nil }
            return h.values.allSatisfy { $0.down == nil }
        }
    }

    package func isUp(_ host: String) -> Bool { hosts.withLock { $0[host]?.down == nil } }

    /// Whether the host is down for being out of reach (so that any answer proves it back).
    package func isUnreachable(_ host: String) -> Bool { hosts.withLock { h in h[host].map { $0.down != nil && !$0.downForErrors } ?? false } }

    /// What a caller is told while the host is down ("cannot reach … since …; next try in N s");
    /// nil while it is up. For a request admitted before it went down, or waiting for a try.
    package func downMessage(_ host: String) -> String? {
        hosts.withLock { h in
            guard let entry = h[host], let down = entry.down else { return nil }
            return Self.downMessage(host, down.since, down.reason, wait: down.nextAttempt - clock.instant(), trying: entry.attempting)
        }
    }

    /// Whether the host is known to multiplex (HTTP/2); nil until it answered once.
    package func multiplexes(_ host: String) -> Bool? { hosts.withLock { $0[host]?.multiplexed } }

    /// When a host that is down is next due for a probe, and what to ask it; nil while it is up.
    package func probe(for host: String) -> (at: Instant, url: String)? {
        hosts.withLock { h in
            guard let entry = h[host], let down = entry.down, let url = entry.probeURL else { return nil }
            return (down.nextAttempt, url)
        }
    }

    /// Before each attempt.
    package func admit(_ host: String, _ priority: FetchPriority) -> Admission {
        hosts.withLock { h in
            guard var entry = h[host], let down = entry.down else { return .go(outage: h[host]?.outage ?? 0) }
            let now = clock.instant()
            if priority == .required {
                if entry.attempting { return .wait }
                if now >= down.nextAttempt {
                    entry.attempting = true
                    h[host] = entry
                    return .once(outage: entry.outage)
                }
                if down.backoff <= schedule.imminent { return .waitUntil(down.nextAttempt) }
            }
            return .refused(Self.downMessage(host, down.since, down.reason, wait: down.nextAttempt - now, trying: entry.attempting))
        }
    }

    /// "cannot reach pokeapi.co since 13:45:02 UTC (…); next try in 4 s".
    package static func downMessage(_ host: String, _ since: Date, _ reason: String, wait: Double, trying: Bool) -> String {
        let when = trying || wait <= 0 ? "trying again now" : "next try in \(Int(wait.rounded(.up))) s"
        return "cannot reach \(host) since \(clockTime(since)) (\(reason)); \(when)"
    }

    /// The attempt ``admit(_:_:)`` granted with `.once` is over (answered, failed, or never
    /// sent): those waiting for it ask again.
    package func endAttempt(_ host: String) {
        let waiters: [CheckedContinuation<Void, Never>] = hosts.withLock { h in
            guard var entry = h[host], entry.attempting else { return [] }
            entry.attempting = false
            defer { entry.waiters = [:]; h[host] = entry }
            return Array(entry.waiters.values)
        }
        for w in waiters { w.resume() }
    }

    /// Returns when the attempt under way to `host` (if any) is over, or at once when the
    /// caller's task is cancelled: a call past its deadline is answered then, not when the
    /// attempt's own time-out ends (the caller checks `Task.isCancelled` after).
    package func waitForAttempt(_ host: String) async {
        let ticket = nextTicket.withLock { n -> UInt64 in n += 1; return n }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                // Cancelled before this: its handler found nothing to resume, so nothing waits.
                let queued = hosts.withLock { h -> Bool in
                    guard !Task.isCancelled, var entry = h[host], entry.attempting else { return false }
                    entry.waiters[ticket] = c
                    h[host] = entry
                    return true
                }
                if !queued { c.resume() }
            }
        } onCancel: {
            let waiter = hosts.withLock { h -> CheckedContinuation<Void, Never>? in
                h[host]?.waiters.removeValue(forKey: ticket)
            }
            waiter?.resume()
        }
    }

    /// Any HTTP answer, whatever its status: the host is there.
    package func answered(_ host: String, status: Int, multiplexed: Bool?, sentDuring outage: Int) {
        let change: Change? = hosts.withLock { h in
            var entry = h[host, default: Host()]
            defer { h[host] = entry }
            if let multiplexed { entry.multiplexed = multiplexed }
            entry.cutInARow = 0
            if (500...599).contains(status) {
                entry.serverErrorsInARow += 1
                if entry.serverErrorsInARow >= Self.serverErrorsToGoDown, entry.down == nil {
                    return goDown(&entry, host, reason: "HTTP \(status) \(Self.serverErrorsToGoDown) times in a row", url: nil)
                }
                return nil
            }
            entry.serverErrorsInARow = 0
            // An answer to a request sent before the outage began says nothing about now.
            guard entry.down != nil, entry.outage == outage else { return nil }
            entry.down = nil
            return Change(host: host, up: true, isAPI: isAPI(host), reason: "")
        }
        if let change { tell(change) }
    }

    /// No answer at all, to a request sent when the host's outage counter was `outage`.
    package func failed(_ host: String, _ failure: TransportFailure, url: String, sentDuring outage: Int) {
        let change: Change? = hosts.withLock { h in
            var entry = h[host, default: Host()]
            defer { h[host] = entry }
            entry.probeURL = url
            // A request sent before the last change failing now says nothing new: twenty
            // sprites in flight when the host went away must not push its probe to 30 s, nor
            // take it down again once a probe has found it back.
            guard outage == entry.outage else { return nil }
            if var down = entry.down {
                // Still down, whatever the failure: the next try waits longer.
                down.backoff = min(down.backoff * 2, schedule.maxProbe)
                down.nextAttempt = clock.instant() + down.backoff * Self.jitter()
                down.reason = failure.description
                entry.down = down
                return nil
            }
            switch failure {
            case .truncated:
                entry.cutInARow += 1
                // One cut-off body is a hiccup; six in a row (no whole answer between), the network is going away mid-transfer.
                guard entry.cutInARow >= Self.cutsToGoDown else { return nil }
            case .connection, .timedOut, .untrusted:
                break
            case .tooLarge, .other:
                return nil  // the body's fault, not the host's
            }
            return goDown(&entry, host, reason: failure.description, url: url)
        }
        if let change { tell(change) }
    }

    private func goDown(_ entry: inout Host, _ host: String, reason: String, url: String?) -> Change {
        entry.outage += 1
        entry.downForErrors = url == nil
        entry.serverErrorsInARow = 0
        entry.cutInARow = 0
        if let url { entry.probeURL = url }
        let now = clock.instant()
        entry.down = (clock.now(), reason, now + schedule.firstProbe * Self.jitter(), schedule.firstProbe)
        return Change(host: host, up: false, isAPI: isAPI(host), reason: reason)
    }

    private func isAPI(_ host: String) -> Bool { apiHost == nil || apiHost == host }

    private func tell(_ change: Change) { for o in observers.withLock({ $0 }) { o(change) } }

    /// Every host seen, the API's first.
    package func snapshot() -> [HostStatus] {
        let all = hosts.withLock { h in
            h.map { key, v in
                HostStatus(host: key, isAPI: apiHost == key, up: v.down == nil,
                           downSince: v.down?.since.timeIntervalSince1970, reason: v.down?.reason ?? "",
                           nextAttempt: v.down.map { clock.wallTime(of: $0.nextAttempt).timeIntervalSince1970 }, multiplexed: v.multiplexed)
            }
        }
        var out = all.sorted { ($0.isAPI ? 0 : 1, $0.host) < ($1.isAPI ? 0 : 1, $1.host) }
        if let apiHost, !out.contains(where: { $0.host == apiHost }) { out.insert(HostStatus(host: apiHost, isAPI: true, up: true), at: 0) }
        return out
    }

    /// `13:45:02`, UTC, for messages.
    package static func clockTime(_ date: Date) -> String {
        let s = Int(date.timeIntervalSince1970) % 86400
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60)) UTC"
    }
}
