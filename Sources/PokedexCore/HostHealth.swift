import Foundation
import PokedexLocks

/// Each host's health, on its own: the API and the sprite host fail independently (some
/// networks block GitHub's raw host while the API answers).
///
/// - A host goes down on a failure to reach it at all (DNS, connect, TLS, time-out), on three
///   cut-off bodies in a row, or on eight server errors in a row with no answer between.
/// - While it is down, nobody but a caller who cannot answer without it sends it anything,
///   and that caller makes one attempt, not a retry schedule. Everything else fails at once.
/// - It is tried again after 1 s, then 2, 4 … 30 s (``nextProbe``); any answer brings it back.
/// - Each change is told once (``observe(_:)``): one journal line down, one up.
final class HostHealth: Sendable {
    /// What a change looks like to the observer.
    struct Change: Sendable {
        let host: String
        let up: Bool
        let isAPI: Bool
        let reason: String
    }

    private struct Host {
        var down: (since: Date, reason: String, nextAttempt: Date, backoff: Double)?
        /// Bumped each time it goes down: an answer to a request sent before that proves nothing.
        var outage = 0
        var serverErrorsInARow = 0
        var cutInARow = 0
        var multiplexed: Bool?
        /// The last URL that failed here: what the probe asks again.
        var probeURL: String?
    }

    /// How a request may go to its host.
    enum Admission: Equatable {
        /// Go ahead; `outage` is the host's counter when it was sent.
        case go(outage: Int)
        /// The host is down; a caller who needs it gets this one attempt, with no retries.
        case once(outage: Int)
        /// The host is down: fail at once with this message.
        case refused(String)
    }

    static let firstBackoff = 1.0
    static let maxBackoff = 30.0
    static let serverErrorsToGoDown = 8
    static let cutsToGoDown = 3

    private let apiHost: String?
    private let clock: any PokedexClock
    private let hosts = Mutex<[String: Host]>([:])
    private let observers = Mutex<[@Sendable (Change) -> Void]>([])

    /// - Parameter apiHost: the authority `Online` follows; nil: every host counts.
    init(apiHost: String?, clock: any PokedexClock) {
        self.apiHost = apiHost
        self.clock = clock
    }

    /// Adds `handler`, told of every change from the thread that saw it.
    func observe(_ handler: @escaping @Sendable (Change) -> Void) { observers.withLock { $0.append(handler) } }

    /// `host` or `host:port` of a URL, lower-cased: the key health is tracked under.
    static func authority(_ url: String) -> String? {
        guard let u = URLComponents(string: url), let host = u.host?.lowercased(), !host.isEmpty else { return nil }
        return u.port.map { "\(host):\($0)" } ?? host
    }

    /// Whether the API host answers (with no API host named: whether every host does).
    var isOnline: Bool {
        hosts.withLock { h in
            if let apiHost { return h[apiHost]?.down == nil }
            return h.values.allSatisfy { $0.down == nil }
        }
    }

    func isUp(_ host: String) -> Bool { hosts.withLock { $0[host]?.down == nil } }

    /// Whether the host is known to multiplex (HTTP/2); nil until it answered once.
    func multiplexes(_ host: String) -> Bool? { hosts.withLock { $0[host]?.multiplexed } }

    /// When a host that is down is next due for a probe, and what to ask it; nil while it is up.
    func probe(for host: String) -> (at: Date, url: String)? {
        hosts.withLock { h in
            guard let entry = h[host], let down = entry.down, let url = entry.probeURL else { return nil }
            return (down.nextAttempt, url)
        }
    }

    /// Before each attempt.
    func admit(_ host: String, _ priority: FetchPriority) -> Admission {
        hosts.withLock { h in
            let entry = h[host, default: Host()]
            guard let down = entry.down else { return .go(outage: entry.outage) }
            if priority == .required { return .once(outage: entry.outage) }
            return .refused("\(host) has been unreachable since \(Self.clockTime(down.since)) (\(down.reason))")
        }
    }

    /// Any HTTP answer, whatever its status: the host is there.
    func answered(_ host: String, status: Int, multiplexed: Bool?, sentDuring outage: Int) {
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
    func failed(_ host: String, _ failure: TransportFailure, url: String, sentDuring outage: Int) {
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
                down.backoff = min(down.backoff * 2, Self.maxBackoff)
                down.nextAttempt = clock.now().addingTimeInterval(down.backoff)
                down.reason = failure.description
                entry.down = down
                return nil
            }
            switch failure {
            case .truncated:
                entry.cutInARow += 1
                // One cut-off body is a hiccup; three in a row, the network is going away mid-transfer.
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
        entry.serverErrorsInARow = 0
        entry.cutInARow = 0
        if let url { entry.probeURL = url }
        entry.down = (clock.now(), reason, clock.now().addingTimeInterval(Self.firstBackoff), Self.firstBackoff)
        return Change(host: host, up: false, isAPI: isAPI(host), reason: reason)
    }

    private func isAPI(_ host: String) -> Bool { apiHost == nil || apiHost == host }

    private func tell(_ change: Change) { for o in observers.withLock({ $0 }) { o(change) } }

    /// Every host seen, the API's first.
    func snapshot() -> [HostStatus] {
        let all = hosts.withLock { h in
            h.map { key, v in
                HostStatus(host: key, isAPI: apiHost == key, up: v.down == nil,
                           downSince: v.down?.since.timeIntervalSince1970, reason: v.down?.reason ?? "",
                           nextAttempt: v.down?.nextAttempt.timeIntervalSince1970, multiplexed: v.multiplexed)
            }
        }
        var out = all.sorted { ($0.isAPI ? 0 : 1, $0.host) < ($1.isAPI ? 0 : 1, $1.host) }
        if let apiHost, !out.contains(where: { $0.host == apiHost }) { out.insert(HostStatus(host: apiHost, isAPI: true, up: true), at: 0) }
        return out
    }

    /// `13:45:02`, UTC, for messages.
    static func clockTime(_ date: Date) -> String {
        let s = Int(date.timeIntervalSince1970) % 86400
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60)) UTC"
    }
}
